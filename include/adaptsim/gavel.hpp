// The Gavel family's public API (src/policies/gavel/): how the round engine runs a policy of the
// table. An AllocationPolicy is wrapped in the Gavel mechanism, which turns its time fractions into
// per-round job sets (docs/mechanism.md §7); a RoundScheduler runs as it is.
#pragma once

#include <cstdint>
#include <memory>

#include "adaptsim/policy.hpp"
#include "adaptsim/policy_instance.hpp"
#include "adaptsim/simulation_options.hpp"

namespace adaptsim {

/// The round engine's scheduler for a round-engine policy: an AllocationPolicy is wrapped in the
/// Gavel mechanism, which reads the round engine's round_duration_s (T_r; a job's time prior is
/// T_r / 2) and allocation_reset_interval_s (the reset gate of the re-solves, §7.4) from
/// `options`, the options the engine runs with; `seed` is the task's seed, from which the
/// per-round GPU-type shuffle draws (CPython's random.Random(seed + 5), as the reference's
/// `--seed`, `shockwave@8a44f4a:scheduler/scheduler.py:508-509`; docs/mechanism.md §12). A
/// RoundScheduler is returned as it is. An IntervalPolicy is a programming error (checked):
/// RunTask hands it to the interval engine.
std::unique_ptr<RoundScheduler> MakeRoundScheduler(PolicyInstance policy,
                                                   const SimulationOptions& options,
                                                   std::uint64_t seed = 0);

}  // namespace adaptsim
