// A linear program as plain data, and the result of solving it (docs/policies.md §5). No solver
// headers here: policies build an LpProblem and call a solver adapter (clp_solver.hpp).
#pragma once

#include <limits>
#include <string>
#include <vector>

namespace adaptsim {

inline constexpr double kLpInfinity = std::numeric_limits<double>::infinity();

/// One nonzero a_rc of the constraint matrix.
struct LpEntry {
  int row = 0;
  int col = 0;
  double value = 0.0;
};

/// minimise (or maximise) c·x  s.t.  row_lower <= A x <= row_upper,  col_lower <= x <= col_upper.
/// Shapes: objective, col_lower, col_upper have num_cols entries; row_lower, row_upper have
/// num_rows entries; ±kLpInfinity marks a missing bound. Duplicate (row, col) entries are summed.
struct LpProblem {
  /// Names the model in validation errors (the InputError's file), e.g. "sia_ilp"; "" = the
  /// solver's kind ("lp" or "milp").
  std::string name;
  int num_cols = 0;
  int num_rows = 0;
  bool maximize = false;
  std::vector<double> objective;
  std::vector<double> col_lower;
  std::vector<double> col_upper;
  std::vector<double> row_lower;
  std::vector<double> row_upper;
  std::vector<LpEntry> entries;

  /// Adds a column with bounds and objective coefficient; returns its index.
  int AddColumn(double lower, double upper, double cost) {
    col_lower.push_back(lower);
    col_upper.push_back(upper);
    objective.push_back(cost);
    return num_cols++;
  }
  /// Adds a row with bounds (entries are added with AddEntry); returns its index.
  int AddRow(double lower, double upper) {
    row_lower.push_back(lower);
    row_upper.push_back(upper);
    return num_rows++;
  }
  void AddEntry(int row, int col, double value) { entries.push_back({row, col, value}); }

  /// Throws InputError(file=name, or default_context when name is empty; field=...) on inconsistent
  /// shapes, out-of-range indices, NaN bounds, a non-finite coefficient, or an empty bound
  /// interval (lower > upper, lower = +inf or upper = -inf), naming the column or row: such a
  /// model would otherwise reach the solver, where CLP may abort on an assertion.
  void Validate(const char* default_context = "lp") const;
};

/// The algorithm used. Barrier without crossover returns a centred point of a non-unique optimal
/// face (it reproduced ECOS's symmetric MST tie split, docs/policies.md §6.7); dual simplex a
/// vertex.
enum class LpMethod { kDualSimplex, kPrimalSimplex, kBarrierNoCrossover };

/// A simplex basis: one status per column and per row, CLP's codes (0 free, 1 basic, 2 at upper
/// bound, 3 at lower bound, 4 superbasic, 5 fixed). A warm start need not be a valid basis: the
/// solver repairs a wrong count of basic variables.
struct LpBasis {
  std::vector<int> column_status;
  std::vector<int> row_status;
  bool empty() const { return column_status.empty(); }
};

/// Solver limits: iterations only, never wall-clock (results must be reproducible).
struct LpOptions {
  LpMethod method = LpMethod::kDualSimplex;
  bool presolve = false;           ///< docs/policies.md §6.7 uses presolve off
  int max_iterations = 100000;     ///< simplex pivots or barrier iterations; > 0
  double primal_tolerance = 1e-9;  ///< feasibility tolerance (CLP's default is 1e-7); > 0
  /// Geometric scaling of the matrix instead of CLP's automatic choice.
  bool geometric_scaling = false;
  /// Simplex methods: start from this basis (num_cols and num_rows statuses) instead of the
  /// slack basis; ignored when its shape differs or for the barrier. Not owned.
  const LpBasis* warm_start = nullptr;

  /// Throws InputError(field=...) when a value is out of range.
  void Validate() const;
};

enum class LpStatus { kOptimal, kInfeasible, kLimitReached, kError };
std::string ToString(LpStatus status);

struct LpSolution {
  LpStatus status = LpStatus::kError;
  std::vector<double> x;  ///< num_cols values (empty unless a point was produced)
  /// num_rows dual values (the objective's sensitivity to each row's active bound, in the
  /// problem's own sense), alongside x; empty without a point. Barrier without crossover: the
  /// final interior estimate.
  std::vector<double> row_duals;
  LpBasis basis;  ///< the final basis of a simplex method (with x), for a later warm start
  double objective = 0.0;
  int iterations = 0;
};

}  // namespace adaptsim
