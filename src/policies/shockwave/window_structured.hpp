// Shockwave's planning-window problem (docs/policies.md §8.4; `dynamic_eisenberg_gale_scheduling`,
// `scheduler/shockwave.py:504-711`) as plain data, its objective, exact layout feasibility for
// power-of-two gangs, and the *structured* solver.
//
// The window MILP. Jobs j (N of them) and window rounds t = 0..T-1 of length Δ seconds:
//   x_jt ∈ {0,1};  Σ_j w_j x_jt <= G  (C1);  ē_j p_j <= Δ Σ_t x_jt  (C2);
//   (c_j + p_j)/E_j = Σ_b β_b λ_jb, Σ_b λ_jb = 1, λ SOS2  (C3-C5);
//   s_j = max(0, R_j - ē_j p_j) <= cap_j  (C6, finish-time fairness, optional);
//   maximise  (1/(N T)) Σ_j π_j Σ_b L_b λ_jb  -  k · max_j s_j.
// Structure used here: everything except (C1) depends on x only through n_j = Σ_t x_jt. For given
// n_j the best p_j is min(Δ n_j / ē_j, β_last E_j - c_j) (the objective increases in p_j), so the
// objective is Φ(n) = Σ_j u_j(n_j) - k max_j s_j(n_j) with u_j concave-increasing and s_j
// decreasing. (C1) holds for some x with row sums n iff the greedy layout of LayoutFeasible
// succeeds (docs/shockwave.md, "Exact feasibility"; tested exhaustively in
// tests/test_shockwave_window.cpp).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "window_layout.hpp"

namespace adaptsim {

/// One job of the window problem. Units: seconds and epochs.
struct WindowJob {
  int gpus = 1;               ///< w_j, gang size; a power of two dividing num_gpus
  double epochs = 1.0;        ///< E_j > 0
  double progress = 0.0;      ///< c_j ∈ [0, E_j], completed epochs
  double mean_epoch_s = 1.0;  ///< ē_j > 0, mean calibrated epoch duration so far
  double remaining_s = 0.0;   ///< R_j >= 0, forecast remaining run time
  double weight = 1.0;        ///< π_j > 0, weight of the log utility (1 unless relaxed)
  /// Upper bound on s_j from the finish-time constraint (C6): σ (ρ_max F̄_j - t_0);
  /// +infinity = no constraint.
  double max_shortfall_s = std::numeric_limits<double>::infinity();
  /// Several GPU types only (WindowProblem::gpus_by_type set): r_jk = T_jk / T_j,ref, the
  /// reference-type rounds of progress one round on type k gives (0: the job cannot run on k).
  /// One entry per type. Empty on one type (every round counts 1).
  std::vector<double> speed = {};
};

struct WindowProblem {
  int num_gpus = 1;                ///< G
  int num_rounds = 1;              ///< T
  double round_s = 120.0;          ///< Δ
  double k = 1e-3;                 ///< weight of the max-remaining-time term
  std::vector<double> bases;       ///< β_b, increasing, β_0 = 0
  std::vector<double> log_values;  ///< L_b (ln of β_b, ln 1e-6 for β_0 = 0), increasing
  std::vector<WindowJob> jobs;
  /// C_k, the GPUs of each type of a cluster of several types (sum = num_gpus; the per-type
  /// capacity of window_heterogeneous.hpp). Empty: one type of num_gpus GPUs.
  std::vector<int> gpus_by_type = {};

  /// Throws InputError(field=...) on malformed data (shapes, gang sizes, non-finite values).
  void Validate() const;
};

enum class WindowStatus { kOptimal, kFeasible, kInfeasible, kLimitReached, kError };
std::string ToString(WindowStatus status);

struct WindowSolution {
  WindowStatus status = WindowStatus::kError;
  std::vector<int> rounds;  ///< n_j
  WindowSchedule x;         ///< a layout with row sums n_j (empty without a solution)
  double objective = 0.0;   ///< Φ(n)
  double bound = 0.0;       ///< an upper bound on the optimum (structured: relaxation bound)
  std::int64_t nodes = 0;   ///< structured: candidate M levels evaluated; general: B&B nodes
  double solve_time_s = 0.0;

  bool HasSolution() const {
    return status == WindowStatus::kOptimal || status == WindowStatus::kFeasible;
  }
};

/// p_j(n): planned epochs when granted n rounds (on several GPU types n is the effective number
/// of rounds Σ_t r_{j,k(t)}, docs/shockwave.md "Shockwave on mixed GPUs"; an int n gives the same
/// value as before).
double PlannedEpochs(const WindowProblem& problem, const WindowJob& job, double n);
/// s_j(n) = max(0, R_j - ē_j p_j(n)), seconds.
double Shortfall(const WindowProblem& problem, const WindowJob& job, double n);
/// π_j f((c_j + p_j(n)) / E_j) / (N T), f the piecewise-linear interpolation of (β, L).
double WeightedLogUtility(const WindowProblem& problem, const WindowJob& job, double n);
/// Φ(n); -infinity if some s_j(n_j) exceeds its cap (beyond 1e-6 s).
double WindowObjective(const WindowProblem& problem, const std::vector<int>& rounds);
/// Φ of effective rounds e_j (several GPU types, window_heterogeneous.hpp); the same as above for
/// integral e_j.
double WindowObjective(const WindowProblem& problem, const std::vector<double>& effective_rounds);

/// Options of SolveWindowStructured.
struct WindowStructuredOptions {
  /// Run the reference implementations — the local search (docs/shockwave.md, step 4) with a
  /// full victim scan, layout check and refill per candidate, O(N²·T) per pass, and RankedLayout
  /// with its job-by-job check (RankedLayoutOptions::sequential_check) — instead of the sparse
  /// local search and the grouped check (same results; docs/performance.md, "Shockwave at
  /// scale"); for tests and benchmarks. Policy option solver = "structured_reference".
  bool reference = false;
};

/// The structured solver: bisection for the smallest feasible max-remaining level M, then for
/// each candidate level M (values s_j(n), increasing, pruned by the relaxation bound) the
/// greedy fill of the rounds left by marginal utility per GPU under exact layout feasibility;
/// returns the best Φ, laid out with RankedLayout(π). kInfeasible when the finish-time caps
/// cannot all be met. Not thread-safe per problem; no state.
WindowSolution SolveWindowStructured(const WindowProblem& problem,
                                     const WindowStructuredOptions& options = {});

}  // namespace adaptsim
