// The Sia policy's options (docs/sia.md §3), declared once (include/adaptsim/policy_options.hpp).
// Defaults are the paper's stated settings (Sia SOSP'23 §4.3: p = −0.5, λ_n = 1.1, goodput clip
// 3000, bootstrapped throughput projection) and the reference's command line for them
// (`S:sia-simulator/run_experiment.sh:1-14`: --project_throughput --share_max_replicas).
#pragma once

#include <cstdint>

#include "adaptsim/policy_options.hpp"

namespace adaptsim {

/// δ of the re-allocation factor (docs/sia.md §3.4).
enum class SiaRestartPenalty {
  kPolicyTable,  ///< Sia's own per-model table (`S:sia-simulator/sia.py:23-35`)
  kEngineDelay,  ///< the engine's per-model checkpoint-restore delay (`applications.py:56-69`)
};

/// How the re-allocation factor measures a job's lost time (docs/sia.md §3.4).
enum class SiaRestartFactor {
  kAge,         ///< max(age − restarts·δ, 0)/(age + δ), Pollux's (`sia.py:723-726`)
  kGpuSeconds,  ///< (1 + used)/(1 + used + wasted + δ) in GPU-seconds (`sia.py:728-735`)
};

struct SiaOptions {
  double p = -0.5;             ///< fairness exponent of the normalised goodput (paper Eq. 1: G^p)
  double lambda_n = 1.1;       ///< value of leaving a job unallocated (paper Eq. 1, λ)
  double goodput_clip = 3000;  ///< cap of the powered, rounded goodput (`sia.py:913-914`)
  bool project_throughputs = true;  ///< bootstrap types without a model (paper §3.1)
  bool share_max_replicas = true;   ///< one replica cap across types (`sia.py:622-624`)
  int scale_up_factor = 2;          ///< max replicas = factor × most replicas profiled
  int max_replicas_cap = 64;        ///< hard cap on a job's replicas (`cluster.py:377-379`)
  SiaRestartPenalty restart_penalty = SiaRestartPenalty::kEngineDelay;  ///< paper §4.2's delays
  SiaRestartFactor restart_factor = SiaRestartFactor::kAge;
  double mip_relative_gap = 0.0;        ///< CBC's relative gap; 0 = proven optimum
  std::int64_t mip_max_nodes = 100000;  ///< CBC's branch-and-bound node limit

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("p", "fairness exponent of the normalised goodput (< 0: minimise Σ S^p)",
                 Within(-10, 1)),
          self.p);
    visit(Option("lambda_n", "objective value of leaving one job unallocated (λ_n)",
                 Within(-1000, 1000)),
          self.lambda_n);
    visit(Option("goodput_clip", "cap of the powered, rounded normalised goodput", Above(0)),
          self.goodput_clip);
    visit(Option("project_throughputs",
                 "estimate a GPU type without a model from another type's model (bootstrap)"),
          self.project_throughputs);
    visit(Option("share_max_replicas", "a job's replica cap is its largest over GPU types"),
          self.share_max_replicas);
    visit(Option("scale_up_factor",
                 "max replicas = factor x most replicas profiled (scale-up per round)",
                 WholeWithin(1, 64)),
          self.scale_up_factor);
    visit(Option("max_replicas_cap", "largest replica count of any job", WholeWithin(1, 1 << 20)),
          self.max_replicas_cap);
    visit(Option("restart_penalty", "δ of the re-allocation factor",
                 Choices<SiaRestartPenalty>{
                     {"engine_delay", SiaRestartPenalty::kEngineDelay,
                      "the per-model checkpoint-restore delay the engine charges (paper)"},
                     {"policy_table", SiaRestartPenalty::kPolicyTable,
                      "the reference policy's own per-model table (sia.py)"}}),
          self.restart_penalty);
    visit(Option("restart_factor", "how the re-allocation factor counts lost time",
                 Choices<SiaRestartFactor>{
                     {"age", SiaRestartFactor::kAge, "wall-clock age (Pollux's factor)"},
                     {"gpu_seconds", SiaRestartFactor::kGpuSeconds, "used vs wasted GPU-seconds"}}),
          self.restart_factor);
    visit(Option("mip_relative_gap", "CBC relative optimality gap (0 = proven optimum)",
                 Within(0, 1)),
          self.mip_relative_gap);
    visit(Option("mip_max_nodes", "CBC branch-and-bound node limit per round", WholeWithin(1, 1e9)),
          self.mip_max_nodes);
  }
};

}  // namespace adaptsim
