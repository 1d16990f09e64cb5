#include "isolated.hpp"

#include <algorithm>

#include "baseline_inputs.hpp"

namespace adaptsim {

double IsolatedTimeFraction(int num_gpus, int num_jobs, int scale_factor) {
  const double share = static_cast<double>(num_gpus) / static_cast<double>(num_jobs);
  const double x = share / static_cast<double>(scale_factor);
  return x / std::max(1.0, x);
}

Allocation IsolatedPolicy::ComputeAllocation(const ClusterState& state) {
  internal::CheckBaselineInputs(state, "isolated", false);
  Allocation allocation;
  const int m = static_cast<int>(state.jobs.size());
  for (const ActiveJobView& job : state.jobs) {
    allocation.time_fraction[job.id] = IsolatedTimeFraction(state.num_gpus, m, job.scale_factor);
  }
  return allocation;
}

}  // namespace adaptsim
