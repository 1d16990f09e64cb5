#include "isolated.hpp"

#include <algorithm>

#include "baseline_inputs.hpp"
#include "gandiva_fair.hpp"

namespace adaptsim {

double IsolatedTimeFraction(int num_gpus, int num_jobs, int scale_factor) {
  const double share = static_cast<double>(num_gpus) / static_cast<double>(num_jobs);
  const double x = share / static_cast<double>(scale_factor);
  return x / std::max(1.0, x);
}

Allocation IsolatedPolicy::ComputeAllocation(const ClusterState& state) {
  internal::CheckBaselineInputs(state, "isolated", false);
  const Cluster cluster = internal::ClusterOf(state);
  const int m = static_cast<int>(state.jobs.size());
  std::map<JobId, std::vector<double>> fractions;
  for (const ActiveJobView& job : state.jobs) {
    fractions.emplace(job.id, CapacityProportionalShares(cluster, m, job.scale_factor));
  }
  return internal::ToAllocation(std::move(fractions), cluster.num_types());
}

}  // namespace adaptsim
