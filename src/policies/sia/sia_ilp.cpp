// Sia's per-round ILP on CBC (sia_ilp.hpp).
#include "sia_ilp.hpp"

#include <cmath>

#include "adaptsim/cbc_solver.hpp"
#include "adaptsim/error.hpp"

namespace adaptsim {

double SiaIlpCost(float utility, int column, int num_columns, int num_jobs,
                  const SiaOptions& options) {
  const double hundredths = std::nearbyint(100.0 * static_cast<double>(utility));
  // λ_n in hundredths, exact when it is a multiple of 0.01 (1.1 · 100 = 110.00000000000001).
  double lambda = 100.0 * options.lambda_n;
  if (std::abs(lambda - std::nearbyint(lambda)) < 1e-9) lambda = std::nearbyint(lambda);
  const double sign = options.p < 0 ? 1.0 : -1.0;
  const double scale = static_cast<double>(num_jobs) * num_columns + 1;
  return scale * sign * (hundredths - lambda) - (num_columns - column);
}

double SiaReferenceObjective(const SiaMatrix& utility,
                             const std::vector<std::optional<int>>& chosen,
                             const SiaOptions& options) {
  double objective = options.lambda_n * utility.rows;
  for (int i = 0; i < utility.rows; ++i) {
    if (chosen[i]) objective += static_cast<double>(utility.at(i, *chosen[i])) - options.lambda_n;
  }
  return objective;
}

SiaIlpResult SolveSiaIlp(const SiaMatrix& utility,
                         const std::vector<SiaConfiguration>& configurations,
                         const std::vector<SiaNodeGroup>& groups,
                         const std::vector<std::optional<int>>& forced, const SiaOptions& options) {
  if (static_cast<int>(configurations.size()) != utility.cols ||
      static_cast<int>(forced.size()) != utility.rows) {
    throw InputError("sia", 0, "forced", "one configuration per column and one entry per job");
  }
  SiaIlpResult result;
  result.chosen.assign(utility.rows, std::nullopt);
  if (utility.rows == 0) {
    result.status = MilpStatus::kOptimal;
    return result;
  }
  MilpProblem problem;
  // Rows: one per job (at most one configuration), then one per GPU type (capacity).
  for (int i = 0; i < utility.rows; ++i) problem.AddRow(-kMilpInfinity, 1.0);
  const int first_capacity_row = utility.rows;
  for (const SiaNodeGroup& group : groups) problem.AddRow(-kMilpInfinity, group.total_gpus());
  for (int i = 0; i < utility.rows; ++i) {
    if (forced[i] && (*forced[i] < 0 || *forced[i] >= utility.cols)) {
      throw InputError("sia", 0, "forced", "configuration out of range");
    }
    for (int c = 0; c < utility.cols; ++c) {
      const int column =
          problem.AddBinary(SiaIlpCost(utility.at(i, c), c, utility.cols, utility.rows, options));
      if (forced[i] && *forced[i] == c) problem.col_lower[column] = 1.0;
      problem.AddEntry(i, column, 1.0);
      problem.AddEntry(first_capacity_row + configurations[c].group, column,
                       configurations[c].num_gpus);
    }
  }
  MilpOptions milp;
  milp.relative_gap = options.mip_relative_gap;
  milp.max_nodes = options.mip_max_nodes;
  const MilpSolution solution = SolveWithCbc(problem, milp);
  result.status = solution.status;
  result.nodes = solution.nodes;
  if (solution.HasSolution()) {
    for (int i = 0; i < utility.rows; ++i) {
      for (int c = 0; c < utility.cols; ++c) {
        if (solution.x[static_cast<std::size_t>(i) * utility.cols + c] > 0.5) result.chosen[i] = c;
      }
    }
  }
  result.objective = SiaReferenceObjective(utility, result.chosen, options);
  return result;
}

}  // namespace adaptsim
