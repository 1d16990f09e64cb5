// Isolated (docs/policies.md §4; `scheduler/policies/isolated.py:35-55`, `:93-134`): each of the m
// active jobs gets an equal 1/m share of each GPU type's C_k GPUs, converted to a time fraction by
// its scale factor:
//   x_ik = (C_k / (m s_i)) / max(1, Σ_k' C_k' / (m s_i)) = C_k / max(m s_i, G);
// on one type x_i = min(1, C / (m s_i)).
// Also the "isolated throughput" T_i x_i that Themis normalises by (§3.2 step 1).
#pragma once

#include "adaptsim/policy.hpp"

namespace adaptsim {

/// x_i above, with the reference's floating-point operation order ((C/m)/s, then / max(1, ·)).
double IsolatedTimeFraction(int num_gpus, int num_jobs, int scale_factor);

class IsolatedPolicy final : public AllocationPolicy {
 public:
  AllocationPolicyTraits Traits() const override {
    return {.several_gpu_types = true, .shuffle_gpu_type_order = true};  // "Isolated"
  }
  /// Throws InputError if a scale factor exceeds the cluster.
  Allocation ComputeAllocation(const ClusterState& state) override;
};

}  // namespace adaptsim
