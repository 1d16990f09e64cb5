// Gandiva-Fair (docs/policies.md §3.6; `scheduler/policies/gandiva_fair_proportional.py:10-58`):
// every job gets the same time share x_i = (C/m) / max(1, C/m) = min(1, C/m), ignoring its
// scale factor and throughput. C = GPUs, m = active jobs.
#pragma once

#include "adaptsim/policy.hpp"

namespace adaptsim {

class GandivaFairPolicy final : public AllocationPolicy {
 public:
  Allocation ComputeAllocation(const ClusterState& state) override;
};

}  // namespace adaptsim
