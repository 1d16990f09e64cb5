// Isolated_plus (docs/policies.md §4; `scheduler/policies/isolated_plus.py:35-55`): the division by
// the scale factor is commented out in the reference (`:50`), so x_ik = C_k / max(m, G) as in
// Gandiva-Fair (min(1, C/m) on one type). The policy name "Isolated_plus" switches the Gavel
// selection to strict priority
// (`break` at the first job that does not fit, `scheduler.py:1253-1259`): Traits() sets
// stop_at_first_misfit. Its JCTs are the optional denominator of an alternative FTF metric
// (`plotting.py:76-106`).
#pragma once

#include "adaptsim/policy.hpp"

namespace adaptsim {

class IsolatedPlusPolicy final : public AllocationPolicy {
 public:
  AllocationPolicyTraits Traits() const override {
    AllocationPolicyTraits traits;
    traits.stop_at_first_misfit = true;
    traits.several_gpu_types = true;
    traits.shuffle_gpu_type_order = true;  // "Isolated_plus" has no "Perf"
    return traits;
  }
  /// Throws InputError if a scale factor exceeds the cluster.
  Allocation ComputeAllocation(const ClusterState& state) override;
};

}  // namespace adaptsim
