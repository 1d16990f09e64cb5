#include <cmath>
#include <cstdio>
#include <string>

#include "adaptsim/error.hpp"
#include "adaptsim/lp_problem.hpp"

namespace adaptsim {
namespace {

void RequireSize(const char* context, std::size_t size, int expected, const char* field) {
  if (size != static_cast<std::size_t>(expected)) {
    throw InputError(context, 0, field, "expected " + std::to_string(expected) + " entries");
  }
}

// The bound interval [lower, upper] of a column or row holds no value.
bool EmptyInterval(double lower, double upper) {
  return lower > upper || lower == kLpInfinity || upper == -kLpInfinity;
}

std::string IntervalText(double lower, double upper) {
  char text[96];
  std::snprintf(text, sizeof text, "[%.17g, %.17g]", lower, upper);
  return text;
}

}  // namespace

void LpProblem::Validate(const char* default_context) const {
  const std::string model = name.empty() ? std::string(default_context) : name;
  const char* context = model.c_str();
  if (num_cols < 0 || num_rows < 0) throw InputError(context, 0, "num_cols", "negative size");
  RequireSize(context, objective.size(), num_cols, "objective");
  RequireSize(context, col_lower.size(), num_cols, "col_lower");
  RequireSize(context, col_upper.size(), num_cols, "col_upper");
  RequireSize(context, row_lower.size(), num_rows, "row_lower");
  RequireSize(context, row_upper.size(), num_rows, "row_upper");
  for (const LpEntry& e : entries) {
    if (e.row < 0 || e.row >= num_rows || e.col < 0 || e.col >= num_cols) {
      throw InputError(context, 0, "entries", "index out of range");
    }
    if (!std::isfinite(e.value)) {
      throw InputError(context, 0, "entries",
                       "coefficient of row " + std::to_string(e.row) + ", column " +
                           std::to_string(e.col) + " is not finite");
    }
  }
  for (int c = 0; c < num_cols; ++c) {
    if (!std::isfinite(objective[c])) {
      throw InputError(context, 0, "objective",
                       "coefficient of column " + std::to_string(c) + " is not finite");
    }
    if (std::isnan(col_lower[c]) || std::isnan(col_upper[c])) {
      throw InputError(context, 0, "col_lower", "NaN bound on column " + std::to_string(c));
    }
    if (EmptyInterval(col_lower[c], col_upper[c])) {
      throw InputError(context, 0, "col_lower",
                       "column " + std::to_string(c) + " has empty bounds " +
                           IntervalText(col_lower[c], col_upper[c]));
    }
  }
  for (int r = 0; r < num_rows; ++r) {
    if (std::isnan(row_lower[r]) || std::isnan(row_upper[r])) {
      throw InputError(context, 0, "row_lower", "NaN bound on row " + std::to_string(r));
    }
    if (EmptyInterval(row_lower[r], row_upper[r])) {
      throw InputError(context, 0, "row_lower",
                       "row " + std::to_string(r) + " has empty bounds " +
                           IntervalText(row_lower[r], row_upper[r]));
    }
  }
}

void LpOptions::Validate() const {
  if (max_iterations <= 0) throw InputError("lp", 0, "max_iterations", "must be positive");
  if (!(primal_tolerance > 0.0 && primal_tolerance < 1e-3)) {
    throw InputError("lp", 0, "primal_tolerance", "must be in (0, 1e-3)");
  }
}

std::string ToString(LpStatus status) {
  switch (status) {
    case LpStatus::kOptimal:
      return "optimal";
    case LpStatus::kInfeasible:
      return "infeasible";
    case LpStatus::kLimitReached:
      return "limit_reached";
    case LpStatus::kError:
      return "error";
  }
  return "error";
}

}  // namespace adaptsim
