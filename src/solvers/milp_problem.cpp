// Validation of MilpProblem / MilpOptions (milp_problem.hpp).
#include "solvers/milp_problem.hpp"

#include <cmath>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

void Require(bool ok, const std::string& field, const std::string& message) {
  if (!ok) throw InputError("milp", 0, field, message);
}

}  // namespace

void MilpProblem::Validate() const {
  const auto cols = static_cast<std::size_t>(num_cols);
  const auto rows = static_cast<std::size_t>(num_rows);
  Require(num_cols >= 0 && num_rows >= 0, "shape", "negative dimension");
  Require(objective.size() == cols && col_lower.size() == cols && col_upper.size() == cols &&
              is_integer.size() == cols,
          "columns", "column arrays must have num_cols entries");
  Require(row_lower.size() == rows && row_upper.size() == rows, "rows",
          "row arrays must have num_rows entries");
  for (std::size_t c = 0; c < cols; ++c) {
    Require(!std::isnan(objective[c]) && std::isfinite(objective[c]), "objective",
            "objective coefficient of column " + std::to_string(c) + " is not finite");
    Require(!std::isnan(col_lower[c]) && !std::isnan(col_upper[c]), "bounds",
            "NaN bound on column " + std::to_string(c));
  }
  for (std::size_t r = 0; r < rows; ++r) {
    Require(!std::isnan(row_lower[r]) && !std::isnan(row_upper[r]), "bounds",
            "NaN bound on row " + std::to_string(r));
  }
  for (const MilpEntry& e : entries) {
    Require(e.row >= 0 && e.row < num_rows && e.col >= 0 && e.col < num_cols, "entries",
            "entry index out of range");
    Require(std::isfinite(e.value), "entries", "entry value is not finite");
  }
}

void MilpOptions::Validate() const {
  Require(relative_gap >= 0.0 && std::isfinite(relative_gap), "relative_gap", "must be >= 0");
  Require(max_nodes > 0, "max_nodes", "must be > 0");
  Require(time_limit_s >= 0.0, "time_limit_s", "must be >= 0 (0 = none)");
}

std::string ToString(MilpStatus status) {
  switch (status) {
    case MilpStatus::kOptimal:
      return "optimal";
    case MilpStatus::kFeasible:
      return "feasible";
    case MilpStatus::kInfeasible:
      return "infeasible";
    case MilpStatus::kLimitReached:
      return "limit_reached";
    case MilpStatus::kError:
      return "error";
  }
  return "error";
}

}  // namespace adaptsim
