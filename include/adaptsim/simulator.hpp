// The round-based, trace-driven simulator (docs/mechanism.md §5-§8, `Scheduler.simulate`,
// `scheduler/scheduler.py:1728-2268`). Not thread-safe: one simulation per rank/thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "adaptsim/policy.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/simulation.hpp"
#include "adaptsim/simulation_options.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"

namespace adaptsim {

/// Runs `trace` to completion (or its budget) under `scheduler`. Returns per-job and per-round
/// records and the makespan (summary metrics: ComputeMetrics). Throws InputError when the trace
/// does not fit the cluster (scale factor > G) or a job's throughput is unknown or zero.
SimulationResult Simulate(const Trace& trace, const ThroughputSource& throughputs,
                          RoundScheduler& scheduler, const SimulationOptions& options,
                          const RoundObserver& observer = {}, const RunBudget& budget = {});

/// The round engine behind the Simulation seam; owns its inputs (Simulate does the work). The
/// throughput source is read-only and may be shared with other simulations (a sweep worker's
/// InputCache).
class RoundSimulation final : public Simulation {
 public:
  RoundSimulation(Trace trace, std::shared_ptr<const ThroughputSource> throughputs,
                  std::unique_ptr<RoundScheduler> scheduler, const SimulationOptions& options,
                  const RunBudget& budget = {});
  SimulationResult Run(const RoundObserver& observer) override;

 private:
  Trace trace_;
  std::shared_ptr<const ThroughputSource> throughputs_;
  std::unique_ptr<RoundScheduler> scheduler_;
  SimulationOptions options_;
  RunBudget budget_;
};

}  // namespace adaptsim
