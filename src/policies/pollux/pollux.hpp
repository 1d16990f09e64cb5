// Pollux (Qiao et al., OSDI'21): goodput-driven co-adaptive scheduling as in the artifact's
// simulator (docs/pollux.md §3; `A:simulator/pollux.py`, job side `A:simulator/simulator.py:22-98,
// 321-336`).
//
// Job side (the PolluxAgent): every measured configuration (N, K, m) is kept once (first
// observation wins) and the 7-parameter throughput model is refitted on all of them with the Ceres
// fitter (include/adaptsim/throughput_fit.hpp); the latest gradient statistics are kept. Batch
// choice: ncf keeps the fixed total batch 32768; before any model M = max(M0, min_m·K) (fixed
// rule); afterwards the goodput optimum on the 50-point grid with accumulation
// (pollux_goodput.hpp).
//
// Cluster side, each interval (pollux.py:115-200, 242-337):
//   SPEEDUP_j(A) = max goodput at A / max goodput at the fair share (ceil(G/J) replicas on
//                  ceil(nodes/G) nodes); K / fair replicas for jobs without a model yet;
//   scaled_j     = SPEEDUP_j · nodes / G, × (max(age − restarts·δ, 0) / (age + δ)) if j's row
//                  differs from its current allocation;
//   FITNESS_p    = ((1/J) Σ_j (scaled_j + 1e-3)^p)^(1/p)  (p = 0: geometric mean, floor 1e-3);
//   objectives   = (−FITNESS_p, −UTILITY) for the NSGA-II (pollux_ga.hpp), whose result is the
//                  best-fitness member of the final non-dominated set.
// max_replicas_j = min(max(2 · max profiled K, 1), G, max_batch // min_m) (1 for ncf). Rows are
// ordered by (attained service, submission time). The GA starts from the current allocation in
// the first round and from the previous round's non-dominated set afterwards, remapped as the
// artifact does (surviving jobs matched by position in the old and new row orders — an artifact
// quirk kept for fidelity; docs/pollux.md). The GA's randomness is a Philox stream keyed by the
// task seed (stream "Pollux GA", substream = round), so a rerun is identical.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/pollux_goodput.hpp"
#include "adaptsim/throughput_fit.hpp"
#include "adaptsim/throughput_fit_memo.hpp"
#include "pollux_ga.hpp"

namespace adaptsim {

struct PolluxOptions {
  double p = -1.0;         ///< power-mean exponent ("more negative = more fair")
  GaOptions ga;            ///< population 100, 100 generations, crossover 0.9, avoidance on
  std::uint64_t seed = 0;  ///< the task seed (keys the GA's Philox stream); not an option

  /// The options of the `pollux` policy. The δ of the re-allocation factor (pollux.py:324) is not
  /// one of them: it is the engine's restart delay (IntervalSimulationOptions::restart_delay_s),
  /// read from IntervalClusterView::restart_delay_s at every decision (the artifact uses one value
  /// for both, docs/pollux.md).
  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("p", "power-mean exponent of the fitness (more negative = fairer)", AtMost(1)),
          self.p);
    GaOptions::VisitOptions(self.ga, visit);
  }
  void CheckOptions(const OptionContext& where) const { ga.CheckOptions(where); }
};

/// How another policy of the family runs this one's agents and GA (pollux_unaware.hpp); the
/// defaults are the Pollux artifact's. Not options: each is fixed by the policy that runs it.
struct PolluxVariant {
  /// The per-GPU batch is bounded by the largest local batch profiled at the placement
  /// (PolluxApplication::MaxLocalBszAt), as the Sia artifact's job side does
  /// (`S:sia-simulator/job.py:340, 365`); the Pollux artifact bounds it by the profile's overall
  /// largest (false).
  bool placement_local_bsz_limit = false;
};

class PolluxPolicy : public IntervalPolicy {
 public:
  /// Throws InputError("pollux", "pollux.<option>") for an option out of range.
  explicit PolluxPolicy(const PolluxOptions& options, const PolluxVariant& variant = {});
  void Observe(const IntervalJobView& job, const StepObservation& observation) override;
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) override;
  IntervalDecision Optimize(const IntervalClusterView& cluster) override;
  /// As Optimize, with every job's max replicas also at most `max_replicas_cap` (≥ 1): the
  /// cluster-wide cap of the Sia artifact's heterogeneity-unaware engine
  /// (`S:sia-simulator/cluster_unaware.py:551-554`).
  IntervalDecision Optimize(const IntervalClusterView& cluster, int max_replicas_cap);
  std::map<std::string, double> Statistics() const override;
  /// Shares the fit memo of a donor of the same class.
  void ShareCachesWith(IntervalPolicy& donor) override;

 private:
  struct Agent {
    std::vector<models::ThroughputSample> samples;  ///< first observation of each (N, K, m)
    std::optional<models::PolluxPerfParams> perf;
    models::PolluxGradParams grad;
    int max_profiled_replicas = 0;
    /// The speedup function of the job's last round and the bits of what it was built from
    /// (SpeedupInputsOf): reused, with the values it memoised, while they are unchanged (same
    /// inputs, same doubles).
    std::optional<models::SpeedupFunction> speedup;
    std::array<std::uint64_t, 15> speedup_inputs{};
  };
  int MaxReplicas(const IntervalJobView& job, int total_gpus) const;
  std::vector<GaState> InitialStates(const std::vector<int>& rows, const GaState& base,
                                     int num_nodes) const;

  PolluxOptions options_;
  PolluxVariant variant_;
  std::map<int, Agent> agents_;  ///< by job index
  /// Fitted parameters by sample list: jobs of one application that visit the same
  /// configurations in the same order fit the same data, and a fit is a function of its data;
  /// shared with the instances of the task's isolated runs (ShareCachesWith).
  std::shared_ptr<models::ThroughputFitMemo> fit_memo_ =
      std::make_shared<models::ThroughputFitMemo>();
  std::vector<GaState> previous_front_;
  std::vector<int> previous_rows_;  ///< job index per row of previous_front_
  std::uint32_t round_ = 0;
  std::int64_t fits_ = 0, evaluations_ = 0;
  double ga_wall_s_ = 0.0, fit_wall_s_ = 0.0;  ///< informational only, never acted on
};

}  // namespace adaptsim
