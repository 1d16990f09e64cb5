// Sia's integer program for one round, solved with CBC (docs/sia.md §3.5; Sia SOSP'23
// Eq. 1; `S:sia-simulator/sia.py:935-1036, 1095-1120`).
//
// Binary x[i,c] = job i runs in configuration c. With A the utility matrix (sia_utility.hpp) and
// J jobs, the reference minimises (p < 0) or maximises (p >= 0)
//
//   Σ_{i,c} A[i,c]·x[i,c] + λ_n·(J − Σ_{i,c} x[i,c])
//
// subject to  Σ_c x[i,c] <= 1 (one configuration, hence one GPU type, per job),
//             Σ_i Σ_{c on type t} K_c·x[i,c] <= G_t (every GPU type's capacity),
//             x[i, prev_i] = 1 for a job still restoring a checkpoint (forced).
//
// adaptsim states the objective exactly: A's entries are multiples of 0.01 (rounded to 2
// decimals), so each coefficient is taken in hundredths, a[i,c] = round(100·A[i,c]), and the ILP
// minimises  Σ (M·s·(a[i,c] − 100·λ_n) − (C − c))·x[i,c]  with s = +1 for p < 0 and −1 otherwise,
// C columns and M = J·C + 1. The second term is the tie-break: it is smaller than one hundredth
// of the objective in total, so it only chooses among solutions of equal objective, and there it
// prefers (1) allocating a job over leaving it unallocated, then (2) configurations of lower
// column index — GPU types in cluster order, then smaller configurations. Solutions still tied
// after that (two jobs exchanging columns) are decided by CBC's single-threaded, deterministic
// search. The reference (CBC with 8 threads, relative gap 1e-4) has no tie-break rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/milp_problem.hpp"
#include "sia_configurations.hpp"
#include "sia_goodput_matrix.hpp"
#include "sia_options.hpp"

namespace adaptsim {

struct SiaIlpResult {
  MilpStatus status = MilpStatus::kError;
  std::vector<std::optional<int>> chosen;  ///< per job: the configuration (column), or nullopt
  double objective = 0;  ///< the reference's objective Σ A·x + λ_n·(J − Σ x) at `chosen`
  std::int64_t nodes = 0;

  bool HasSolution() const {
    return status == MilpStatus::kOptimal || status == MilpStatus::kFeasible;
  }
};

/// The ILP's cost of x[i,c] = 1 (see above), in tie-break units: the quantity the solver
/// minimises, shared with the tests' brute force.
double SiaIlpCost(float utility, int column, int num_columns, int num_jobs,
                  const SiaOptions& options);

/// The reference's objective Σ A·x + λ_n·(J − Σ x) of an assignment.
double SiaReferenceObjective(const SiaMatrix& utility,
                             const std::vector<std::optional<int>>& chosen,
                             const SiaOptions& options);

/// Builds and solves the ILP. `forced[i]` = the configuration job i must keep (a job still
/// restoring), or nullopt. Throws InputError(file "sia", field "forced") when sizes disagree or a
/// forced column is out of range. A result without a solution (infeasible forced set, node
/// limit) has every job unallocated.
SiaIlpResult SolveSiaIlp(const SiaMatrix& utility,
                         const std::vector<SiaConfiguration>& configurations,
                         const std::vector<SiaNodeGroup>& groups,
                         const std::vector<std::optional<int>>& forced, const SiaOptions& options);

}  // namespace adaptsim
