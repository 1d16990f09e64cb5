// A mixed-integer linear program as plain data, and the result of solving it (docs/policies.md
// §5.2, §8.4). No solver headers here: callers build a MilpProblem and call a solver adapter
// (cbc_solver.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "adaptsim/lp_problem.hpp"

namespace adaptsim {

inline constexpr double kMilpInfinity = kLpInfinity;
using MilpEntry = LpEntry;

/// The LpProblem (minimise or maximise c·x s.t. row_lower <= A x <= row_upper, col_lower <= x <=
/// col_upper; ±kMilpInfinity marks a missing bound, duplicate entries are summed) with
/// x_c integer where is_integer[c]; is_integer has num_cols entries.
struct MilpProblem : LpProblem {
  std::vector<char> is_integer;

  /// Adds a column; returns its index. (Hides LpProblem::AddColumn so that no column is added
  /// without its integrality.)
  int AddColumn(double lower, double upper, double cost, bool integer) {
    is_integer.push_back(integer ? 1 : 0);
    return LpProblem::AddColumn(lower, upper, cost);
  }
  /// Adds a binary column; returns its index.
  int AddBinary(double cost) { return AddColumn(0.0, 1.0, cost, true); }

  /// LpProblem::Validate plus the size of is_integer; throws InputError(file="milp", field=...).
  void Validate() const;
};

/// Limits of one MILP solve. Reproduction mode uses node and gap limits only; a wall-clock limit
/// (time_limit_s > 0) makes results depend on the machine and is off by default.
struct MilpOptions {
  double relative_gap = 1e-3;      ///< stop when (bound - incumbent)/|incumbent| <= this; >= 0
  std::int64_t max_nodes = 20000;  ///< branch-and-bound node limit; > 0
  double time_limit_s = 0.0;       ///< wall-clock limit in seconds; 0 = none (reproduction mode)

  /// Throws InputError(field=...) when a value is out of range.
  void Validate() const;
};

/// kOptimal: proven within relative_gap. kFeasible: a limit stopped the search with an incumbent.
/// kInfeasible: proven infeasible. kLimitReached: a limit stopped the search without incumbent.
/// kError: anything else (unbounded, numerical trouble).
enum class MilpStatus { kOptimal, kFeasible, kInfeasible, kLimitReached, kError };
std::string ToString(MilpStatus status);

struct MilpSolution {
  MilpStatus status = MilpStatus::kError;
  std::vector<double> x;      ///< num_cols values (empty unless an incumbent exists)
  double objective = 0.0;     ///< c·x in the problem's own sense
  double bound = 0.0;         ///< best bound in the problem's own sense
  std::int64_t nodes = 0;     ///< branch-and-bound nodes explored
  double gap = 0.0;           ///< |bound - objective| / max(1e-10, |objective|)
  double solve_time_s = 0.0;  ///< wall time (recorded, never acted on in reproduction mode)

  bool HasSolution() const {
    return status == MilpStatus::kOptimal || status == MilpStatus::kFeasible;
  }
};

}  // namespace adaptsim
