// COIN-OR CBC adapter (Debian coinor-libcbc-dev 2.10). The only place CBC headers are included.
#pragma once

#include "adaptsim/milp_problem.hpp"

namespace adaptsim {

/// Solves `problem` with CBC's standard driver (CbcMain1: preprocessing, cuts, heuristics).
/// Deterministic in reproduction mode: single thread, node and gap limits, no wall-clock limit
/// unless options.time_limit_s > 0. Logging is off. Infeasibility and limits are statuses, not
/// exceptions; throws InputError only when `problem` or `options` fail Validate().
/// Thread-safety: safe to call concurrently on different problems (no static solver state).
MilpSolution SolveWithCbc(const MilpProblem& problem, const MilpOptions& options = {});

}  // namespace adaptsim
