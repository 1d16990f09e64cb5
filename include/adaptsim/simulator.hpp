// The round-based, trace-driven simulator (docs/mechanism.md §5-§8, `Scheduler.simulate`,
// `scheduler/scheduler.py:1728-2268`). Not thread-safe: one simulation per rank/thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "adaptsim/policy.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/simulation.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"

namespace adaptsim {

/// Where the next round starts after the cluster went idle and the clock jumped to the next
/// arrival (docs/mechanism.md §5.2 step 2, quirk Q4).
enum class IdleRoundStart {
  kReference,  ///< the reference: the round start is not advanced, so the first round after an
               ///< idle gap "executes" for the whole gap (restart overhead, deadline)
  kArrival,    ///< the round starts at the arrival the clock jumped to
};

/// "reference" / "arrival".
const char* IdleRoundStartName(IdleRoundStart value);
/// Inverse of IdleRoundStartName; throws InputError(field="idle_round_start") otherwise.
IdleRoundStart ParseIdleRoundStart(const std::string& name);

/// Knobs of the mechanism; defaults reproduce the shipped reference (`tacc_32gpus`).
struct SimulationOptions {
  int num_gpus = 32;                 ///< G, one worker type, one GPU per server
  double round_duration_s = 120.0;   ///< T_r (`--time_per_iteration`)
  double restart_overhead_s = 20.0;  ///< lost progress of a (re)started full round (§5.2)
  double restart_slack_s = 5.0;      ///< overhead only if exec > T_r - slack (Q5)
  double deadline_factor = 1.5;      ///< force-complete when run time > int(f·int(T_excl)) (§8.3)
  double allocation_reset_interval_s = 1000.0;  ///< Gavel reset gate (§7.4)
  int max_failed_attempts = 5;                  ///< zero-step micro-tasks before removal (§8.2)
  /// Round start after an idle gap (Q4); kArrival for logs whose cluster is often idle
  /// (docs/production.md "Mechanism options for logs").
  IdleRoundStart idle_round_start = IdleRoundStart::kReference;
  std::int64_t max_rounds = 0;   ///< stop with status "timeout" after this many; 0 = none
  double max_wall_time_s = 0.0;  ///< stop with status "timeout" after this wall time; 0 = none

  /// Throws InputError(field=...) when a value is out of range.
  void Validate() const;
};

/// Runs `trace` to completion under `scheduler`. Returns per-job and per-round records and the
/// makespan (summary metrics: ComputeMetrics). Throws InputError when the trace does not fit the
/// cluster (scale factor > G) or a job's throughput is unknown or zero.
SimulationResult Simulate(const Trace& trace, const ThroughputSource& throughputs,
                          RoundScheduler& scheduler, const SimulationOptions& options,
                          const RoundObserver& observer = {});

/// The round engine behind the Simulation seam; owns its inputs (Simulate does the work). The
/// throughput source is read-only and may be shared with other simulations (a sweep worker's
/// InputCache).
class RoundSimulation final : public Simulation {
 public:
  RoundSimulation(Trace trace, std::shared_ptr<const ThroughputSource> throughputs,
                  std::unique_ptr<RoundScheduler> scheduler, const SimulationOptions& options);
  SimulationResult Run(const RoundObserver& observer) override;

 private:
  Trace trace_;
  std::shared_ptr<const ThroughputSource> throughputs_;
  std::unique_ptr<RoundScheduler> scheduler_;
  SimulationOptions options_;
};

}  // namespace adaptsim
