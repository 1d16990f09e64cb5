// The Sia policy on the interval engine (docs/sia.md §5): the engine-independent round
// (sia_policy.hpp) fed by per-job, per-GPU-type Pollux throughput models, and Sia's job-side batch
// choice (`S:sia-simulator/job.py:317-386, 388-410`).
//
// Job side, per job: every measured configuration (N, K, m) is kept once per GPU type (first
// observation wins) and that type's 7-parameter throughput model is refitted on them with the
// Ceres fitter (include/adaptsim/throughput_fit.hpp), each distinct sample list once
// (throughput_fit_memo.hpp); one set of gradient statistics (the latest).
// Batch choice on the type the job holds: before a model on that type M = max(M0, min_m·K) by
// the fixed rule (ncf: its fixed total batch 32768, as Pollux); afterwards the goodput optimum
// with accumulation, m in [min_m, MaxLocalBszAt(placement)] of the type's profile.
//
// Cluster side, each interval: the node groups become SiaNodeGroups (max physical nodes from the
// Sia artifact's table), each active job a SiaJob (goodput on a type = the optimum over batch
// sizes of that type's model, absent without one, its values per (N, K) kept across rounds while
// the model, gradient statistics and bounds are unchanged; thr1; most replicas observed per type;
// the batch replica limit max_batch // min_m; age, restarts, the engine's per-model delay, still
// restoring); the round's node ids within a type become the engine's node ids. No randomness.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/pollux_goodput.hpp"
#include "adaptsim/throughput_fit.hpp"
#include "adaptsim/throughput_fit_memo.hpp"
#include "sia_policy.hpp"

namespace adaptsim {

class SiaIntervalPolicy : public IntervalPolicy {
 public:
  /// Throws InputError("policy", "sia.<option>") for an option out of range.
  explicit SiaIntervalPolicy(const SiaOptions& options);
  void Observe(const IntervalJobView& job, const StepObservation& observation) override;
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) override;
  IntervalDecision Optimize(const IntervalClusterView& cluster) override;
  bool SupportsGpuTypes() const override { return true; }
  std::map<std::string, double> Statistics() const override;
  /// Shares the fit memo of a donor of the same class.
  void ShareCachesWith(IntervalPolicy& donor) override;

 private:
  struct TypeModel {
    std::vector<models::ThroughputSample> samples;  ///< first observation of each (N, K, m)
    std::optional<models::PolluxPerfParams> perf;
    int max_profiled_replicas = 0;
    /// The goodput estimate's values by (N, K), valid for the inputs in goodput_key (the model's
    /// parameters, the gradient statistics, M0 and the batch bounds, bit for bit).
    std::vector<std::uint64_t> goodput_key;
    std::shared_ptr<std::map<std::pair<int, int>, double>> goodput_values;
  };
  struct Agent {
    std::map<int, TypeModel> by_group;  ///< by node group
    std::optional<models::PolluxGradParams> grad;
  };
  double MinimumSizeThroughput(const PolluxApplication& app);

  SiaPolicy round_;
  std::map<int, Agent> agents_;  ///< by job index
  std::map<const PolluxApplication*, double> thr1_;
  /// Jobs of one application often fit the same samples; shared with isolated runs' instances.
  std::shared_ptr<models::ThroughputFitMemo> fit_memo_ =
      std::make_shared<models::ThroughputFitMemo>();
  std::int64_t fits_ = 0;  ///< model updates (new samples), fitted or memoised
};

}  // namespace adaptsim
