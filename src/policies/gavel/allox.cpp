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

/// N_i / T_ik, the reference's processing time of row i on a slot of type k; a zero throughput
/// counts as 1e-10 (`allox.py:117-118`).
double ProcessingTime(const ActiveJobView& job, int type) {
  double throughput = internal::ThroughputOn(job, type);
  if (throughput == 0.0) throughput = 1e-10;
  return static_cast<double>(job.remaining_steps) / throughput;
}

/// Per worker slot, the row that runs first, from SciPy's assignment of the rows × (n·rows)
/// matrix; `slot_types[j]` is the GPU type of slot j (n = slot_types.size()).
std::vector<std::int64_t> FirstRowsByAssignment(const std::vector<const ActiveJobView*>& jobs,
                                                std::int64_t rows,
                                                const std::vector<int>& slot_types,
                                                internal::LsapCostShift shift) {
  const auto n = static_cast<std::int64_t>(slot_types.size());
  const std::int64_t cols = n * rows;
  std::vector<double> cost(static_cast<std::size_t>(rows * cols));
  std::vector<double> processing(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < rows; ++i) {
    const ActiveJobView& job = *jobs[i];
    for (std::int64_t j = 0; j < n; ++j) {
      processing[j] = j > 0 && slot_types[j] == slot_types[j - 1]
                          ? processing[j - 1]
                          : ProcessingTime(job, slot_types[j]);
    }
    for (std::int64_t level = 0; level < rows; ++level) {
      for (std::int64_t j = 0; j < n; ++j) {
        const double scaled = static_cast<double>(level + 1) * processing[j];
        cost[i * cols + level * n + j] = scaled + job.time_since_arrival_s;
      }
    }
  }
  const std::vector<std::int64_t> assigned = internal::LinearSumAssignment(cost, rows, cols, shift);
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
  if (state.jobs.empty()) return {};
  const Cluster cluster = internal::ClusterOf(state);
  const int num_types = cluster.num_types();
  // `:45-62`: already allocated iff the previous x_ik sum (0.0 + types in name order) is 1.0.
  std::vector<const ActiveJobView*> unallocated;
  std::vector<int> held(num_types, 0);  // already allocated jobs with x_ik == 1.0, per type
  for (const ActiveJobView& job : state.jobs) {
    auto it = previous_.find(job.id);
    double total = 0.0;
    if (it != previous_.end()) {
      for (double x : it->second) total += x;
    }
    if (it != previous_.end() && total == 1.0) {
      for (int k = 0; k < num_types; ++k) held[k] += it->second[k] == 1.0 ? 1 : 0;
    } else {
      unallocated.push_back(&job);
    }
  }
  // `:64-79`: worker slots, type by type in name order, minus the held ones.
  std::vector<int> slot_types;
  for (int k = 0; k < num_types; ++k) {
    slot_types.insert(slot_types.end(), std::max(cluster.count(k) - held[k], 0), k);
  }
  const auto n = static_cast<std::int64_t>(slot_types.size());
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
    // The structured optimum needs identical workers: one GPU type only.
    first_rows = num_types > 1 || cells <= options_.exact_assignment_max_cells
                     ? FirstRowsByAssignment(unallocated, rows, slot_types,
                                             options_.shift_costs_by_minimum
                                                 ? internal::LsapCostShift::kMinimum
                                                 : internal::LsapCostShift::kNone)
                     : FirstRowsByStructure(unallocated, rows, n);
  }
  // `:163-186`: the previous x for every job that has one, 0 otherwise; then the first job of
  // each slot gets 1/s_i on the slot's type (so a multi-GPU job can collect 1/s on several).
  std::map<JobId, std::vector<double>> fractions;
  for (const ActiveJobView& job : state.jobs) {
    auto it = previous_.find(job.id);
    fractions.emplace(job.id,
                      it == previous_.end() ? std::vector<double>(num_types, 0.0) : it->second);
  }
  for (std::size_t slot = 0; slot < first_rows.size(); ++slot) {
    if (first_rows[slot] < 0) continue;
    const ActiveJobView& job = *unallocated[first_rows[slot]];
    // The structured path lists rows only; its workers are all of type 0.
    const int type = num_types > 1 ? slot_types[slot] : 0;
    fractions[job.id][type] = 1.0 / job.scale_factor;
  }
  previous_ = fractions;
  return internal::ToAllocation(std::move(fractions), num_types);
}

}  // namespace adaptsim
