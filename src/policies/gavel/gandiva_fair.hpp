// Gandiva-Fair (docs/policies.md §3.6; `scheduler/policies/gandiva_fair_proportional.py:10-58`):
// every job gets the same time share on each GPU type k, proportional to the type's GPUs:
//   x_ik = (C_k / m) / max(1, Σ_k' C_k' / m) = C_k / max(m, G),
// ignoring the job's scale factor and throughput. C_k = GPUs of type k, G = Σ C_k, m = active
// jobs. On one type x_i = min(1, C/m). There is no trading of GPU types between jobs
// (docs/mechanism.md §12.7): the reference's `gandiva_fair` is this capacity-proportional split.
#pragma once

#include <vector>

#include "adaptsim/policy.hpp"

namespace adaptsim {

/// x_k = (C_k / m) [/ s] / max(1, Σ_k (C_k / m) [/ s]) per type k of `cluster`, with the
/// reference's floating-point operation order; `scale_factor` 0 leaves out the division by s
/// (Gandiva-Fair, isolated_plus), s >= 1 applies it (isolated).
std::vector<double> CapacityProportionalShares(const Cluster& cluster, int num_jobs,
                                               int scale_factor);

/// x_ik = C_k / max(m, G) for every active job (the shares above without s): Gandiva-Fair's and
/// isolated_plus's allocation.
Allocation CapacityProportionalAllocation(const ClusterState& state);

class GandivaFairPolicy final : public AllocationPolicy {
 public:
  AllocationPolicyTraits Traits() const override {
    return {.several_gpu_types = true,
            .shuffle_gpu_type_order = true};  // "GandivaFairProportional"
  }
  Allocation ComputeAllocation(const ClusterState& state) override;
};

}  // namespace adaptsim
