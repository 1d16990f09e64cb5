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

/// x_i ∈ [0, 1] per job id: fraction of wall-clock time job i should run. Jobs absent from the
/// allocation have none (priority 0 on every type; docs/mechanism.md §7.7 quirk Q1).
///  * time_fraction: one GPU type (a homogeneous cluster);
///  * time_fraction_by_type: x_ik per GPU type k of ClusterState::cluster (vector index = type
///    index, one entry per type), the reference's `{job: {worker_type: x}}`. When non-empty it is
///    used and time_fraction is ignored. A policy must fill it on a cluster of several types.
struct Allocation {
  std::map<JobId, double> time_fraction;
  std::map<JobId, std::vector<double>> time_fraction_by_type;
};

/// How the Gavel mechanism treats the policy's allocation (docs/mechanism.md §7.7), declared by the
/// policy so that the engine never branches on policy names.
struct AllocationPolicyTraits {
  /// FIFO: jobs with priority ≤ 0 are never selected (`scheduler.py:1228-1236`).
  bool skip_nonpositive_priority = false;
  /// isolated_plus: stop at the first job that does not fit instead of back-filling (`:1253-1259`);
  /// on several GPU types this ends the selection on every remaining type of the round.
  bool stop_at_first_misfit = false;
  /// The policy fills Allocation::time_fraction_by_type and may run on a cluster of several GPU
  /// types (docs/mechanism.md §12); the others are refused there with an InputError.
  bool several_gpu_types = false;
  /// Shuffle the per-round GPU-type order with CPython's random.Random(seed + 5), as the reference
  /// does for every policy whose name contains neither "Perf" nor "Packing" (`:1288-1301`);
  /// false: the fixed order v100, p100, k80 (reverse name order). No effect on one type.
  bool shuffle_gpu_type_order = false;
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
  /// With empty worker_ids: the GPU type (index into ClusterState::cluster) to place the job on;
  /// -1 = the only type of a homogeneous cluster. Ignored when worker_ids are given (their type).
  int gpu_type = -1;
};

/// The jobs to run in one round. Their total scale factor must not exceed the cluster (per type).
struct RoundPlan {
  std::vector<PlannedJob> jobs;
  /// The order in which the engine places the types' jobs (docs/mechanism.md §12.4): type
  /// indices, each at most once; empty = worker-id order. It decides the order of the placed
  /// jobs in the round's record, never which workers a job gets.
  std::vector<int> gpu_type_order;
};

/// What the engine reports when a micro-task (one job's round) ends: the values it computed, so
/// that a policy never re-derives them.
struct MicroTaskOutcome {
  JobId id = 0;
  std::int64_t steps = 0;         ///< iterations run (restart-scaled); not counted on failure
  double execution_time_s = 0.0;  ///< execution time, restart overhead excluded
  bool restarted = false;         ///< charged the restart overhead
  bool succeeded = true;          ///< false on the zero-step failure path
  int gpu_type = 0;               ///< type index of the GPUs it ran on (ClusterState::cluster)
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
  /// Whether the scheduler can run on a cluster of several GPU types (it then plans each job's
  /// type, PlannedJob::gpu_type, or its workers). The engine refuses the others there.
  virtual bool SupportsSeveralGpuTypes() const { return false; }
};

}  // namespace adaptsim
