// CBC adapter: MilpProblem -> OsiClpSolverInterface -> CbcMain1 -> MilpSolution.
#include "adaptsim/cbc_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "CbcModel.hpp"
#include "CbcSolver.hpp"
#include "CoinPackedMatrix.hpp"
#include "OsiClpSolverInterface.hpp"

namespace adaptsim {
namespace {

double Clamp(double value) {
  const double inf = COIN_DBL_MAX;
  if (value >= kMilpInfinity) return inf;
  if (value <= -kMilpInfinity) return -inf;
  return value;
}

void Load(const MilpProblem& problem, OsiClpSolverInterface& solver) {
  std::vector<int> rows, cols;
  std::vector<double> values;
  rows.reserve(problem.entries.size());
  cols.reserve(problem.entries.size());
  values.reserve(problem.entries.size());
  for (const MilpEntry& e : problem.entries) {
    rows.push_back(e.row);
    cols.push_back(e.col);
    values.push_back(e.value);
  }
  CoinPackedMatrix matrix(true, rows.data(), cols.data(), values.data(),
                          static_cast<CoinBigIndex>(values.size()));
  matrix.setDimensions(problem.num_rows, problem.num_cols);
  // CBC minimises: negate a maximisation objective.
  std::vector<double> cost(problem.objective);
  if (problem.maximize) {
    for (double& c : cost) c = -c;
  }
  std::vector<double> col_lo(problem.num_cols), col_up(problem.num_cols);
  std::vector<double> row_lo(problem.num_rows), row_up(problem.num_rows);
  for (int c = 0; c < problem.num_cols; ++c) {
    col_lo[c] = Clamp(problem.col_lower[c]);
    col_up[c] = Clamp(problem.col_upper[c]);
  }
  for (int r = 0; r < problem.num_rows; ++r) {
    row_lo[r] = Clamp(problem.row_lower[r]);
    row_up[r] = Clamp(problem.row_upper[r]);
  }
  solver.loadProblem(matrix, col_lo.data(), col_up.data(), cost.data(), row_lo.data(),
                     row_up.data());
  for (int c = 0; c < problem.num_cols; ++c) {
    if (problem.is_integer[c]) solver.setInteger(c);
  }
  solver.messageHandler()->setLogLevel(0);
}

int Silent(CbcModel* /*model*/, int /*where_from*/) {
  return 0;
}

MilpStatus Classify(const CbcModel& model, bool has_solution) {
  if (model.isProvenOptimal() && has_solution) return MilpStatus::kOptimal;
  if (model.isProvenInfeasible()) return MilpStatus::kInfeasible;
  if (has_solution) {
    // Stopped by the gap criterion counts as optimal within the requested gap.
    return model.status() == 0 ? MilpStatus::kOptimal : MilpStatus::kFeasible;
  }
  if (model.isNodeLimitReached() || model.isSecondsLimitReached() || model.status() == 1) {
    return MilpStatus::kLimitReached;
  }
  return MilpStatus::kError;
}

}  // namespace

MilpSolution SolveWithCbc(const MilpProblem& problem, const MilpOptions& options) {
  problem.Validate();
  options.Validate();
  const auto start = std::chrono::steady_clock::now();
  MilpSolution solution;
  OsiClpSolverInterface solver;
  Load(problem, solver);
  CbcModel model(solver);
  CbcSolverUsefulData data;
  CbcMain0(model, data);
  model.setLogLevel(0);
  std::vector<std::string> args = {"adaptsim",
                                   "-log",
                                   "0",
                                   "-ratioGap",
                                   std::to_string(options.relative_gap),
                                   "-maxNodes",
                                   std::to_string(options.max_nodes),
                                   "-threads",
                                   "0"};
  if (options.time_limit_s > 0.0) {
    args.push_back("-seconds");
    args.push_back(std::to_string(options.time_limit_s));
  }
  args.push_back("-solve");
  args.push_back("-quit");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  CbcMain1(static_cast<int>(argv.size()), argv.data(), model, Silent, data);

  const double* best = model.bestSolution();
  const bool has_solution = best != nullptr;
  solution.status = Classify(model, has_solution);
  solution.nodes = model.getNodeCount();
  const double sign = problem.maximize ? -1.0 : 1.0;
  if (has_solution) {
    solution.x.assign(best, best + problem.num_cols);
    double objective = 0.0;
    for (int c = 0; c < problem.num_cols; ++c) objective += problem.objective[c] * solution.x[c];
    solution.objective = objective;
    solution.bound = sign * model.getBestPossibleObjValue();
    solution.gap = std::abs(solution.bound - solution.objective) /
                   std::max(1e-10, std::abs(solution.objective));
  }
  solution.solve_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return solution;
}

}  // namespace adaptsim
