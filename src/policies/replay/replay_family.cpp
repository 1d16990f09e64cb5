// The replay family's policy (replay_family.hpp).
#include "replay_family.hpp"

#include "replay.hpp"

namespace adaptsim {

std::vector<PolicyEntry> ReplayFamilyPolicies() {
  return {
      Declared<ReplayOptions>(
          "replay", "plays back a recorded per_round_schedule (option schedule=PATH)",
          EngineKind::kRound,
          [](const ReplayOptions& options) {
            return PolicyInstance(std::unique_ptr<RoundScheduler>(
                std::make_unique<ReplayPolicy>(ReplayPolicy::FromJsonFile(options.schedule))));
          }),
  };
}

}  // namespace adaptsim
