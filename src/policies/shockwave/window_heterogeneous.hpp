// Shockwave's planning window on a cluster of several GPU types (docs/shockwave.md, "Shockwave on
// mixed GPUs"): the Volatile Fisher Market with one good per GPU type.
//
// The program. Jobs j, window rounds t = 0..T-1, GPU types k with C_k GPUs and speeds r_jk =
// T_jk / T_j,ref (WindowJob::speed, WindowProblem::gpus_by_type):
//   x_jtk ∈ {0,1};  Σ_k x_jtk <= 1 (one type per round);  Σ_j w_j x_jtk <= C_k (per-type capacity);
//   ē_j p_j <= Δ Σ_t Σ_k r_jk x_jtk  (progress at each type's throughput);
//   everything else as on one type (window_structured.hpp: C3-C6 and the objective).
// Everything except the two layout rows depends on x only through the effective rounds
// e_j = Σ_t Σ_k r_jk x_jtk, so Φ(e) = Σ_j u_j(e_j) - k max_j s_j(e_j) with the one-type u_j, s_j
// evaluated at the real number e_j. On one type with r = 1 this is the one-type program; the
// policy keeps using SolveWindowStructured there (results unchanged).
#pragma once

#include <cstdint>
#include <vector>

#include "window_structured.hpp"

namespace adaptsim {

/// y[j][t] = the GPU type (index into WindowProblem::gpus_by_type) job j runs on in window round
/// t, or -1 when it does not run.
using TypedWindowSchedule = std::vector<std::vector<int>>;

struct TypedWindowSolution {
  WindowStatus status = WindowStatus::kError;
  std::vector<double> effective_rounds;  ///< e_j = Σ_t r_{j, y_jt}
  TypedWindowSchedule y;                 ///< the layout (empty without a solution)
  double objective = 0.0;                ///< Φ(e), WindowObjective of effective_rounds
  std::int64_t nodes = 0;                ///< levels evaluated (structured), B&B nodes (general)

  bool HasSolution() const {
    return status == WindowStatus::kOptimal || status == WindowStatus::kFeasible;
  }
};

/// e_j of row y_j.
double EffectiveRounds(const WindowJob& job, const std::vector<int>& row);
/// Whether y is a layout of `problem`: shape jobs × T, at most one type per (job, round), no job
/// on a type where its speed is 0, and Σ_j w_j [y_jt = k] <= C_k for every round and type.
bool TypedLayoutValid(const WindowProblem& problem, const TypedWindowSchedule& y);

/// The structured solver for several types (the one-type solver's method, docs/shockwave.md):
/// the smallest max-remaining level M the greedy minimum phase can meet (bisection), then for M
/// and a few larger levels the greedy fill by marginal utility per GPU over (job, type) pairs,
/// then a local search (move a round to another type or round, give a round from one job to
/// another, exchange types between two jobs in one round) while it improves Φ; the best layout is
/// ranked by RankTypedRounds(π). kInfeasible when the minimum phase cannot meet the finish-time
/// caps. Needs WindowProblem::gpus_by_type. Deterministic; no state.
TypedWindowSolution SolveWindowHeterogeneous(const WindowProblem& problem);

/// Reorders the window's rounds (whole columns, so the layout stays valid) to minimise the
/// ranking objective Σ_{n_j > 0} (π_j / n_j) Σ_t t [y_jt >= 0] (`rank_in_schedule_jobs`,
/// `shockwave.py:714-793`) over the permutations of the rounds: columns by Σ_j π_j / n_j,
/// largest first (rearrangement inequality).
void RankTypedRounds(TypedWindowSchedule& y, const std::vector<double>& priority);

}  // namespace adaptsim
