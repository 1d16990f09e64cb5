// The engine's read-only view handed to policies each round. Its fields, with units, are declared
// once in adaptsim/view_fields.hpp (the Python classes and docs/python.md follow that list).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "adaptsim/cluster.hpp"
#include "adaptsim/job.hpp"
#include "adaptsim/profile.hpp"
#include "adaptsim/throughput.hpp"

namespace adaptsim {

/// A job placed in a round: its id and the worker (GPU) ids it ran on, scale_factor of them.
struct ScheduledJob {
  JobId id = 0;
  std::vector<int> worker_ids;
};

/// One active (arrived, not completed) job as a policy may see it (docs/mechanism.md §7.1).
struct ActiveJobView {
  JobId id = 0;
  const JobSpec* spec = nullptr;        ///< trace fields; owned by the engine, valid for the call
  const JobProfile* profile = nullptr;  ///< profile (§3.1); owned by the engine
  int scale_factor = 1;                 ///< s_i, GPUs
  int batch_size = 0;                   ///< current bs (after adaptation)
  /// T_i at the current bs on s_i GPUs of the cluster's reference type (Cluster::reference_type,
  /// the only type of a homogeneous cluster), steps/s
  double throughput_steps_per_s = 0.0;
  /// T_ik, steps/s, per GPU type k of ClusterState::cluster (index = type index; 0 where the job
  /// type does not run on k). Owned by the engine, valid for the call; empty when the caller built
  /// the view without a cluster (then it is {throughput_steps_per_s}).
  std::span<const double> throughput_by_type_steps_per_s;
  std::int64_t total_steps = 0;       ///< S at the current bs
  std::int64_t steps_run = 0;         ///< progress at the current bs
  std::int64_t remaining_steps = 0;   ///< N_i = S - steps_run
  double time_since_arrival_s = 0.0;  ///< τ_i = now - trace arrival
  double admitted_at_s = 0.0;         ///< round boundary at which the job joined
  double run_time_so_far_s = 0.0;     ///< Σ execution time (restart overhead excluded)
  int rounds_run = 0;                 ///< executed rounds (micro-tasks), failures included
  /// GPUs the job held in the previous round (its scale factor), 0 when it did not run then: a
  /// job that runs now without having run then pays the restart overhead (docs/mechanism.md §5.2).
  int previous_round_gpus = 0;
  /// Type index (ClusterState::cluster) of the GPUs the job held in the previous round, -1 when it
  /// did not run then.
  int previous_round_gpu_type = -1;
  /// The cluster whose type indices the by-type fields use (= ClusterState::cluster); owned by the
  /// engine, null when the caller built the view without one.
  const Cluster* cluster = nullptr;
};

/// Snapshot of the cluster at a scheduling point. Jobs are sorted by ascending id.
/// Lifetime: valid only during the policy call it is passed to.
struct ClusterState {
  double now_s = 0.0;   ///< simulated time of the round boundary
  int round_index = 0;  ///< index r of the round about to be scheduled
  int num_gpus = 0;     ///< G = Σ_k C_k, GPUs of every type
  /// The GPU types and their counts (worker ids by type); null when the caller built the state
  /// without one (then: num_gpus GPUs of the default type).
  const Cluster* cluster = nullptr;
  double round_duration_s = 120.0;  ///< T_r
  int num_trace_jobs = 0;           ///< jobs in the whole trace
  std::vector<ActiveJobView> jobs;
  /// The jobs placed in the round just finished (placement order; empty before the first).
  const std::vector<ScheduledJob>* previous_round = nullptr;
  const ThroughputSource* throughputs = nullptr;  ///< the run's oracle
};

}  // namespace adaptsim
