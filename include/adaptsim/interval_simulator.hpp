// The interval engine: the Pollux simulator's semantics (docs/pollux.md §4.4,
// `A:simulator/simulator.py:100-271`), separate from the Gavel/Shockwave round loop
// (simulator.cpp) because its time model differs: fixed intervals in which every allocated job
// steps continuously, epochs and completion inside an interval, a restart delay per
// (re)allocation, node-level placements with per-GPU batch size and accumulation steps.
// docs/pollux.md explains the choice.
//
// One interval (Cluster.step, simulator.py:206-271):
//   1. interference: nodes hosting > 1 distributed job slow every distributed job on them by
//      `interference_slowdown`;
//   2. every job steps `interval_s` (JobStep below), then the clock advances;
//   3. the policy sees the submitted, incomplete jobs and returns allocations; every job whose
//      node list changed is re-allocated (placement = counts of consecutive equal node ids; a
//      non-empty one costs `restart_delay_s` of no progress, re-chooses the batch and counts a
//      restart after the first).
// Job step (Job.step, :100-157): after the restart delay, loop: true (step, sync) time from the
// profile at (placement, m); true (sqr, var) at (M, epoch); gain = (var+sqr)/(var/scale+sqr);
// Observe(); rate = gain / (step + (step − sync)·s) · (1 − interference) progress/s; either the
// interval is used up, or the epoch ends after round((next − progress)/rate) s (half to even),
// completion when the epoch passes max_epochs − 1; the batch is re-chosen after each iteration.
// JCT = completion − submission. Not thread-safe; one simulation per thread.
#pragma once

#include <cstdint>
#include <memory>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/simulation.hpp"

namespace adaptsim {

/// Knobs; defaults are the artifact's command-line defaults (simulator.py:431-463).
struct IntervalSimulationOptions {
  int num_nodes = 16;                  ///< `--min-nodes`
  int gpus_per_node = 4;               ///< `--num-gpus`
  double interval_s = 60.0;            ///< `--interval`, scheduling period
  double restart_delay_s = 30.0;       ///< no-progress time after each (re)allocation
  double interference_slowdown = 0.0;  ///< `--interference`, in [0, 1)
  std::int64_t max_intervals = 0;      ///< stop with status "timeout" after this many; 0 = none
  double max_wall_time_s = 0.0;        ///< stop with status "timeout"; 0 = none
  /// Throws InputError(field=...) when a value is out of range.
  void Validate() const;
};

/// Runs `workload` to completion. Per-job results are in workload order (JobResult::id = index;
/// workload and IntervalJobExtras::application = application; initial_batch_size /
/// requested_gpus = the CSV's batch_size / num_replicas; final_batch_size = last total batch;
/// exclusive_time_s = the job alone on its CSV configuration, used for ρ); one RoundResult per
/// interval (worker id = node · gpus_per_node + slot).
/// Throws InputError for unknown applications or profile look-ups outside the data.
SimulationResult SimulateIntervals(const PolluxWorkload& workload, PolluxApplications& apps,
                                   IntervalPolicy& policy, const IntervalSimulationOptions& options,
                                   const RoundObserver& observer = {});

/// The interval engine behind the Simulation seam; owns its inputs (SimulateIntervals does the
/// work). The profiles are held by pointer so that a caller may keep a reference to them.
class IntervalSimulation final : public Simulation {
 public:
  IntervalSimulation(PolluxWorkload workload, std::unique_ptr<PolluxApplications> apps,
                     std::unique_ptr<IntervalPolicy> policy,
                     const IntervalSimulationOptions& options);
  SimulationResult Run(const RoundObserver& observer) override;

 private:
  PolluxWorkload workload_;
  std::unique_ptr<PolluxApplications> apps_;
  std::unique_ptr<IntervalPolicy> policy_;
  IntervalSimulationOptions options_;
};

/// Seconds job `spec` needs alone on its CSV configuration (num_replicas packed gpus_per_node per
/// node, fixed batch_size), including one restart delay. NaN when outside the profiled domain.
double PolluxExclusiveTime(const PolluxJobSpec& spec, const PolluxApplication& app,
                           int gpus_per_node, double restart_delay_s);

}  // namespace adaptsim
