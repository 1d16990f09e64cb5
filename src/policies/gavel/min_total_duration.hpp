// OSSP = `min_total_duration` (docs/policies.md §3.1; `scheduler/policies/min_total_duration.py`).
//
// The reference bisects on the horizon T (seconds) over the feasibility LP
//   F(T) = { 0 <= x_i <= 1, Σ_i s_i x_i <= C, T_i x_i >= N_i / T }       (`:55-78`)
// starting from [lo, hi] = [100, 1e6], probing T = (lo + hi)/2 while 1.05·lo < hi, widening ×10
// when nothing was feasible (`:80-135`). With one GPU type F(T) ≠ ∅ ⇔ T >= T* with
//   T* = max( max_i N_i / T_i , Σ_i s_i N_i / T_i / C ),
// so adaptsim computes T* exactly and replays the bisection with the oracle T >= T*, obtaining the
// reference's T_found bit for bit (toy: T* = 8700 → T_found = 8888.18359375).
// T_i steps/s, N_i remaining steps, s_i GPUs, C GPUs.
//
// The objective is constant, so every point of F(T_found) is optimal; ECOS returns an interior
// point that no closed form reproduces (§6.2). Option `face_rule`:
//  * "analytic_center" (default): the analytic centre of F(T_found), analytic_center.hpp;
//  * "clp_barrier": CLP barrier without crossover on F(T_found) with a zero objective;
//  * "vertex": the lower bounds x_i = N_i / (T_i T_found), a vertex of F(T_found).
// Option `solver`: "closed_form" (default) or "clp" (T* = 1/λ*, λ* = max λ s.t. x ∈ B,
// T_i x_i >= λ N_i, one CLP LP — the k-type formulation).
//
// Several GPU types (docs/policies.md §3.7; C_k GPUs of type k, G = Σ_k C_k):
//  * `min_total_duration` (heterogeneity-agnostic): the reference sets T_ik := T_i,v100 on every
//    type (`:18-47`), so the LP depends on x only through y_i = Σ_k x_ik and is the one-type LP on
//    G GPUs with the reference-type throughput: adaptsim solves it as above (same options) and
//    splits y_i over the types in proportion to their GPUs, x_ik = y_i C_k / G.
//  * `min_total_duration_perf` (aware, `:55-135`): F(T) = {x ∈ B : Σ_k T_ik x_ik >= N_i / T}.
//    T* = 1/λ*, λ* = max λ s.t. x ∈ B, Σ_k T_ik x_ik >= λ N_i (one CLP LP, typed_lp.hpp); the
//    bisection is replayed with the oracle T >= T* (T_found exact); the point of F(T_found) is the
//    CLP vertex maximising Σ_i t_i(x) / (N_i / T_found), each job's throughput relative to its
//    floor (the reference's is ECOS's interior point; face_rule and solver apply to one type).
#pragma once

#include <vector>

#include "adaptsim/policy.hpp"
#include "baseline_inputs.hpp"
#include "typed_lp.hpp"

namespace adaptsim {

enum class OsspFaceRule { kAnalyticCenter, kClpBarrier, kVertex };

/// Options of `min_total_duration`: face_rule, then the LP path's solver and max_iterations.
struct MinTotalDurationOptions : LpPathOptions {
  OsspFaceRule face_rule = OsspFaceRule::kAnalyticCenter;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(FaceRuleOption(Choices<OsspFaceRule>{{"analytic_center", OsspFaceRule::kAnalyticCenter},
                                               {"clp_barrier", OsspFaceRule::kClpBarrier},
                                               {"vertex", OsspFaceRule::kVertex}}),
          self.face_rule);
    LpPathOptions::VisitOptions(self, visit);
  }
};

/// Inputs of one call, one entry per active job in id order.
struct OsspInputs {
  std::vector<double> throughputs;      ///< T_i > 0
  std::vector<double> remaining_steps;  ///< N_i
  std::vector<int> scale_factors;       ///< s_i >= 1
  int num_gpus = 0;                     ///< C
};

/// T* in closed form.
double OsspMinimalHorizon(const OsspInputs& in);
/// T* = 1 / λ* from one CLP LP. Throws InputError if CLP fails.
double OsspMinimalHorizonClp(const OsspInputs& in, int max_iterations);

struct BisectionReplay {
  double horizon_s = 0.0;  ///< T_found, the last feasible probe
  int probes = 0;          ///< LP solves the reference performs
};
/// The reference's bisection (`:110-131`) with the oracle "feasible ⇔ T >= T*".
BisectionReplay OsspReplayBisection(double minimal_horizon_s);

/// The aware problem on several types: T*, the replay, and the point of F(T_found).
struct OsspSeveralTypesSolution {
  double minimal_horizon_s = 0.0;  ///< T* = 1/λ*
  BisectionReplay replay;          ///< T_found and the reference's probe count
  std::vector<double> x;           ///< m×n (typed_lp.hpp), a point of F(T_found)
  int lp_solves = 0;
};
/// `in` as typed_lp.hpp; remaining_steps N_i per job. Throws InputError if CLP fails.
OsspSeveralTypesSolution OsspSolveSeveralTypes(const internal::TypedLpInputs& in,
                                               const std::vector<double>& remaining_steps);

class MinTotalDurationPolicy final : public AllocationPolicy {
 public:
  explicit MinTotalDurationPolicy(MinTotalDurationOptions options,
                                  bool heterogeneity_aware = false);
  /// "MinTotalDuration" is shuffled, "MinTotalDuration_Perf" is not (`scheduler.py:1288-1301`).
  AllocationPolicyTraits Traits() const override {
    return {.several_gpu_types = true, .shuffle_gpu_type_order = !aware_};
  }
  /// Throws InputError for a zero throughput or a scale factor larger than the cluster.
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  std::vector<double> FacePoint(const OsspInputs& in, double horizon_s) const;
  MinTotalDurationOptions options_;
  bool aware_;
  internal::TypedLpWarmStart warm_start_;  ///< the previous call's basis (several types)
};

}  // namespace adaptsim
