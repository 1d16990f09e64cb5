#include "max_min_fairness.hpp"

#include <algorithm>
#include <limits>

#include "typed_lp.hpp"

namespace adaptsim {

std::vector<double> MaxMinFairnessCoefficients(const ClusterState& state, const Cluster& cluster) {
  const int m = static_cast<int>(state.jobs.size()), n = cluster.num_types();
  // x^prop_k = (C_k / m) / max_i Σ_k (C_k / m) (`proportional.py:26-43`, the same for every job).
  std::vector<double> proportional(n);
  double row_sum = 0.0;
  for (int k = 0; k < n; ++k) {
    proportional[k] = static_cast<double>(cluster.count(k)) / m;
    row_sum += proportional[k];
  }
  for (double& share : proportional) share /= row_sum;
  std::vector<double> coefficients(static_cast<std::size_t>(m) * n);
  for (int i = 0; i < m; ++i) {
    const ActiveJobView& job = state.jobs[i];
    double equal_share_throughput = 0.0;  // p_i
    for (int k = 0; k < n; ++k) {
      equal_share_throughput += internal::ThroughputOn(job, k) * proportional[k];
    }
    // (T_ik · (1/w_i)(1/p_i)) · s_i (`max_min_fairness.py:74-99`)
    const double weight = (1.0 / job.spec->priority_weight) * (1.0 / equal_share_throughput);
    for (int k = 0; k < n; ++k) {
      coefficients[static_cast<std::size_t>(i) * n + k] =
          internal::ThroughputOn(job, k) * weight * job.scale_factor;
    }
  }
  return coefficients;
}

std::vector<double> MaxMinFairnessPolicy::OneTypeShares(const ClusterState& state) const {
  const double capacity = state.num_gpus;
  double weight_sum = 0.0;
  double min_ratio = std::numeric_limits<double>::infinity();
  for (const ActiveJobView& job : state.jobs) {
    weight_sum += job.spec->priority_weight;
    min_ratio = std::min(min_ratio, job.scale_factor / job.spec->priority_weight);
  }
  const double t_star = std::min(capacity / weight_sum, min_ratio);
  double used = 0.0, headroom = 0.0;  // Σ s_i l_i and Σ s_i (1 - l_i)
  std::vector<double> shares;
  for (const ActiveJobView& job : state.jobs) {
    double lower = std::min(1.0, job.spec->priority_weight * t_star / job.scale_factor);
    shares.push_back(lower);
    used += job.scale_factor * lower;
    headroom += job.scale_factor * (1.0 - lower);
  }
  const bool contended = capacity / weight_sum < min_ratio;
  if (contended || headroom <= 0.0) return shares;
  const double theta_max = std::clamp((capacity - used) / headroom, 0.0, 1.0);
  const double theta = options_.face_position * theta_max;
  for (double& x : shares) x = x + theta * (1.0 - x);
  return shares;
}

Allocation MaxMinFairnessPolicy::ComputeAllocation(const ClusterState& state) {
  if (state.jobs.empty()) return {};
  const Cluster cluster = internal::ClusterOf(state);
  if (!aware_ || cluster.num_types() == 1) {
    return internal::SplitByCapacity(state, OneTypeShares(state), cluster);
  }
  internal::TypedLpInputs in = internal::TypedInputs(state, cluster, "max_min_fairness_perf");
  in.throughputs = MaxMinFairnessCoefficients(state, cluster);
  in.warm_start = &warm_start_;
  return internal::TypedAllocation(state, internal::LexicographicMaxMin(in).x, cluster);
}

}  // namespace adaptsim
