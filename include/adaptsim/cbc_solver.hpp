// COIN-OR CBC adapter (Debian coinor-libcbc-dev 2.10). The only place CBC headers are included.
#pragma once

#include <memory>

#include "adaptsim/milp_problem.hpp"

namespace adaptsim {

/// SolveWithCbc for a caller that solves many problems in turn (one per round): it keeps CBC's
/// driver parameter table (CbcSolverUsefulData, about 400 parameters built with their help texts)
/// and lets CbcMain0 reset it to the defaults before each solve, instead of building it anew.
/// Solve(p, o) returns what SolveWithCbc(p, o) returns (docs/performance.md, "Sia whole runs").
/// Thread-safety: one session per thread; a copy starts with a table of its own.
class CbcSession {
 public:
  CbcSession();
  CbcSession(const CbcSession& other);
  CbcSession& operator=(const CbcSession& other);
  ~CbcSession();

  /// As SolveWithCbc.
  MilpSolution Solve(const MilpProblem& problem, const MilpOptions& options = {});

 private:
  struct Driver;
  std::unique_ptr<Driver> driver_;
};

/// Solves `problem` with CBC's standard driver (CbcMain1: preprocessing, cuts, heuristics).
/// Deterministic in reproduction mode: single thread, node and gap limits, no wall-clock limit
/// unless options.time_limit_s > 0. Logging is off. Infeasibility and limits are statuses, not
/// exceptions; throws InputError only when `problem` or `options` fail Validate().
/// Thread-safety: safe to call concurrently on different problems (no static solver state).
MilpSolution SolveWithCbc(const MilpProblem& problem, const MilpOptions& options = {});

}  // namespace adaptsim
