// Analytic centre of a box with one knapsack row, the deterministic "interior point" adaptsim
// returns on non-unique optimal faces (docs/policies.md §3.1, §3.2, §6):
//
//   maximise  Σ_i [ log x_i + log(1 − x_i) + log(x_i − l_i) ] + log(C − Σ_i s_i x_i)
//
// over { max(0, l_i) < x_i < 1, Σ s_i x_i < C }. The log x_i term is kept even when l_i > 0: the
// reference's cvxpy model has an explicit x >= 0 row (policy.py:58-65). Newton's method with the
// diagonal-plus-rank-one Hessian solved by Sherman–Morrison, O(m) per step.
// Jobs whose interval is empty (l_i >= 1 − 1e-12) are fixed at min(1, l_i).
#pragma once

#include <vector>

namespace adaptsim::internal {

struct BoxKnapsackCenterResult {
  std::vector<double> x;
  int newton_steps = 0;
  bool interior = true;  ///< false if the set has no interior (x = clipped lower bounds)
};

/// Shapes: lower and weights have m entries; weights > 0, capacity >= 0. Deterministic.
BoxKnapsackCenterResult BoxKnapsackAnalyticCenter(const std::vector<double>& lower,
                                                  const std::vector<double>& weights,
                                                  double capacity, int max_newton_steps = 200);

}  // namespace adaptsim::internal
