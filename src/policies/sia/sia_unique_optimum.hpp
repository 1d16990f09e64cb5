// The unique optimum of Sia's aggregated ILP, when it has one (docs/sia.md §3.5, "Unique
// optimum"; docs/performance.md, "Sia whole runs").
//
// CBC decides only exact ties by its own search; when the ILP has one optimal point, every exact
// solver returns that point. This search finds the optimum and proves it unique, or gives up; the
// caller then solves with CBC, so the chosen solution is CBC's in every case.
//
// Depth-first branch and bound on CLP relaxations (dual simplex, each child warm-started from its
// parent's basis), branching x_j <= floor / >= ceil on the first fractional variable. Every
// certificate is recomputed from CLP's duals in long double, not taken from its tolerances: with
// y = the row duals clamped to <= 0 (rows are A x <= b, minimisation) and d = c − Aᵀy,
//  * bound: every point of a node has c·x >= yᵀb + Σ_j min(d_j l_j, d_j u_j) (weak duality); a
//    node whose bound exceeds the incumbent's objective holds no optimum and no tie;
//  * uniqueness in a node whose relaxation is integral (x̂, rounded and checked feasible in
//    exact integer arithmetic): CLP's basis B is nonsingular, so a point that agrees with x̂ on
//    every nonbasic column and keeps every nonbasic row tight is x̂. Any other point pays at least
//    τ = the least |d_j| of a nonbasic column (x̂ at the bound its sign favours; 0 otherwise) or
//    |y_i| of a nonbasic (tight) row, and recovers at most the slack L = Σ_basic |d_j|(u_j − l_j)
//    + Σ_rows |y_i|·slack_i(x̂); if τ > L, every other point of the node costs more than x̂ and
//    the node is closed. Otherwise the node is split on the nonbasic column j that sets τ into
//    x_j = x̂_j (which holds x̂), x_j <= x̂_j − 1 and x_j >= x̂_j + 1.
// The objective is integral, so objectives of integer points compare exactly: a second point of
// the incumbent's objective is a tie.
// Gives up (nullopt) when: the data are not integral (objective, matrix, bounds), a row has a
// finite lower bound, the problem maximises, an LP is not solved, a tie (or an integral
// relaxation worse than the incumbent whose node the bound did not close) is found, a nonbasic
// row is not certified, the node limit is reached, or there is no feasible point.
#pragma once

#include <optional>
#include <vector>

#include "adaptsim/milp_problem.hpp"

namespace adaptsim {

/// The ILP's optimum (num_cols integral values) when the search proves it is the only optimal
/// point within `max_nodes` relaxations, else nullopt. `nodes` (if given) receives the number
/// of relaxations solved.
std::optional<std::vector<double>> SiaUniqueOptimum(const MilpProblem& problem, int max_nodes,
                                                    int* nodes = nullptr);

}  // namespace adaptsim
