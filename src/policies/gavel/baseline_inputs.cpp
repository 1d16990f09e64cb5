#include "baseline_inputs.hpp"

#include <cmath>

#include "adaptsim/error.hpp"

namespace adaptsim::internal {

void CheckBaselineInputs(const ClusterState& state, const std::string& policy,
                         bool needs_throughput) {
  const std::string file = "policy " + policy;
  if (state.num_gpus < 1 && !state.jobs.empty()) {
    throw InputError(file, 0, "num_gpus", "the cluster has no GPU");
  }
  for (const ActiveJobView& job : state.jobs) {
    const std::string which = " (job " + std::to_string(job.id) + ")";
    if (job.scale_factor < 1 || job.scale_factor > state.num_gpus) {
      throw InputError(file, 0, "scale_factor",
                       "scale factor " + std::to_string(job.scale_factor) + " does not fit a " +
                           std::to_string(state.num_gpus) + "-GPU cluster" + which);
    }
    if (needs_throughput &&
        !(std::isfinite(job.throughput_steps_per_s) && job.throughput_steps_per_s > 0.0)) {
      throw InputError(
          file, 0, "throughput",
          "throughput must be positive, got " + std::to_string(job.throughput_steps_per_s) + which);
    }
  }
}

Cluster ClusterOf(const ClusterState& state) {
  return state.cluster != nullptr ? *state.cluster : Cluster::Homogeneous(state.num_gpus);
}

double ThroughputOn(const ActiveJobView& job, int k) {
  return job.throughput_by_type_steps_per_s.empty() ? job.throughput_steps_per_s
                                                    : job.throughput_by_type_steps_per_s[k];
}

Allocation ToAllocation(std::map<JobId, std::vector<double>> fractions, int num_types) {
  Allocation allocation;
  if (num_types == 1) {
    for (const auto& [id, x] : fractions) allocation.time_fraction.emplace(id, x.front());
  } else {
    allocation.time_fraction_by_type = std::move(fractions);
  }
  return allocation;
}

Allocation SplitByCapacity(const ClusterState& state, const std::vector<double>& shares,
                           const Cluster& cluster) {
  std::vector<double> per_type(cluster.num_types());
  for (int k = 0; k < cluster.num_types(); ++k) {
    per_type[k] = static_cast<double>(cluster.count(k)) / static_cast<double>(cluster.num_gpus());
  }
  std::map<JobId, std::vector<double>> fractions;
  for (std::size_t i = 0; i < state.jobs.size(); ++i) {
    std::vector<double>& x = fractions[state.jobs[i].id];
    for (double share : per_type) x.push_back(shares[i] * share);
  }
  return ToAllocation(std::move(fractions), cluster.num_types());
}

}  // namespace adaptsim::internal
