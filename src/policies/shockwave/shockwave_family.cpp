// The Shockwave family's policies (shockwave_family.hpp).
#include "shockwave_family.hpp"

#include "shockwave.hpp"
#include "shockwave_tuned_jobs.hpp"

namespace adaptsim {

std::vector<PolicyEntry> ShockwaveFamilyPolicies() {
  return {
      Declared<ShockwaveOptions>(
          "shockwave",
          "Shockwave: NSW over a planning window (options: config=JSON, reference keys)",
          EngineKind::kRound, Construct<RoundScheduler, ShockwavePolicy>()),
      Declared<ShockwaveTunedJobsOptions>(
          "shockwave_tj",
          "Shockwave+TunedJobs as Sia runs it: Shockwave's window plan on one virtual GPU type, "
          "jobs at the workload's num_replicas and batch_size, 360 s rounds, repaired onto one "
          "real type (docs/sia.md §11)",
          EngineKind::kInterval,
          [](const ShockwaveTunedJobsOptions& options) {
            return PolicyInstance(std::unique_ptr<IntervalPolicy>(
                std::make_unique<ShockwaveTunedJobsPolicy>(options)));
          }),
  };
}

}  // namespace adaptsim
