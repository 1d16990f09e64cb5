#include "max_min_fairness.hpp"

#include <algorithm>
#include <limits>

namespace adaptsim {

Allocation MaxMinFairnessPolicy::ComputeAllocation(const ClusterState& state) {
  Allocation allocation;
  if (state.jobs.empty()) return allocation;
  const double capacity = state.num_gpus;
  double weight_sum = 0.0;
  double min_ratio = std::numeric_limits<double>::infinity();
  for (const ActiveJobView& job : state.jobs) {
    weight_sum += job.spec->priority_weight;
    min_ratio = std::min(min_ratio, job.scale_factor / job.spec->priority_weight);
  }
  const double t_star = std::min(capacity / weight_sum, min_ratio);
  double used = 0.0, headroom = 0.0;  // Σ s_i l_i and Σ s_i (1 - l_i)
  for (const ActiveJobView& job : state.jobs) {
    double lower = std::min(1.0, job.spec->priority_weight * t_star / job.scale_factor);
    allocation.time_fraction[job.id] = lower;
    used += job.scale_factor * lower;
    headroom += job.scale_factor * (1.0 - lower);
  }
  const bool contended = capacity / weight_sum < min_ratio;
  if (contended || headroom <= 0.0) return allocation;
  const double theta_max = std::clamp((capacity - used) / headroom, 0.0, 1.0);
  const double theta = options_.face_position * theta_max;
  for (auto& [id, x] : allocation.time_fraction) x = x + theta * (1.0 - x);
  return allocation;
}

}  // namespace adaptsim
