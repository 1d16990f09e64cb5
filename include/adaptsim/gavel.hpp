// The Gavel family's public API (src/policies/gavel/): how the round engine runs a policy of the
// table. An AllocationPolicy is wrapped in the Gavel mechanism, which turns its time fractions into
// per-round job sets (docs/mechanism.md §7); a RoundScheduler runs as it is.
#pragma once

#include <cstdint>
#include <memory>

#include "adaptsim/policy.hpp"
#include "adaptsim/policy_instance.hpp"

namespace adaptsim {

/// Knobs of the Gavel mechanism that runs an AllocationPolicy in the round engine
/// (src/policies/gavel/gavel_mechanism.hpp); defaults are the round engine's (SimulationOptions).
struct GavelMechanismOptions {
  double round_duration_s = 120.0;              ///< T_r; a job's time prior is T_r / 2
  double allocation_reset_interval_s = 1000.0;  ///< reset gate of the re-solves (§7.4)
  /// The task's seed: the per-round GPU-type shuffle draws from CPython's
  /// random.Random(seed + 5), as the reference's `--seed` (`scheduler.py:508-509`).
  std::uint64_t seed = 0;
};

/// The round engine's scheduler for a round-engine policy: an AllocationPolicy is wrapped in the
/// Gavel mechanism, a RoundScheduler is returned as it is. An IntervalPolicy is a programming
/// error (checked): RunTask hands it to the interval engine.
std::unique_ptr<RoundScheduler> MakeRoundScheduler(PolicyInstance policy,
                                                   const GavelMechanismOptions& options);

}  // namespace adaptsim
