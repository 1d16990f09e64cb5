#include "isolated_plus.hpp"

#include <algorithm>

#include "baseline_inputs.hpp"

namespace adaptsim {

Allocation IsolatedPlusPolicy::ComputeAllocation(const ClusterState& state) {
  internal::CheckBaselineInputs(state, "isolated_plus", false);
  Allocation allocation;
  if (state.jobs.empty()) return allocation;
  const double share = static_cast<double>(state.num_gpus) / static_cast<double>(state.jobs.size());
  const double x = share / std::max(1.0, share);  // `isolated_plus.py:47-52`
  for (const ActiveJobView& job : state.jobs) allocation.time_fraction[job.id] = x;
  return allocation;
}

}  // namespace adaptsim
