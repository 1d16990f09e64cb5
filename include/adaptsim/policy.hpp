// Policy interfaces. Two shapes of decision fit the same engine:
//  * AllocationPolicy (Gavel-style baselines, docs/policies.md §3): returns x_i, the fraction of
//  time
//    each job should run; the engine's Gavel mechanism (priorities, deficits, reset gate,
//    docs/mechanism.md §7) turns it into per-round job sets.
//  * RoundScheduler: returns each round's jobs directly (Shockwave, replay), optionally with the
//    workers to use (replay, Pollux-style placements).
// The engine drives a RoundScheduler only; allocation policies are wrapped in GavelMechanism.
// Policies see the engine through const ClusterState& and never call back into it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "adaptsim/cluster_state.hpp"

namespace adaptsim {

/// x_i ∈ [0, 1] per job id: fraction of wall-clock time job i should run (one worker type).
/// Jobs absent from the map have no allocation (priority 0).
struct Allocation {
  std::map<JobId, double> time_fraction;
};

/// How the Gavel mechanism treats the policy's allocation (docs/mechanism.md §7.7), declared by the
/// policy so that the engine never branches on policy names.
struct AllocationPolicyTraits {
  /// FIFO: jobs with priority ≤ 0 are never selected (`scheduler.py:1228-1236`).
  bool skip_nonpositive_priority = false;
  /// isolated_plus: stop at the first job that does not fit instead of back-filling (`:1253-1259`).
  bool stop_at_first_misfit = false;
};

/// A Gavel-style policy. Called only when the mechanism re-solves (after an arrival, completion or
/// failure, at most once per reset interval). Not thread-safe; one instance per simulation.
class AllocationPolicy {
 public:
  virtual ~AllocationPolicy() = default;
  virtual AllocationPolicyTraits Traits() const { return {}; }
  /// Throws InputError for impossible inputs (e.g. a zero throughput the policy cannot handle).
  virtual Allocation ComputeAllocation(const ClusterState& state) = 0;
};

/// A job the scheduler wants to run this round. Empty `worker_ids` lets the engine place it
/// (docs/mechanism.md §6); otherwise exactly scale_factor distinct free worker ids.
struct PlannedJob {
  JobId id = 0;
  std::vector<int> worker_ids;
};

/// The jobs to run in one round. Their total scale factor must not exceed the cluster.
struct RoundPlan {
  std::vector<PlannedJob> jobs;
};

/// What the engine reports when a micro-task (one job's round) ends: the values it computed, so
/// that a policy never re-derives them.
struct MicroTaskOutcome {
  JobId id = 0;
  std::int64_t steps = 0;         ///< iterations run (restart-scaled); not counted on failure
  double execution_time_s = 0.0;  ///< execution time, restart overhead excluded
  bool restarted = false;         ///< charged the restart overhead
  bool succeeded = true;          ///< false on the zero-step failure path
};

/// What the engine drives each round. Event hooks are called in the engine's order: completions of
/// the last round (OnMicroTaskDone, then OnJobRemoved), arrivals (OnJobArrived), then PlanRound.
class RoundScheduler {
 public:
  virtual ~RoundScheduler() = default;
  /// A job joined at the current round boundary.
  virtual void OnJobArrived(const ActiveJobView& job) { (void)job; }
  /// A job left (completed, forced by the deadline, or failed out).
  virtual void OnJobRemoved(JobId id) { (void)id; }
  /// A micro-task (one job's round) ended.
  virtual void OnMicroTaskDone(const MicroTaskOutcome& outcome) { (void)outcome; }
  /// Decides the round about to start.
  virtual RoundPlan PlanRound(const ClusterState& state) = 0;
  /// Solver/policy statistics for the results file (name -> value); empty by default.
  virtual std::map<std::string, double> Statistics() const { return {}; }
  /// A note for the task's status message when the run completed but the policy had to degrade
  /// (e.g. solver limits hit, fallbacks used); empty when there is nothing to report. The engine
  /// appends it to SimulationResult::message, which the results file stores with the status.
  virtual std::string Diagnostics() const { return {}; }
};

}  // namespace adaptsim
