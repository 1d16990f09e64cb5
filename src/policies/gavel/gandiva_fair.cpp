#include "gandiva_fair.hpp"

#include <algorithm>

namespace adaptsim {

Allocation GandivaFairPolicy::ComputeAllocation(const ClusterState& state) {
  Allocation allocation;
  if (state.jobs.empty()) return allocation;
  const double share = static_cast<double>(state.num_gpus) / static_cast<double>(state.jobs.size());
  const double x = share / std::max(1.0, share);  // same float operations as the reference
  for (const ActiveJobView& job : state.jobs) allocation.time_fraction[job.id] = x;
  return allocation;
}

}  // namespace adaptsim
