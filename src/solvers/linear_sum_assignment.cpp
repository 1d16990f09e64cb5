#include "adaptsim/linear_sum_assignment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "adaptsim/error.hpp"

namespace adaptsim::internal {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Working state of one solve (SciPy's variable names in comments).
struct LsapState {
  std::int64_t rows = 0, cols = 0;
  std::vector<double> cost;
  std::vector<double> row_dual;          // u
  std::vector<double> col_dual;          // v
  std::vector<double> path_cost;         // shortestPathCosts
  std::vector<std::int64_t> path;        // predecessor row of each column
  std::vector<std::int64_t> col_of_row;  // col4row
  std::vector<std::int64_t> row_of_col;  // row4col
  std::vector<char> row_seen, col_seen;  // SR, SC
  std::vector<std::int64_t> remaining;
};

// The columns of a full matrix left out of a solve (LinearSumAssignmentOfKeptColumns): the kept
// columns 0 … common_prefix − 1 are the full matrix's, and `bound_cost` (rows × num_bounds) holds
// omitted columns that every omitted column dominates entrywise. An omitted column is never
// picked (SC), so its v stays 0 and its shortestPathCosts entry is reach + cost − u, minimised over
// the rows of the search; by monotone rounding it is at least its bound's, computed the same way.
struct OmittedColumns {
  const double* bound_cost = nullptr;
  std::int64_t num_bounds = 0;
  std::int64_t common_prefix = 0;
  std::vector<double> bound_path_cost;
  bool could_differ = false;  // set when an omitted column could have changed the search
};

// Dijkstra-like search for the cheapest augmenting path from `row`; returns the sink column and
// the path length in `min_value`, or −1 if no column is reachable.
// With `omitted`, also follows the omitted columns' bounds and returns −1 with
// omitted->could_differ set as soon as an omitted column could tie or beat the scanned ones, or a
// search moves more list entries than the common prefix keeps in the full matrix's order.
std::int64_t AugmentingPath(LsapState& s, std::int64_t row, double& min_value,
                            OmittedColumns* omitted) {
  double reach = 0.0;
  std::int64_t num_remaining = s.cols;
  for (std::int64_t k = 0; k < s.cols; ++k) s.remaining[k] = s.cols - k - 1;
  std::fill(s.row_seen.begin(), s.row_seen.end(), 0);
  std::fill(s.col_seen.begin(), s.col_seen.end(), 0);
  std::fill(s.path_cost.begin(), s.path_cost.end(), kInf);
  if (omitted != nullptr) {
    std::fill(omitted->bound_path_cost.begin(), omitted->bound_path_cost.end(), kInf);
  }
  std::int64_t sink = -1;
  std::int64_t i = row;
  for (std::int64_t moved = 1; sink == -1; ++moved) {
    std::int64_t best = -1;
    double lowest = kInf;
    s.row_seen[i] = 1;
    const double* cost_row = &s.cost[i * s.cols];
    for (std::int64_t k = 0; k < num_remaining; ++k) {
      const std::int64_t j = s.remaining[k];
      const double reduced = reach + cost_row[j] - s.row_dual[i] - s.col_dual[j];
      if (reduced < s.path_cost[j]) {
        s.path[j] = i;
        s.path_cost[j] = reduced;
      }
      if (s.path_cost[j] < lowest || (s.path_cost[j] == lowest && s.row_of_col[j] == -1)) {
        lowest = s.path_cost[j];
        best = k;
      }
    }
    if (omitted != nullptr) {
      const double* bound_row = &omitted->bound_cost[i * omitted->num_bounds];
      for (std::int64_t b = 0; b < omitted->num_bounds; ++b) {
        const double reduced = reach + bound_row[b] - s.row_dual[i];
        double& path_cost = omitted->bound_path_cost[b];
        if (reduced < path_cost) path_cost = reduced;
        if (path_cost <= lowest) omitted->could_differ = true;
      }
      if (moved > omitted->common_prefix) omitted->could_differ = true;
      if (omitted->could_differ) return -1;
    }
    reach = lowest;
    if (reach == kInf || best < 0) return -1;
    const std::int64_t j = s.remaining[best];
    if (s.row_of_col[j] == -1) {
      sink = j;
    } else {
      i = s.row_of_col[j];
    }
    s.col_seen[j] = 1;
    s.remaining[best] = s.remaining[--num_remaining];
  }
  min_value = reach;
  return sink;
}

void UpdateDualsAndAugment(LsapState& s, std::int64_t row, std::int64_t sink, double min_value) {
  s.row_dual[row] += min_value;
  for (std::int64_t i = 0; i < s.rows; ++i) {
    if (s.row_seen[i] && i != row) s.row_dual[i] += min_value - s.path_cost[s.col_of_row[i]];
  }
  for (std::int64_t j = 0; j < s.cols; ++j) {
    if (s.col_seen[j]) s.col_dual[j] -= min_value - s.path_cost[j];
  }
  std::int64_t j = sink;
  while (true) {
    const std::int64_t i = s.path[j];
    s.row_of_col[j] = i;
    std::swap(s.col_of_row[i], j);
    if (i == row) break;
  }
}

void CheckShape(const std::vector<double>& cost, std::int64_t rows, std::int64_t cols) {
  if (rows < 0 || cols < 0 || static_cast<std::int64_t>(cost.size()) != rows * cols) {
    throw InputError("linear_sum_assignment", 0, "cost", "shape does not match rows x cols");
  }
  for (double c : cost) {
    if (!std::isfinite(c)) {
      throw InputError("linear_sum_assignment", 0, "cost", "cost matrix has a non-finite entry");
    }
  }
}

// Crouse's algorithm on `cost` (rows <= cols, both > 0), shifted by `shift_by`; with `omitted`,
// empty when an omitted column could have changed the result.
std::vector<std::int64_t> Solve(const std::vector<double>& cost, std::int64_t rows,
                                std::int64_t cols, double shift_by, OmittedColumns* omitted) {
  LsapState s;
  s.rows = rows, s.cols = cols;
  s.cost = cost;
  if (shift_by != 0.0) {
    for (double& c : s.cost) c -= shift_by;
  }
  s.row_dual.assign(rows, 0.0);
  s.col_dual.assign(cols, 0.0);
  s.path_cost.assign(cols, kInf);
  s.path.assign(cols, -1);
  s.col_of_row.assign(rows, -1);
  s.row_of_col.assign(cols, -1);
  s.row_seen.assign(rows, 0);
  s.col_seen.assign(cols, 0);
  s.remaining.assign(cols, 0);
  for (std::int64_t row = 0; row < rows; ++row) {
    double min_value = 0.0;
    const std::int64_t sink = AugmentingPath(s, row, min_value, omitted);
    if (omitted != nullptr && omitted->could_differ) return {};
    ADAPTSIM_CHECK(sink >= 0);  // a finite dense matrix always has an augmenting path
    UpdateDualsAndAugment(s, row, sink, min_value);
  }
  return s.col_of_row;
}

}  // namespace

std::vector<std::int64_t> LinearSumAssignment(const std::vector<double>& cost, std::int64_t rows,
                                              std::int64_t cols, LsapCostShift shift) {
  CheckShape(cost, rows, cols);
  if (rows == 0 || cols == 0) return {};
  if (rows > cols) {
    throw InputError("linear_sum_assignment", 0, "cost", "more rows than columns");
  }
  const double shift_by =
      shift == LsapCostShift::kMinimum ? *std::min_element(cost.begin(), cost.end()) : 0.0;
  return Solve(cost, rows, cols, shift_by, nullptr);
}

std::optional<std::vector<std::int64_t>> LinearSumAssignmentOfKeptColumns(
    const std::vector<double>& kept_cost, std::int64_t rows,
    const std::vector<std::int64_t>& kept_columns, const std::vector<double>& omitted_bound_cost,
    LsapCostShift shift) {
  const auto cols = static_cast<std::int64_t>(kept_columns.size());
  CheckShape(kept_cost, rows, cols);
  const std::int64_t num_bounds =
      rows > 0 ? static_cast<std::int64_t>(omitted_bound_cost.size()) / rows : 0;
  CheckShape(omitted_bound_cost, rows, num_bounds);
  for (std::int64_t k = 0; k < cols; ++k) {
    if (kept_columns[k] < (k == 0 ? 0 : kept_columns[k - 1] + 1)) {
      throw InputError("linear_sum_assignment", 0, "kept_columns", "not ascending column indices");
    }
  }
  if (rows == 0) return std::vector<std::int64_t>{};
  if (rows > cols) return std::nullopt;  // the full matrix may still assign every row
  OmittedColumns omitted;
  omitted.bound_cost = omitted_bound_cost.data();
  omitted.num_bounds = num_bounds;
  while (omitted.common_prefix < cols &&
         kept_columns[omitted.common_prefix] == omitted.common_prefix) {
    ++omitted.common_prefix;
  }
  double shift_by = 0.0;
  std::vector<double> shifted_bounds = omitted_bound_cost;
  if (shift == LsapCostShift::kMinimum) {
    // The bounds are omitted columns and dominate the others: the full matrix's minimum.
    shift_by = *std::min_element(kept_cost.begin(), kept_cost.end());
    if (!shifted_bounds.empty()) {
      shift_by =
          std::min(shift_by, *std::min_element(shifted_bounds.begin(), shifted_bounds.end()));
    }
    for (double& c : shifted_bounds) c -= shift_by;
    omitted.bound_cost = shifted_bounds.data();
  }
  omitted.bound_path_cost.assign(num_bounds, kInf);
  std::vector<std::int64_t> assigned = Solve(kept_cost, rows, cols, shift_by, &omitted);
  if (omitted.could_differ) return std::nullopt;
  for (std::int64_t& c : assigned) c = kept_columns[c];
  return assigned;
}

}  // namespace adaptsim::internal
