// Validation of MilpProblem / MilpOptions (milp_problem.hpp).
#include "adaptsim/milp_problem.hpp"

#include <cmath>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

void Require(bool ok, const std::string& field, const std::string& message,
             const std::string& file = "milp") {
  if (!ok) throw InputError(file, 0, field, message);
}

}  // namespace

void MilpProblem::Validate() const {
  LpProblem::Validate("milp");
  Require(is_integer.size() == static_cast<std::size_t>(num_cols), "is_integer",
          "expected " + std::to_string(num_cols) + " entries", name.empty() ? "milp" : name);
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
