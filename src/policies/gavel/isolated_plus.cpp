#include "isolated_plus.hpp"

#include "baseline_inputs.hpp"
#include "gandiva_fair.hpp"

namespace adaptsim {

Allocation IsolatedPlusPolicy::ComputeAllocation(const ClusterState& state) {
  internal::CheckBaselineInputs(state, "isolated_plus", false);
  // `isolated_plus.py:47-52`: the division by s_i is commented out (`:50`).
  return CapacityProportionalAllocation(state);
}

}  // namespace adaptsim
