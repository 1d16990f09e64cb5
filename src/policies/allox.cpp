#include "allox.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "adaptsim/error.hpp"
#include "baseline_inputs.hpp"
#include "linear_sum_assignment.hpp"

namespace adaptsim {

void AlloXOptions::Validate() const {
  if (!(std::isfinite(alpha) && alpha >= 0.0)) {
    throw InputError("policy", 0, "allox.alpha", "must be a finite number >= 0");
  }
}

AlloXPolicy::AlloXPolicy(AlloXOptions options) : options_(options) {
  options_.Validate();
}

Allocation AlloXPolicy::ComputeAllocation(const ClusterState& state) {
  internal::CheckBaselineInputs(state, "allox", true);
  Allocation allocation;
  if (state.jobs.empty()) return allocation;
  std::vector<const ActiveJobView*> unallocated;
  std::int64_t n = state.num_gpus;
  for (const ActiveJobView& job : state.jobs) {
    auto it = previous_.find(job.id);
    if (it != previous_.end() && it->second == 1.0) {
      --n;  // already allocated; holds its worker
    } else {
      unallocated.push_back(&job);
    }
  }
  n = std::max<std::int64_t>(n, 0);
  const std::int64_t m_u = static_cast<std::int64_t>(unallocated.size());
  std::stable_sort(unallocated.begin(), unallocated.end(),
                   [](const ActiveJobView* a, const ActiveJobView* b) {
                     return -a->time_since_arrival_s < -b->time_since_arrival_s;
                   });
  const auto keep = std::max(static_cast<std::int64_t>(options_.alpha * m_u), n);
  const std::int64_t rows = std::min(m_u, keep);
  const std::int64_t cols = n * rows;
  std::vector<double> cost(static_cast<std::size_t>(rows * cols));
  for (std::int64_t i = 0; i < rows; ++i) {
    const ActiveJobView& job = *unallocated[i];
    const double processing = static_cast<double>(job.remaining_steps) / job.throughput_steps_per_s;
    for (std::int64_t level = 0; level < rows; ++level) {
      const double scaled = static_cast<double>(level + 1) * processing;
      for (std::int64_t j = 0; j < n; ++j) {
        cost[i * cols + level * n + j] = scaled + job.time_since_arrival_s;
      }
    }
  }
  const std::vector<std::int64_t> assigned = internal::LinearSumAssignment(cost, rows, cols);
  // Per worker, the job with the largest position-from-end runs first.
  std::vector<std::int64_t> first_row(n, -1), first_level(n, -1);
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t worker = assigned[i] % n, level = assigned[i] / n;
    if (level > first_level[worker]) first_level[worker] = level, first_row[worker] = i;
  }
  for (const ActiveJobView& job : state.jobs) {
    auto it = previous_.find(job.id);
    allocation.time_fraction[job.id] = it == previous_.end() ? 0.0 : it->second;
  }
  for (std::int64_t w = 0; w < n; ++w) {
    if (first_row[w] < 0) continue;
    const ActiveJobView& job = *unallocated[first_row[w]];
    allocation.time_fraction[job.id] = 1.0 / job.scale_factor;
  }
  previous_ = allocation.time_fraction;
  return allocation;
}

}  // namespace adaptsim
