#include "allox.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "adaptsim/error.hpp"
#include "adaptsim/linear_sum_assignment.hpp"
#include "baseline_inputs.hpp"

namespace adaptsim {

namespace {

/// Per worker, the row that runs first, from SciPy's assignment of the rows × (n·rows) matrix.
std::vector<std::int64_t> FirstRowsByAssignment(const std::vector<const ActiveJobView*>& jobs,
                                                std::int64_t rows, std::int64_t n) {
  const std::int64_t cols = n * rows;
  std::vector<double> cost(static_cast<std::size_t>(rows * cols));
  for (std::int64_t i = 0; i < rows; ++i) {
    const ActiveJobView& job = *jobs[i];
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
  return first_row;
}

/// The same optimum from the structure (allox.hpp): rows by N/T descending (ties by row), n per
/// position; the last position's k rows and the n − k shortest rows of the position before.
std::vector<std::int64_t> FirstRowsByStructure(const std::vector<const ActiveJobView*>& jobs,
                                               std::int64_t rows, std::int64_t n) {
  std::vector<double> processing(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i) {
    processing[i] = static_cast<double>(jobs[i]->remaining_steps) / jobs[i]->throughput_steps_per_s;
  }
  std::vector<std::int64_t> order(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int64_t a, std::int64_t b) { return processing[a] > processing[b]; });
  const std::int64_t last_level = (rows - 1) / n;
  const std::int64_t at_last = rows - last_level * n;
  const std::int64_t begin = last_level == 0 ? last_level * n : last_level * n - (n - at_last);
  return {order.begin() + begin, order.end()};
}

}  // namespace

AlloXPolicy::AlloXPolicy(AlloXOptions options) : options_(options) {
  ValidateOptions(options_, {"policy", "allox"});
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
  std::vector<std::int64_t> first_rows;
  if (rows > 0 && n > 0) {
    const double cells = static_cast<double>(rows) * static_cast<double>(n) * rows;
    first_rows = cells <= options_.exact_assignment_max_cells
                     ? FirstRowsByAssignment(unallocated, rows, n)
                     : FirstRowsByStructure(unallocated, rows, n);
  }
  for (const ActiveJobView& job : state.jobs) {
    auto it = previous_.find(job.id);
    allocation.time_fraction[job.id] = it == previous_.end() ? 0.0 : it->second;
  }
  for (std::int64_t row : first_rows) {
    if (row < 0) continue;
    const ActiveJobView& job = *unallocated[row];
    allocation.time_fraction[job.id] = 1.0 / job.scale_factor;
  }
  previous_ = allocation.time_fraction;
  return allocation;
}

}  // namespace adaptsim
