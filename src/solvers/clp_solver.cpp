#include "adaptsim/clp_solver.hpp"

#include <cmath>

#include <coin/ClpSimplex.hpp>
#include <coin/ClpSolve.hpp>
#include <coin/CoinPackedMatrix.hpp>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

double ClpBound(double value) {
  if (value == kLpInfinity) return COIN_DBL_MAX;
  if (value == -kLpInfinity) return -COIN_DBL_MAX;
  return value;
}

}  // namespace

LpSolution SolveWithClp(const LpProblem& problem, const LpOptions& options) {
  problem.Validate();
  options.Validate();
  std::vector<int> rows, cols;
  std::vector<double> values;
  for (const LpEntry& e : problem.entries) {
    rows.push_back(e.row), cols.push_back(e.col), values.push_back(e.value);
  }
  // Column-ordered matrix; duplicates are summed by CoinPackedMatrix's triplet constructor.
  CoinPackedMatrix matrix(true, rows.data(), cols.data(), values.data(),
                          static_cast<CoinBigIndex>(values.size()));
  matrix.setDimensions(problem.num_rows, problem.num_cols);
  std::vector<double> col_lower(problem.num_cols), col_upper(problem.num_cols);
  std::vector<double> row_lower(problem.num_rows), row_upper(problem.num_rows);
  for (int j = 0; j < problem.num_cols; ++j) {
    col_lower[j] = ClpBound(problem.col_lower[j]);
    col_upper[j] = ClpBound(problem.col_upper[j]);
  }
  for (int r = 0; r < problem.num_rows; ++r) {
    row_lower[r] = ClpBound(problem.row_lower[r]);
    row_upper[r] = ClpBound(problem.row_upper[r]);
  }
  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(matrix, col_lower.data(), col_upper.data(), problem.objective.data(),
                    row_lower.data(), row_upper.data());
  model.setOptimizationDirection(problem.maximize ? -1.0 : 1.0);
  model.setMaximumIterations(options.max_iterations);
  model.setPrimalTolerance(options.primal_tolerance);
  if (options.geometric_scaling) model.scaling(1);
  ClpSolve solve;
  switch (options.method) {
    case LpMethod::kDualSimplex:
      solve.setSolveType(ClpSolve::useDual);
      break;
    case LpMethod::kPrimalSimplex:
      solve.setSolveType(ClpSolve::usePrimal);
      break;
    case LpMethod::kBarrierNoCrossover:
      solve.setSolveType(ClpSolve::useBarrierNoCross);
      break;
  }
  solve.setPresolveType(options.presolve ? ClpSolve::presolveOn : ClpSolve::presolveOff);
  const LpBasis* warm = options.warm_start;
  if (warm != nullptr && options.method != LpMethod::kBarrierNoCrossover &&
      static_cast<int>(warm->column_status.size()) == problem.num_cols &&
      static_cast<int>(warm->row_status.size()) == problem.num_rows) {
    model.createStatus();
    for (int j = 0; j < problem.num_cols; ++j) {
      model.setColumnStatus(j, static_cast<ClpSimplex::Status>(warm->column_status[j]));
    }
    for (int r = 0; r < problem.num_rows; ++r) {
      model.setRowStatus(r, static_cast<ClpSimplex::Status>(warm->row_status[r]));
    }
    if (options.method == LpMethod::kPrimalSimplex) {
      model.primal();
    } else {
      model.dual();
    }
  } else {
    model.initialSolve(solve);
  }

  LpSolution solution;
  solution.iterations = model.numberIterations();
  const int status = model.status();  // 0 optimal, 1 infeasible, 3 stopped on iterations
  if (status == 0) {
    solution.status = LpStatus::kOptimal;
  } else if (status == 1 || model.isProvenPrimalInfeasible()) {
    solution.status = LpStatus::kInfeasible;
  } else if (status == 3) {
    solution.status = LpStatus::kLimitReached;
  } else {
    solution.status = LpStatus::kError;
  }
  if (solution.status == LpStatus::kOptimal || solution.status == LpStatus::kLimitReached) {
    const double* x = model.primalColumnSolution();
    solution.x.assign(x, x + problem.num_cols);
    const double* duals = model.dualRowSolution();
    solution.row_duals.assign(duals, duals + problem.num_rows);
    if (options.method != LpMethod::kBarrierNoCrossover) {
      for (int j = 0; j < problem.num_cols; ++j) {
        solution.basis.column_status.push_back(static_cast<int>(model.getColumnStatus(j)));
      }
      for (int r = 0; r < problem.num_rows; ++r) {
        solution.basis.row_status.push_back(static_cast<int>(model.getRowStatus(r)));
      }
    }
    solution.objective = model.objectiveValue();
  }
  return solution;
}

}  // namespace adaptsim
