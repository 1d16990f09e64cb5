// The Shockwave reference simulations (shared data golden/shockwave_tacc32: the runs behind the
// Shockwave artifact's canonical result, `scheduler/reproduce/tacc_32gpus.sh` at shockwave@8a44f4a;
// docs/fidelity.md) as summary metrics, for the canonical figure's markers and the reproduction
// report.
#pragma once

#include <string>
#include <vector>

#include "adaptsim/result.hpp"

namespace adaptsim {

/// The configuration the reference runs simulated: the 120-job trace on 32 GPUs, 120 s rounds,
/// over-deadline factor 1.5 (the folder's README.md).
struct ReferenceScenario {
  std::string trace_stem = "120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic";
  int num_gpus = 32;
  double round_duration_s = 120;
  double deadline_factor = 1.5;

  /// True for a task of this configuration (its trace file's stem is `trace_stem`).
  bool Matches(const std::string& trace, int gpus, double round_s, double deadline) const;
};

/// One reference run: its policy and the summary metrics adaptsim reports for a task.
struct ReferenceRun {
  std::string policy;  ///< registry name ("max_min_fairness")
  /// makespan_s (`makespan`), mean_jct_s (`avg_jct`), num_jobs, and the ρ metrics
  /// (worst_ftf_rho, mean_ftf_rho, unfair fractions) of its static ρ list
  /// (`finish_time_fairness_list`) by FillFairnessMetrics, the definition adaptsim's own tasks
  /// use (include/adaptsim/metrics.hpp); the other fields 0.
  SummaryMetrics metrics;
};

struct ReferenceRuns {
  ReferenceScenario scenario;
  std::vector<ReferenceRun> runs;  ///< sorted by policy
};

/// Reads every `tacc_32gpus__<policy>__simulation.json` of `folder`, except the two Shockwave
/// variants whose configuration is unknown (old_shockwave, new_orig_hyperparam_shockwave).
/// Throws InputError naming the folder when it is not one or holds no run, and naming the file
/// and key for a missing or mistyped `makespan`, `avg_jct` or `finish_time_fairness_list`.
ReferenceRuns ReadReferenceRuns(const std::string& folder);

}  // namespace adaptsim
