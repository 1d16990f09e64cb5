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
//
// Several GPU types (docs/policies.md §3.7; C_k GPUs of type k, G = Σ_k C_k):
//  * `finish_time_fairness` (agnostic): the reference sets T_ik := T_i,v100 on every type for the
//    LP and iso_i (`:21-54`), so everything depends on x only through y_i = Σ_k x_ik: the one-type
//    problem on G GPUs with the reference-type throughput, solved as above (same options), y_i
//    split as x_ik = y_i C_k / G.
//  * `finish_time_fairness_perf` (aware, `:66-157`): iso_i = Σ_k T_ik x^iso_ik with
//    x^iso_ik = C_k / max(m s_i, G) (`isolated.py:72-113`); ρ_i(x) = (τ_i + N_i / t_i(x)) / E_i,
//    t_i = Σ_k T_ik x_ik. ρ_i(x) <= ρ ⇔ t_i(x) >= d_i(ρ) = N_i / (ρ E_i − τ_i), so ρ* is found by
//    a Dinkelbach-type iteration on CLP LPs (ThemisSolveSeveralTypes); the point is the CLP vertex
//    of {x ∈ B : t_i >= d_i(ρ*)} maximising Σ_i t_i / d_i(ρ*) (the reference's is ECOS's).
#pragma once

#include <map>
#include <vector>

#include "adaptsim/policy.hpp"
#include "baseline_inputs.hpp"
#include "typed_lp.hpp"

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

/// The aware min–max on several types. Starting from ρ_0 = max_i ρ_i(x⁰) for a feasible x⁰, each
/// step solves max λ s.t. t_i(x) >= λ d_i(ρ_j), x ∈ B (typed_lp.hpp) and sets ρ_{j+1} = max_i
/// ρ_i(x_j) <= ρ_j; it stops when ρ no longer decreases (relative 1e-12): then λ = 1 and ρ = ρ*
/// (λ(ρ) is increasing and λ(ρ*) = 1). Near ρ* the step is Newton's (superlinear).
/// `jobs[i].throughput` is unused (in.throughputs holds T_ik); `start` is x⁰ (m×n, in B).
struct ThemisSeveralTypesSolution {
  double rho = 0.0;       ///< ρ*, = max_i ρ_i(x)
  std::vector<double> x;  ///< m×n
  int lp_solves = 0;
};
ThemisSeveralTypesSolution ThemisSolveSeveralTypes(const internal::TypedLpInputs& in,
                                                   const std::vector<ThemisJob>& jobs,
                                                   const std::vector<double>& start);
/// max_i ρ_i(x) for x m×n (ρ_i = τ_i/E_i for N_i = 0; +∞ if a job with N_i > 0 has t_i = 0).
double ThemisWorstRho(const internal::TypedLpInputs& in, const std::vector<ThemisJob>& jobs,
                      const std::vector<double>& x);

class FinishTimeFairnessPolicy final : public AllocationPolicy {
 public:
  explicit FinishTimeFairnessPolicy(FinishTimeFairnessOptions options,
                                    bool heterogeneity_aware = false);
  /// "FinishTimeFairness" is shuffled, "FinishTimeFairness_Perf" is not (`scheduler.py:1288`).
  AllocationPolicyTraits Traits() const override {
    return {.several_gpu_types = true, .shuffle_gpu_type_order = !aware_};
  }
  /// Throws InputError for a zero throughput or a scale factor larger than the cluster.
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  std::vector<double> FacePoint(const std::vector<ThemisJob>& jobs, const ThemisOptimum& optimum,
                                int num_gpus) const;
  FinishTimeFairnessOptions options_;
  bool aware_;
  internal::TypedLpWarmStart warm_start_;  ///< the previous call's basis (several types)
  std::map<JobId, double> cumulative_isolated_s_;
  std::map<JobId, double> previous_remaining_steps_;
  std::map<JobId, double> previous_isolated_throughput_;
};

}  // namespace adaptsim
