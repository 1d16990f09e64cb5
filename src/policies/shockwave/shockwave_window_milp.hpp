// The *general* window solver: Shockwave's window problem (window_structured.hpp, docs/policies.md
// §8.4) written as the reference's mixed-integer program (`dynamic_eisenberg_gale_scheduling`,
// `scheduler/shockwave.py:504-711`) and solved with CBC; and the ranking MILP of the infeasible
// fallback (`rank_in_schedule_jobs`, `shockwave.py:714-793`).
#pragma once

#include <vector>

#include "adaptsim/milp_problem.hpp"
#include "window_heterogeneous.hpp"
#include "window_structured.hpp"

namespace adaptsim {

/// The window MILP and how its objective relates to the window objective Φ:
/// Φ = objective_scale · (MILP objective) + objective_constant.
struct WindowMilp {
  MilpProblem milp;
  double objective_scale = 1.0;     ///< max(1, max |coefficient|) before normalisation
  double objective_constant = 0.0;  ///< Σ π_j L_last / (N T) over the jobs with constant utility
};

/// The MILP of docs/policies.md §8.4: x_jt (N·T binaries), p_j, λ_jb, z_jb (SOS2 binaries, 10 pair
/// rows for 6 bases), s_j >= R_j - ē_j p_j, M >= s_j; C6 as the upper bound of s_j. Objective
/// coefficients are divided by max(1, max |coefficient|) (the fallback's weights ρ̂^100 reach
/// 1e30). A job with no work left (progress already at the last base, c_j = β_last E_j; see
/// docs/shockwave.md, "A job with no work left") has λ pinned by (C3)-(C4) and a constant
/// utility: its λ columns get coefficient 0 and the constant goes to objective_constant, which
/// keeps its weight (up to ρ̂^100) out of the normalisation, and its x_jt are fixed to 0, which
/// loses no optimum (its rounds would only take GPUs from the others). Column layout: x_jt at
/// j·T + t, then p, λ, z, s, M.
WindowMilp BuildWindowMilp(const WindowProblem& problem);

/// The MILP of window_heterogeneous.hpp for several GPU types (WindowProblem::gpus_by_type):
/// x_jtk at (j·T + t)·K + k (fixed to 0 where r_jk = 0 or w_j > C_k), per-type capacity rows
/// Σ_j w_j x_jtk <= C_k, rows Σ_k x_jtk <= 1, (C2) ē_j p_j <= Δ Σ_tk r_jk x_jtk; the rest, the
/// normalisation and the pinned jobs as BuildWindowMilp.
WindowMilp BuildTypedWindowMilp(const WindowProblem& problem);

/// Solves BuildTypedWindowMilp with CBC (x_jtk = 1 iff >= 0.5); objective = WindowObjective
/// of the resulting effective rounds. kInfeasible without CBC when a cap is negative.
TypedWindowSolution SolveTypedWindowGeneral(const WindowProblem& problem,
                                            const MilpOptions& options);

/// Solves BuildWindowMilp with CBC. x_jt = 1 iff its value >= 0.5 (the reference's round()).
/// objective = WindowObjective of the resulting n. Infeasible caps (C6 < 0) are reported as
/// kInfeasible without calling CBC.
WindowSolution SolveWindowGeneral(const WindowProblem& problem, const MilpOptions& options);

/// The ranking MILP: y_jt binaries with Σ_t y_jt = n_j, Σ_j w_j y_jt <= G, minimising
/// Σ_{n_j > 0} π_j Σ_t t y_jt / n_j. Returns the layout (all zeros, without calling CBC, when
/// every n_j is 0), or an empty schedule when CBC finds no solution (the reference then keeps
/// x*).
WindowSchedule SolveRankingGeneral(const std::vector<int>& gpus, const std::vector<int>& rounds,
                                   const std::vector<double>& priority, int num_gpus,
                                   int num_rounds, const MilpOptions& options);

}  // namespace adaptsim
