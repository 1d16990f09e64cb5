// Gavel's max-min fairness, the "LAS" baseline (docs/policies.md §3.3;
// `scheduler/policies/max_min_fairness.py:12-113`): `max_min_fairness` (heterogeneity-agnostic)
// and `max_min_fairness_perf` (heterogeneity-aware, §3.7). On one GPU type both are the closed
// form below.
//
// Throughputs are replaced by 1, so the LP is: maximise t s.t. t <= s_i x_i / w_i,
// Σ_i s_i x_i <= C, 0 <= x_i <= 1. Its optimum is t* = min(C / Σ_i w_i, min_i s_i / w_i).
//  * Contended (C/Σw < min s_i/w_i): unique, x_i = w_i t* / s_i (= C / (m s_i) for w = 1).
//  * Otherwise the optimal face {l_i <= x_i <= 1, Σ s_i x_i <= C}, l_i = w_i t*/s_i, is not a
//    point. adaptsim returns x_i = l_i + θ (1 - l_i) with θ = face_position · θ_max, where θ_max
//    is the largest θ in [0, 1] that keeps Σ s_i x_i <= C. face_position 0.5 ("centre", default)
//    is the middle of that segment, near the interior point an IPM returns (docs/policies.md §6.3);
//    1.0 ("fill") uses all spare capacity; 0.0 ("lower") is the minimal point.
//
// Several GPU types (C_k GPUs of type k, G = Σ_k C_k):
//  * agnostic: the reference sets every T_ik := 1 (`:33-37`), so the LP depends on x only through
//    y_i = Σ_k x_ik and is the one-type LP on G GPUs; adaptsim solves that in closed form and
//    splits y_i over the types in proportion to their GPUs, x_ik = y_i C_k / G (a point of the
//    reference's optimal face; the reference's own split is ECOS's and cannot be reproduced).
//  * aware (`:53-113`): a_ik = T_ik s_i / (w_i p_i), p_i = Σ_k T_ik C_k / G the equal-share
//    throughput (`proportional.py:26-43`); maximise min_i Σ_k a_ik x_ik over x ∈ B. adaptsim
//    returns the lexicographic max-min point (typed_lp.hpp, water filling): its smallest level is
//    the reference's optimum z*, and no job's normalised throughput can be raised without lowering
//    one that is not larger.
#pragma once

#include <vector>

#include "adaptsim/policy.hpp"
#include "baseline_inputs.hpp"
#include "typed_lp.hpp"

namespace adaptsim {

struct MaxMinFairnessOptions {
  /// Where on the non-unique optimal face to land, in [0, 1] (see above).
  double face_position = 0.5;

  /// face_rule names a face_position; face_position, when given, overrides it.
  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(FaceRuleOption(Choices<double>{{"lower", 0.0, "face_position 0"},
                                         {"centre", 0.5, "face_position 0.5"},
                                         {"center", 0.5, "face_position 0.5"},
                                         {"fill", 1.0, "face_position 1"}}),
          self.face_position);
    visit(Option("face_position",
                 "position on the optimal face (overrides face_rule; 0 = lower bounds, 1 = fill "
                 "the cluster)",
                 Within(0, 1)),
          self.face_position);
  }
};

/// The aware LP's coefficients a_ik (m×n row-major, jobs in state order) of `state` on `cluster`.
std::vector<double> MaxMinFairnessCoefficients(const ClusterState& state, const Cluster& cluster);

class MaxMinFairnessPolicy final : public AllocationPolicy {
 public:
  explicit MaxMinFairnessPolicy(MaxMinFairnessOptions options, bool heterogeneity_aware = false)
      : options_(options), aware_(heterogeneity_aware) {}
  AllocationPolicyTraits Traits() const override {
    // "MaxMinFairness" is shuffled, "MaxMinFairness_Perf" is not (`scheduler.py:1288-1301`).
    return {.several_gpu_types = true, .shuffle_gpu_type_order = !aware_};
  }
  /// Throws InputError when CLP fails on the aware LP.
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  /// y_i of the one-type closed form on state.num_gpus GPUs, jobs in state order.
  std::vector<double> OneTypeShares(const ClusterState& state) const;
  MaxMinFairnessOptions options_;
  bool aware_;
  internal::TypedLpWarmStart warm_start_;  ///< the previous LP's basis (several types)
};

}  // namespace adaptsim
