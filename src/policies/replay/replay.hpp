// Replay: plays back a recorded per-round schedule, job for job and GPU for GPU. Used to check the
// mechanism against reference runs (docs/mechanism.md §0: replaying `per_round_schedule` reproduces
// every JCT and throughput entry) and to re-run a schedule under changed mechanism knobs.
#pragma once

#include <string>
#include <vector>

#include "adaptsim/policy.hpp"
#include "adaptsim/policy_options.hpp"

namespace adaptsim {

/// Options of `replay`.
struct ReplayOptions {
  std::string schedule;  ///< path of the recorded results JSON

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("schedule", "path of a results JSON with per_round_schedule", Required{}),
          self.schedule);
  }
};

class ReplayPolicy final : public RoundScheduler {
 public:
  /// `rounds[r]` = jobs (with workers) of round r, in placement order.
  explicit ReplayPolicy(std::vector<std::vector<ScheduledJob>> rounds)
      : rounds_(std::move(rounds)) {}

  /// Reads the `per_round_schedule` list of a results JSON (`{"<job id>": [worker ids]}` per
  /// round, key order kept). Throws InputError on a missing file or malformed content.
  static ReplayPolicy FromJsonFile(const std::string& path);

  /// Round r's recorded jobs that are still active; rounds past the recording are empty.
  RoundPlan PlanRound(const ClusterState& state) override;
  /// Recorded worker ids name their GPU type (docs/mechanism.md §12.4).
  bool SupportsSeveralGpuTypes() const override { return true; }

 private:
  std::vector<std::vector<ScheduledJob>> rounds_;
};

}  // namespace adaptsim
