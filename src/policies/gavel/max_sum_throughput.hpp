// MST = `max_sum_throughput_perf` (docs/policies.md §3.5;
// `scheduler/policies/max_sum_throughput.py`, class ThroughputSumWithPerf →
// ThroughputNormalizedByCostSumWithPerfSLOs, `:11-21, 44-108`):
//
//   maximise Σ_i T_i x_i   s.t.  0 <= x_i <= 1,  Σ_i s_i x_i <= C        (one GPU type, cost 1)
//
// T_i in steps/s (raw, not normalised), s_i GPUs, C GPUs. Output x_i ∈ [0, 1].
// Solvers (option `solver`):
//  * "closed_form" (default): fractional knapsack on the ratio T_i / s_i. Jobs are taken in
//    decreasing ratio; ratios within a relative `tie_tolerance` (default 1e-9) form a tie group.
//    Whole groups get x = 1 while they fit; the marginal group gets the symmetric split
//    x = capacity_left / Σ_group s_i for every member (what ECOS returns, checked to 1e-7,
//    docs/policies.md §6.1); later groups get 0.
//  * "clp": the LP on COIN-OR CLP, barrier without crossover and presolve off, which reproduced
//    ECOS's tie split to <= 6e-9 (§6.7). Iteration limit `max_iterations` (default 1000).
// Several GPU types (docs/policies.md §3.7): maximise Σ_i Σ_k T_ik x_ik over x ∈ B on CLP, barrier
// without crossover (a centred point of a tie, as the one-type rule; dual simplex if the barrier
// does not converge), whatever `solver` says; x_ik = 0 where T_ik = 0 (typed_lp.hpp).
#pragma once

#include <vector>

#include "adaptsim/policy.hpp"
#include "baseline_inputs.hpp"

namespace adaptsim {

/// Options of `max_sum_throughput(_perf)`: the LP path's solver and max_iterations, then
/// tie_tolerance.
struct MaxSumThroughputOptions : LpPathOptions {
  double tie_tolerance = 1e-9;  ///< relative

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    LpPathOptions::VisitOptions(self, visit);
    visit(
        Option("tie_tolerance", "relative throughput difference treated as a tie", Within(0, 1e-3)),
        self.tie_tolerance);
  }
};

/// The closed form above. Shapes: throughputs and scale_factors have m entries (> 0).
std::vector<double> MaxSumThroughputClosedForm(const std::vector<double>& throughputs,
                                               const std::vector<int>& scale_factors, int num_gpus,
                                               double tie_tolerance);
/// The LP on CLP barrier (no crossover). Throws InputError if CLP does not report optimal.
std::vector<double> MaxSumThroughputClp(const std::vector<double>& throughputs,
                                        const std::vector<int>& scale_factors, int num_gpus,
                                        int max_iterations);

namespace internal {
struct TypedLpInputs;
struct TypedLpPoint;
/// The LP on several GPU types (typed_lp.hpp): maximise Σ_ik T_ik x_ik over B, the point of
/// docs/policies.md §3.7 — CLP's barrier without crossover (a centred point of a tie, as the
/// reference's ECOS), CLP's dual simplex vertex if the barrier fails. Also gavel_tj's LP.
TypedLpPoint MaxSumThroughputTyped(const TypedLpInputs& in);
}  // namespace internal

class MaxSumThroughputPolicy final : public AllocationPolicy {
 public:
  explicit MaxSumThroughputPolicy(MaxSumThroughputOptions options);
  /// "ThroughputSumWithPerf": fixed GPU-type order (`scheduler.py:1288-1301`).
  AllocationPolicyTraits Traits() const override { return {.several_gpu_types = true}; }
  /// Throws InputError for a zero throughput or a scale factor larger than the cluster.
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  MaxSumThroughputOptions options_;
};

}  // namespace adaptsim
