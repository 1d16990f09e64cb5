#include "gandiva_fair.hpp"

#include <algorithm>

#include "baseline_inputs.hpp"

namespace adaptsim {

std::vector<double> CapacityProportionalShares(const Cluster& cluster, int num_jobs,
                                               int scale_factor) {
  // `gandiva_fair_proportional.py:26-43`, `isolated.py:93-113`: x_k = (C_k / m) [/ s], then
  // divided by max(Σ_k x_k, 1), summed in name order (numpy, left to right).
  std::vector<double> x(cluster.num_types());
  double sum = 0.0;
  for (int k = 0; k < cluster.num_types(); ++k) {
    x[k] = static_cast<double>(cluster.count(k)) / static_cast<double>(num_jobs);
    if (scale_factor > 0) x[k] /= static_cast<double>(scale_factor);
    sum += x[k];
  }
  const double divisor = std::max(sum, 1.0);
  for (double& value : x) value /= divisor;
  return x;
}

Allocation CapacityProportionalAllocation(const ClusterState& state) {
  if (state.jobs.empty()) return {};
  const Cluster cluster = internal::ClusterOf(state);
  const std::vector<double> x =
      CapacityProportionalShares(cluster, static_cast<int>(state.jobs.size()), 0);
  std::map<JobId, std::vector<double>> fractions;
  for (const ActiveJobView& job : state.jobs) fractions.emplace(job.id, x);
  return internal::ToAllocation(std::move(fractions), cluster.num_types());
}

Allocation GandivaFairPolicy::ComputeAllocation(const ClusterState& state) {
  return CapacityProportionalAllocation(state);
}

}  // namespace adaptsim
