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
// decimals), so each coefficient is taken in hundredths, w[i,c] = s·(round(100·A[i,c]) − 100·λ_n)
// with s = +1 for p < 0 and −1 otherwise, and the ILP minimises Σ w·x (the reference's objective
// up to the constant λ_n·J and the sense). Ties are broken lexicographically (docs/sia.md §3.5):
// among the solutions of least Σ w·x, the one of greatest Σ (C − c)·x over allocated jobs (C
// columns) — it prefers allocating a job over leaving it unallocated, then configurations of
// lower column index: GPU types in cluster order, then smaller configurations. Both levels are
// one integer objective, M·w[i,c] − (C − c) with M = C·min(J, free GPUs) + 1, larger than the
// second level's whole range, so the combination is exact.
//
// Solving (docs/sia.md §3.5, "Solving"):
//  1. Forced jobs are fixed and their GPUs taken first.
//  2. Candidate columns (SiaCandidateColumns): a free job keeps column c only if w[i,c] <= 0 (a
//     positive cost is beaten by leaving the job unallocated) and c fits the type's free GPUs and
//     no smaller configuration of the same type has w <= w[i,c] (it would be better on both
//     levels with fewer GPUs). Columns removed this way are in no lexicographic optimum.
//  3. Jobs with identical candidate columns and costs are interchangeable; each such class
//     becomes one general-integer variable y[k,c] = how many of its jobs run in c, with
//     Σ_c y[k,c] <= |class k|. This removes the symmetry that made branch and bound explore
//     exchanges of equal jobs.
//  4. Reduced-cost tightening: the LP relaxation of the objective alone (CLP) gives a bound z and
//     a feasible point (its floor) of objective P; a variable at 0 in the LP with reduced cost
//     d > 0 can be at most (P − z)/d in any solution of objective <= P, hence in the optimum.
//     This leaves the tie-break level only the near-optimal columns to search.
//  5. CBC solves the aggregated ILP; within a class, jobs in row order take the chosen columns
//     in ascending column order, and the remaining jobs stay unallocated. Any such assignment
//     has the same objective, so this is the documented rule among exact ties between equal
//     jobs; ties between different jobs (two jobs exchanging columns at equal total cost) are
//     decided by CBC's single-threaded, deterministic search.
// The reference (CBC with 8 threads, relative gap 1e-4) has no tie-break rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/cbc_solver.hpp"
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

/// The cost of x[i,c] = 1 in tie-break units with M = J·C + 1 (a valid M for any instance, see
/// above; the solver's smaller M orders solutions identically): the tests' brute force.
double SiaIlpCost(float utility, int column, int num_columns, int num_jobs,
                  const SiaOptions& options);

/// The reference's objective Σ A·x + λ_n·(J − Σ x) of an assignment.
double SiaReferenceObjective(const SiaMatrix& utility,
                             const std::vector<std::optional<int>>& chosen,
                             const SiaOptions& options);

/// Step 2 above: per job, the candidate columns in ascending order. `free_gpus` has one entry
/// per GPU type (the GPUs left after forced jobs).
std::vector<std::vector<int>> SiaCandidateColumns(
    const SiaMatrix& utility, const std::vector<SiaConfiguration>& configurations,
    const std::vector<int>& free_gpus, const SiaOptions& options);

/// Builds and solves the ILP. `forced[i]` = the configuration job i must keep (a job still
/// restoring), or nullopt. Throws InputError(file "sia", field "forced") when sizes disagree or a
/// forced column is out of range. Forced jobs that exceed a type's capacity give kInfeasible and
/// every job unallocated; a node limit gives kFeasible (the best incumbent) or kLimitReached.
/// `session`: CBC's driver kept across rounds (the same result as without, cheaper); nullptr
/// solves with a driver of its own.
SiaIlpResult SolveSiaIlp(const SiaMatrix& utility,
                         const std::vector<SiaConfiguration>& configurations,
                         const std::vector<SiaNodeGroup>& groups,
                         const std::vector<std::optional<int>>& forced, const SiaOptions& options,
                         CbcSession* session = nullptr);

}  // namespace adaptsim
