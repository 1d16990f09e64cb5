// Gavel's max-min fairness, the "LAS" baseline (docs/policies.md §3.3;
// `scheduler/policies/max_min_fairness.py:12-113`), for one GPU type in closed form.
//
// Throughputs are replaced by 1, so the LP is: maximise t s.t. t <= s_i x_i / w_i,
// Σ_i s_i x_i <= C, 0 <= x_i <= 1. Its optimum is t* = min(C / Σ_i w_i, min_i s_i / w_i).
//  * Contended (C/Σw < min s_i/w_i): unique, x_i = w_i t* / s_i (= C / (m s_i) for w = 1).
//  * Otherwise the optimal face {l_i <= x_i <= 1, Σ s_i x_i <= C}, l_i = w_i t*/s_i, is not a
//    point. adaptsim returns x_i = l_i + θ (1 - l_i) with θ = face_position · θ_max, where θ_max
//    is the largest θ in [0, 1] that keeps Σ s_i x_i <= C. face_position 0.5 ("centre", default)
//    is the middle of that segment, near the interior point an IPM returns (docs/policies.md §6.3);
//    1.0 ("fill") uses all spare capacity; 0.0 ("lower") is the minimal point.
#pragma once

#include "adaptsim/policy.hpp"
#include "baseline_inputs.hpp"

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

class MaxMinFairnessPolicy final : public AllocationPolicy {
 public:
  explicit MaxMinFairnessPolicy(MaxMinFairnessOptions options) : options_(options) {}
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  MaxMinFairnessOptions options_;
};

}  // namespace adaptsim
