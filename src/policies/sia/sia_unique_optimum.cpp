// The unique optimum of Sia's aggregated ILP (sia_unique_optimum.hpp).
#include "sia_unique_optimum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "adaptsim/clp_solver.hpp"

namespace adaptsim {
namespace {

using Real = long double;

constexpr double kIntegrality = 1e-6;   // an LP value this close to an integer is integral
constexpr Real kMargin = 1e-6;          // slack for rounding in the long double certificates
constexpr double kLargestExact = 1e15;  // integral data stay exact in double below this
constexpr int kBasic = 1;               // CLP's status code of a basic variable

bool Integral(double value) {
  return std::isfinite(value) && std::abs(value) < kLargestExact && std::floor(value) == value;
}

// The data the certificates assume: minimisation, integral objective, matrix and bounds, every
// row A x <= b, every column integer.
bool Supported(const MilpProblem& problem) {
  if (problem.maximize) return false;
  for (int j = 0; j < problem.num_cols; ++j) {
    if (!problem.is_integer[j] || !Integral(problem.objective[j]) ||
        !Integral(problem.col_lower[j]) || !Integral(problem.col_upper[j])) {
      return false;
    }
  }
  for (int i = 0; i < problem.num_rows; ++i) {
    if (problem.row_lower[i] != -kMilpInfinity || !Integral(problem.row_upper[i])) return false;
  }
  return std::all_of(problem.entries.begin(), problem.entries.end(),
                     [](const MilpEntry& e) { return Integral(e.value); });
}

struct Node {
  std::vector<double> lower, upper;
  LpBasis basis;  // the parent's final basis
};

}  // namespace

std::optional<std::vector<double>> SiaUniqueOptimum(const MilpProblem& problem, int max_nodes,
                                                    int* nodes) {
  if (nodes != nullptr) *nodes = 0;
  if (!Supported(problem)) return std::nullopt;
  const int num_cols = problem.num_cols, num_rows = problem.num_rows;
  std::optional<std::vector<double>> incumbent;
  Real incumbent_objective = 0;
  std::vector<Node> stack = {{problem.col_lower, problem.col_upper, {}}};
  LpProblem lp = problem;
  int solved = 0;
  while (!stack.empty()) {
    if (solved >= max_nodes) return std::nullopt;
    Node node = std::move(stack.back());
    stack.pop_back();
    lp.col_lower = node.lower;
    lp.col_upper = node.upper;
    LpOptions options;
    options.warm_start = node.basis.empty() ? nullptr : &node.basis;
    const LpSolution relaxation = SolveWithClp(lp, options);
    ++solved;
    if (nodes != nullptr) *nodes = solved;
    if (relaxation.status == LpStatus::kInfeasible) continue;
    if (relaxation.status != LpStatus::kOptimal) return std::nullopt;
    // Duals of the <= rows (clamped to <= 0) and reduced costs, recomputed.
    std::vector<Real> y(num_rows), d(num_cols);
    for (int i = 0; i < num_rows; ++i) y[i] = std::min(relaxation.row_duals[i], 0.0);
    for (int j = 0; j < num_cols; ++j) d[j] = problem.objective[j];
    for (const MilpEntry& e : problem.entries) d[e.col] -= static_cast<Real>(e.value) * y[e.row];
    Real bound = 0;
    for (int i = 0; i < num_rows; ++i) bound += y[i] * problem.row_upper[i];
    for (int j = 0; j < num_cols; ++j) bound += d[j] * (d[j] >= 0 ? node.lower[j] : node.upper[j]);
    if (incumbent && bound > incumbent_objective + kMargin) continue;  // no optimum, no tie
    int fractional = -1;
    std::vector<double> point(num_cols);
    for (int j = 0; j < num_cols && fractional < 0; ++j) {
      point[j] = std::nearbyint(relaxation.x[j]);
      if (std::abs(relaxation.x[j] - point[j]) > kIntegrality) fractional = j;
    }
    if (fractional >= 0) {
      Node down{node.lower, node.upper, relaxation.basis};
      Node up{std::move(node.lower), std::move(node.upper), relaxation.basis};
      down.upper[fractional] = std::floor(relaxation.x[fractional]);
      up.lower[fractional] = std::ceil(relaxation.x[fractional]);
      stack.push_back(std::move(up));
      stack.push_back(std::move(down));  // explored first
      continue;
    }
    // An integral relaxation: check the point exactly (integers), then its uniqueness.
    std::vector<double> activity(num_rows, 0.0);
    for (const MilpEntry& e : problem.entries) activity[e.row] += e.value * point[e.col];
    Real objective = 0;
    for (int j = 0; j < num_cols; ++j) {
      if (point[j] < node.lower[j] || point[j] > node.upper[j]) return std::nullopt;
      objective += static_cast<Real>(problem.objective[j]) * point[j];
    }
    for (int i = 0; i < num_rows; ++i) {
      if (activity[i] > problem.row_upper[i]) return std::nullopt;
    }
    // A point of equal objective other than the incumbent is a tie: CBC decides it.
    if (!incumbent || point != *incumbent) {
      if (incumbent && objective >= incumbent_objective) return std::nullopt;
      incumbent = point;
      incumbent_objective = objective;
    }
    // τ, L, and the nonbasic column that limits τ (the one to split on otherwise).
    Real least_cost = std::numeric_limits<Real>::infinity(), recoverable = 0;
    int limiting = -1;
    for (int j = 0; j < num_cols; ++j) {
      const double range = node.upper[j] - node.lower[j];
      if (relaxation.basis.column_status[j] == kBasic) {
        recoverable += std::abs(d[j]) * range;
      } else if (range > 0) {
        const bool favoured =
            (point[j] == node.lower[j] && d[j] > 0) || (point[j] == node.upper[j] && d[j] < 0);
        const Real cost = favoured ? std::abs(d[j]) : 0;
        if (cost < least_cost) {
          least_cost = cost;
          limiting = j;
        }
      }
    }
    bool rows_certified = true;
    for (int i = 0; i < num_rows; ++i) {
      const double slack = problem.row_upper[i] - activity[i];
      recoverable += -y[i] * slack;
      if (relaxation.basis.row_status[i] != kBasic) {
        if (slack != 0 || !(y[i] < 0)) rows_certified = false;
        least_cost = std::min(least_cost, -y[i]);
      }
    }
    if (rows_certified && least_cost > recoverable + kMargin) continue;  // x̂ alone is optimal
    if (limiting < 0 || !rows_certified) return std::nullopt;
    // Not certified: split on the limiting column, x_j = x̂_j (which holds x̂), below, above.
    const double value = point[limiting];
    if (value > node.lower[limiting]) {
      Node below{node.lower, node.upper, relaxation.basis};
      below.upper[limiting] = value - 1;
      stack.push_back(std::move(below));
    }
    if (value < node.upper[limiting]) {
      Node above{node.lower, node.upper, relaxation.basis};
      above.lower[limiting] = value + 1;
      stack.push_back(std::move(above));
    }
    Node fixed{std::move(node.lower), std::move(node.upper), relaxation.basis};
    fixed.lower[limiting] = fixed.upper[limiting] = value;
    stack.push_back(std::move(fixed));
  }
  return incumbent;
}

}  // namespace adaptsim
