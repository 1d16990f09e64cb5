// The round-based, trace-driven simulator (docs/mechanism.md §5-§8, `Scheduler.simulate`,
// `scheduler/scheduler.py:1728-2268`). Not thread-safe: one simulation per rank/thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "adaptsim/cluster_throughputs.hpp"
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
  int num_gpus = 32;  ///< G, one GPU per server; equals the cluster's GPU count (all types)
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

/// Runs `trace` to completion under `scheduler` on the cluster of `throughputs` (one source per
/// GPU type; docs/mechanism.md §12). Returns per-job and per-round records and the makespan
/// (summary metrics: ComputeMetrics). Throws InputError when options.num_gpus differs from the
/// cluster's GPU count, the scheduler cannot run on several GPU types, the trace does not fit
/// (a scale factor above the largest type's count), a job type has no throughput on a type of
/// the cluster (the message names the type and the job) or a zero one on the reference type.
SimulationResult Simulate(const Trace& trace, const ClusterThroughputs& throughputs,
                          RoundScheduler& scheduler, const SimulationOptions& options,
                          const RoundObserver& observer = {});
/// The same on options.num_gpus GPUs of one type whose throughputs are `throughputs`.
SimulationResult Simulate(const Trace& trace, const ThroughputSource& throughputs,
                          RoundScheduler& scheduler, const SimulationOptions& options,
                          const RoundObserver& observer = {});

/// The round engine behind the Simulation seam; owns its inputs (Simulate does the work). The
/// throughput source is read-only and may be shared with other simulations (a sweep worker's
/// InputCache).
class RoundSimulation final : public Simulation {
 public:
  /// options.num_gpus GPUs of one type.
  RoundSimulation(Trace trace, std::shared_ptr<const ThroughputSource> throughputs,
                  std::unique_ptr<RoundScheduler> scheduler, const SimulationOptions& options);
  /// A cluster of GPU types (options.num_gpus must equal its GPU count).
  RoundSimulation(Trace trace, ClusterThroughputs throughputs,
                  std::unique_ptr<RoundScheduler> scheduler, const SimulationOptions& options);
  SimulationResult Run(const RoundObserver& observer) override;

 private:
  Trace trace_;
  ClusterThroughputs throughputs_;
  std::unique_ptr<RoundScheduler> scheduler_;
  SimulationOptions options_;
};

}  // namespace adaptsim
