// Gavel+TunedJobs as the Sia artifact runs it (docs/sia.md, "Baselines: Gavel+TunedJobs";
// `S:sia-simulator/gavel.py`, driven by `multi_simulator.py --policy=gavel --interval=360`): the
// heterogeneity-aware max-sum-throughput LP of Gavel (OSDI'20) over GPU types, time-shared in
// whole rounds on the interval engine's node groups, each job rigid at its workload CSV's
// num_replicas K and batch_size B ("TunedJobs").
//
// Each round (gavel.py:443-513), with the round length R (option round_s, 360 s): Gavel's
// time-sharing of gavel_rounds.hpp, with the time fractions
//   x = the max_sum_throughput_perf LP: maximise Σ X[j,t]·x[j,t] over x ≥ 0,
//   Σ_j K_j x[j,t] ≤ G_t, Σ_t x[j,t] ≤ 1 (`policies/max_sum_throughput.py:9-19, 39-90`, rows
//   by job name, columns by type name), solved by the round engine's MST solver
//   (typed_lp.hpp, CLP barrier without crossover: a centred point of a tie, as the reference's
//   ECOS), rounded to 5 decimals (numpy's round) and clipped to [0, 1].
// X[j,t] (iterations/s, constant per job; gavel.py:515-546) and the job side (ChooseBatch: the
// fixed batch B on the placement held) are the TunedJobs round view (adaptsim/job_mapping.hpp).
// No randomness; the result depends only on the inputs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/job_mapping.hpp"
#include "adaptsim/policy_options.hpp"
#include "tuned_jobs_round_policy.hpp"

namespace adaptsim {

/// Options of `gavel_tj`.
struct GavelTunedJobsOptions {
  /// Length of Gavel's rounds, s: the Sia artifact runs Gavel with `--interval=360`
  /// (`S:sia-simulator/run_experiment.sh:5`) and its Sia and Pollux at 60 s. The engine runs this
  /// policy in these rounds whatever the task's interval_s (IntervalPolicy::RoundDurationS).
  double round_s = 360.0;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("round_s",
                 "s, length of Gavel's time-sharing rounds; replaces the task's interval_s",
                 Above(0)),
          self.round_s);
  }
};

class GavelTunedJobsPolicy final : public TunedJobsRoundPolicy {
 public:
  /// Throws InputError("policy", "gavel_tj.<option>") for an option out of range.
  explicit GavelTunedJobsPolicy(const GavelTunedJobsOptions& options);
  /// gavel_tj_rounds: rounds decided; gavel_tj_lp_solves: LPs solved.
  std::map<std::string, double> Statistics() const override;

 private:
  /// The max_sum_throughput_perf LP's x, rounded to 5 decimals and clipped to [0, 1].
  std::vector<double> Fractions(const std::vector<TunedJobRoundView>& views,
                                const std::vector<int>& capacities) override;

  GavelTunedJobsOptions options_;
  std::int64_t lp_solves_ = 0;
  std::int64_t rounds_ = 0;
};

}  // namespace adaptsim
