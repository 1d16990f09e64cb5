// COIN-OR CLP adapter (Debian coinor-libclp-dev 1.17). The only place CLP headers are included.
#pragma once

#include "adaptsim/lp_problem.hpp"

namespace adaptsim {

/// Solves `problem` with CLP. Deterministic: single-threaded, no time limit, logging off.
/// Returns status kOptimal, kInfeasible (primal infeasible), kLimitReached (iteration limit) or
/// kError (anything else, e.g. unbounded or numerical trouble). Throws InputError when `problem`
/// or `options` fail Validate().
LpSolution SolveWithClp(const LpProblem& problem, const LpOptions& options = {});

}  // namespace adaptsim
