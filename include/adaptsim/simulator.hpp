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
#include "adaptsim/simulation_options.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"

namespace adaptsim {

/// Runs `trace` to completion (or its budget) under `scheduler` on the cluster of `throughputs`
/// (one source per GPU type; docs/mechanism.md §12). Returns per-job and per-round records and
/// the makespan (summary metrics: ComputeMetrics). Throws InputError when options.num_gpus
/// differs from the cluster's GPU count, the scheduler cannot run on several GPU types, the trace
/// does not fit (a scale factor above the largest type's count), a job type has no throughput on
/// a type of the cluster (the message names the type and the job) or a zero one on the reference
/// type.
SimulationResult Simulate(const Trace& trace, const ClusterThroughputs& throughputs,
                          RoundScheduler& scheduler, const SimulationOptions& options,
                          const RoundObserver& observer = {}, const RunBudget& budget = {});
/// The same on options.num_gpus GPUs of one type whose throughputs are `throughputs`.
SimulationResult Simulate(const Trace& trace, const ThroughputSource& throughputs,
                          RoundScheduler& scheduler, const SimulationOptions& options,
                          const RoundObserver& observer = {}, const RunBudget& budget = {});

/// The round engine behind the Simulation seam; owns its inputs (Simulate does the work). The
/// throughput source is read-only and may be shared with other simulations (a sweep worker's
/// InputCache).
class RoundSimulation final : public Simulation {
 public:
  /// options.num_gpus GPUs of one type.
  RoundSimulation(Trace trace, std::shared_ptr<const ThroughputSource> throughputs,
                  std::unique_ptr<RoundScheduler> scheduler, const SimulationOptions& options,
                  const RunBudget& budget = {});
  /// A cluster of GPU types (options.num_gpus must equal its GPU count).
  RoundSimulation(Trace trace, ClusterThroughputs throughputs,
                  std::unique_ptr<RoundScheduler> scheduler, const SimulationOptions& options,
                  const RunBudget& budget = {});
  SimulationResult Run(const RoundObserver& observer) override;

 private:
  Trace trace_;
  ClusterThroughputs throughputs_;
  std::unique_ptr<RoundScheduler> scheduler_;
  SimulationOptions options_;
  RunBudget budget_;
};

}  // namespace adaptsim
