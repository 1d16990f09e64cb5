// Themis = `finish_time_fairness` (docs/policies.md §3.2;
// `scheduler/policies/finish_time_fairness.py`).
//
// Per call, for the m active jobs (one GPU type; T_i steps/s, N_i remaining steps, τ_i seconds
// since arrival, s_i GPUs, C GPUs):
//  1. isolated throughput iso_i = T_i · min(1, C/(m s_i)) (isolated.hpp; `isolated.py:14-55`);
//  2. cumiso_i: 0 for a new job, else += (N_i^prev − N_i) / iso_i^prev, "prev" being the previous
//     policy call (`:102-109`; kept even when a batch-size change rescaled N, §3.2 step 2);
//  3. E_i = cumiso_i + N_i / iso_i;
//  4. minimise max_i ρ_i(x), ρ_i(x) = (τ_i + N_i / (T_i x_i)) / E_i, s.t. 0 <= x <= 1, Σ s_i x_i <=
//  C.
// The priority weight is read but unused in the reference (`:91-94`), so it is ignored here.
//
// Exact solution (quasi-linear): ρ_i(x) <= ρ ⇔ x_i >= ℓ_i(ρ) = N_i / (T_i (ρ E_i − τ_i)).
//   ρ_floor = max_i (τ_i + N_i/T_i) / E_i;  need(ρ) = Σ_i s_i ℓ_i(ρ), strictly decreasing.
//   need(ρ_floor) > C  → ρ* solves need(ρ*) = C (bisection to the last ulp); unique x = ℓ(ρ*).
//   need(ρ_floor) <= C → ρ* = ρ_floor; the optimal face {ℓ_i(ρ*) <= x_i <= 1, Σ s_i x_i <= C}
//                         is NOT unique and the reference's point is GUROBI's barrier choice,
//                         which cannot be reproduced (§3.2, §6.4). Option `face_rule`:
//     "analytic_center" (default): analytic centre of the face (analytic_center.hpp);
//     "lower": x = ℓ(ρ*);  "fill": x = ℓ + θ (1 − ℓ) with the largest θ <= 1 that fits C;
//     "clp_barrier": CLP barrier without crossover on the face with a zero objective.
// Option `solver`: "closed_form" (default) or "clp" (bisection on ρ over CLP feasibility LPs, the
// k-type method; ≈ 40-60 LPs).
// Reference corner cases kept: a job with N_i = 0 contributes the constant ρ_i = τ_i/E_i; a job
// with N_i < 0 (the zero-step failure path) or E_i <= 0 makes the cvxpy problem non-DCP, and the
// reference then returns the Isolated allocation without updating N^prev/iso^prev (`:154-157`).
// State (cumiso, N^prev, iso^prev) lives in the policy object; one instance per simulation.
#pragma once

#include <map>
#include <vector>

#include "adaptsim/policy.hpp"
#include "baseline_inputs.hpp"

namespace adaptsim {

enum class ThemisFaceRule { kAnalyticCenter, kLower, kFill, kClpBarrier };

/// Options of `finish_time_fairness`: face_rule, then the LP path's solver and max_iterations.
struct FinishTimeFairnessOptions : LpPathOptions {
  ThemisFaceRule face_rule = ThemisFaceRule::kAnalyticCenter;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(
        FaceRuleOption(Choices<ThemisFaceRule>{{"analytic_center", ThemisFaceRule::kAnalyticCenter},
                                               {"lower", ThemisFaceRule::kLower},
                                               {"fill", ThemisFaceRule::kFill},
                                               {"clp_barrier", ThemisFaceRule::kClpBarrier}}),
        self.face_rule);
    LpPathOptions::VisitOptions(self, visit);
  }
};

/// One job of the min–max problem (step 4). N_i >= 0, T_i > 0, E_i > 0.
struct ThemisJob {
  double throughput = 0.0;
  double remaining_steps = 0.0;
  double time_since_arrival_s = 0.0;
  double expected_isolated_s = 0.0;  ///< E_i
  int scale_factor = 1;
};

struct ThemisOptimum {
  double rho = 0.0;           ///< ρ*
  bool unique = false;        ///< capacity binding: x = lower
  std::vector<double> lower;  ///< ℓ_i(ρ*), 0 for N_i = 0
  int lp_solves = 0;          ///< CLP path only
};

/// ρ* and ℓ(ρ*) in closed form (1-D bisection on need(ρ)).
ThemisOptimum ThemisSolveClosedForm(const std::vector<ThemisJob>& jobs, int num_gpus);
/// ρ* by bisection over CLP feasibility LPs. Throws InputError if CLP fails.
ThemisOptimum ThemisSolveClp(const std::vector<ThemisJob>& jobs, int num_gpus, int max_iterations);

class FinishTimeFairnessPolicy final : public AllocationPolicy {
 public:
  explicit FinishTimeFairnessPolicy(FinishTimeFairnessOptions options);
  /// Throws InputError for a zero throughput or a scale factor larger than the cluster.
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  std::vector<double> FacePoint(const std::vector<ThemisJob>& jobs, const ThemisOptimum& optimum,
                                int num_gpus) const;
  FinishTimeFairnessOptions options_;
  std::map<JobId, double> cumulative_isolated_s_;
  std::map<JobId, double> previous_remaining_steps_;
  std::map<JobId, double> previous_isolated_throughput_;
};

}  // namespace adaptsim
