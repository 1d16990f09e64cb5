// CBC adapter: MilpProblem -> OsiClpSolverInterface -> CbcMain1 -> MilpSolution.
#include "adaptsim/cbc_solver.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "CbcModel.hpp"
#include "CbcSolver.hpp"
#include "ClpSimplex.hpp"
#include "CoinPackedMatrix.hpp"
#include "OsiClpSolverInterface.hpp"

// CBC 2.10's branch and bound calls OsiClpSolverInterface::computeLargestAway() after the root
// node whether or not the root is feasible (Cbc releases/2.10.8 Cbc/src/CbcModel.cpp:4223-4231;
// upstream Cbc commit 5c9cfa1b, "do not compute greatest away if infeasible", guards the call
// with `if (feasible)`, after 2.10.12). When a heuristic has already found the optimum, the root
// under the objective cutoff is infeasible and probing can leave a column with lower > upper
// (seen: [1, -1e50] on a valid Sia round, docs/sia.md §3.5); computeLargestAway then runs CLP's
// primal simplex on those bounds and Debian's CLP 1.17.6, built with assertions, aborts the
// process in ClpNonLinearCost::checkInfeasibilities (`lowerValue <= upperValue`).
//
// This definition takes the place of libOsiClp's (ELF symbol interposition: the program's own
// definition is found before a shared library's) and applies upstream's fix: with inverted
// bounds (an infeasible root: there is no node left to search, so the value is never used) it
// returns; otherwise it calls libOsiClp's definition, unchanged. A static link with CLP would
// make the two definitions a link error, not a silent change.
void OsiClpSolverInterface::computeLargestAway() {
  const ClpSimplex& model = *getModelPtr();
  for (int c = 0; c < model.numberColumns(); ++c) {
    if (model.columnLower()[c] > model.columnUpper()[c]) return;
  }
  for (int r = 0; r < model.numberRows(); ++r) {
    if (model.rowLower()[r] > model.rowUpper()[r]) return;
  }
  using Method = void (*)(OsiClpSolverInterface*);
  static const Method library = reinterpret_cast<Method>(
      dlsym(RTLD_NEXT, "_ZN21OsiClpSolverInterface18computeLargestAwayEv"));
  if (library == nullptr) {
    std::fputs("adaptsim: libOsiClp's OsiClpSolverInterface::computeLargestAway not found\n",
               stderr);
    std::abort();
  }
  library(this);
}

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

struct CbcSession::Driver {
  CbcSolverUsefulData data;
};

CbcSession::CbcSession() : driver_(std::make_unique<Driver>()) {}
CbcSession::CbcSession(const CbcSession& /*other*/) : driver_(std::make_unique<Driver>()) {}
CbcSession& CbcSession::operator=(const CbcSession& other) {
  if (this != &other) driver_ = std::make_unique<Driver>();
  return *this;
}
CbcSession::~CbcSession() = default;

MilpSolution SolveWithCbc(const MilpProblem& problem, const MilpOptions& options) {
  return CbcSession().Solve(problem, options);
}

MilpSolution CbcSession::Solve(const MilpProblem& problem, const MilpOptions& options) {
  problem.Validate();
  options.Validate();
  const auto start = std::chrono::steady_clock::now();
  MilpSolution solution;
  OsiClpSolverInterface solver;
  Load(problem, solver);
  CbcModel model(solver);
  CbcSolverUsefulData& data = driver_->data;
  // CbcMain0 sets the table's values to CBC's defaults; the arguments below set the rest.
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
