#include "adaptsim/linear_sum_assignment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

// Dijkstra-like search for the cheapest augmenting path from `row`; returns the sink column and
// the path length in `min_value`, or −1 if no column is reachable.
std::int64_t AugmentingPath(LsapState& s, std::int64_t row, double& min_value) {
  double reach = 0.0;
  std::int64_t num_remaining = s.cols;
  for (std::int64_t k = 0; k < s.cols; ++k) s.remaining[k] = s.cols - k - 1;
  std::fill(s.row_seen.begin(), s.row_seen.end(), 0);
  std::fill(s.col_seen.begin(), s.col_seen.end(), 0);
  std::fill(s.path_cost.begin(), s.path_cost.end(), kInf);
  std::int64_t sink = -1;
  std::int64_t i = row;
  while (sink == -1) {
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

}  // namespace

std::vector<std::int64_t> LinearSumAssignment(const std::vector<double>& cost, std::int64_t rows,
                                              std::int64_t cols, LsapCostShift shift) {
  if (rows < 0 || cols < 0 || static_cast<std::int64_t>(cost.size()) != rows * cols) {
    throw InputError("linear_sum_assignment", 0, "cost", "shape does not match rows x cols");
  }
  if (rows == 0 || cols == 0) return {};
  if (rows > cols) {
    throw InputError("linear_sum_assignment", 0, "cost", "more rows than columns");
  }
  for (double c : cost) {
    if (!std::isfinite(c)) {
      throw InputError("linear_sum_assignment", 0, "cost", "cost matrix has a non-finite entry");
    }
  }
  LsapState s;
  s.rows = rows, s.cols = cols;
  s.cost = cost;
  if (shift == LsapCostShift::kMinimum) {
    const double min_cost = *std::min_element(cost.begin(), cost.end());
    for (double& c : s.cost) c -= min_cost;
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
    const std::int64_t sink = AugmentingPath(s, row, min_value);
    ADAPTSIM_CHECK(sink >= 0);  // a finite dense matrix always has an augmenting path
    UpdateDualsAndAugment(s, row, sink, min_value);
  }
  return s.col_of_row;
}

}  // namespace adaptsim::internal
