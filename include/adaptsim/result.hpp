// Records of one simulation: per job, per round, and the summary metrics (docs/mechanism.md §10).
// All times are seconds of simulated time with the first arrival at t = 0.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "adaptsim/job.hpp"
#include "adaptsim/task_status.hpp"

namespace adaptsim {

/// How a job left the cluster.
enum class JobOutcome { kCompleted, kDeadline, kFailed, kUnfinished };
std::string_view ToString(JobOutcome outcome);

/// What only the round engine records about a job (simulator.hpp).
struct RoundJobExtras {
  static constexpr std::string_view kEngine = "round";  ///< stored name of the engine
  AdaptationMode mode = AdaptationMode::kStatic;  ///< batch-size adaptation (docs/mechanism.md §3)
  int rounds_run = 0;                             ///< executed micro-tasks (failures included)
};

/// What only the interval engine records about a job (interval_simulator.hpp).
struct IntervalJobExtras {
  static constexpr std::string_view kEngine = "interval";  ///< stored name of the engine
  /// The Pollux application whose profile the job runs: a workload CSV's `application` (cifar10,
  /// ncf, ...), or "job-<id>", the synthetic application of a trace job (docs/pollux.md).
  std::string application;
};

/// The engine-specific part of a job's record: exactly one alternative per engine.
using JobExtras = std::variant<RoundJobExtras, IntervalJobExtras>;

/// One job's record. The fields mean the same under both engines; `extras` holds what only the
/// engine that ran the job records.
struct JobResult {
  JobId id = 0;
  /// What the job trains: the trace's model name (round engine, and the interval engine on a
  /// trace), or the application of a Pollux workload CSV job.
  std::string workload;
  /// GPUs the job asks for: the trace's scale factor (a gang) or the workload CSV's
  /// num_replicas (the rigid baselines' GPU count; Pollux and Optimus choose their own).
  int requested_gpus = 1;
  int initial_batch_size = 0;  ///< samples per iteration at submission
  int final_batch_size = 0;    ///< samples per iteration when the job left (or the run stopped)
  double arrival_time_s = 0.0;
  double completion_time_s = 0.0;  ///< finish of the last micro-task
  double jct_s = 0.0;              ///< completion − trace arrival
  double exclusive_time_s = 0.0;   ///< T_excl of the profile
  double ftf_rho = 0.0;            ///< static finish-time fairness ρ (§10), from ComputeMetrics
  double ftf_rho_themis = 0.0;     ///< Themis-style ρ (contention = mean active jobs / G), from
                                   ///< ComputeMetrics; 0 when the engine records no round stays
  /// Restarts: rounds charged the restart overhead (round engine), or re-allocations after the
  /// first one (interval engine).
  int restarts = 0;
  JobOutcome outcome = JobOutcome::kUnfinished;
  JobExtras extras;  ///< the alternative of the engine that ran the job
  /// Sia's type-weighted ρ: ρ_g of every GPU type g the job can run on, weighted by C_g (SOSP'23
  /// Eq. 3; docs/mechanism.md §12.9), from ComputeMetrics; equals ftf_rho on a cluster of the
  /// reference type alone. (Last member, so that aggregate initialisers stay valid.)
  double ftf_rho_type_weighted = 0.0;
};

/// One scheduling iteration r: dispatched at start_s; its micro-tasks ended by end_s.
struct RoundResult {
  int round_index = 0;
  double start_s = 0.0;
  double end_s = 0.0;
  int busy_gpus = 0;                         ///< Σ scale factor of the jobs placed
  int active_jobs = 0;                       ///< jobs in the cluster when the round was scheduled
  std::vector<JobId> running_job_ids;        ///< placement order
  std::vector<std::vector<int>> worker_ids;  ///< parallel to running_job_ids
};

/// One executed micro-task's throughput (the reference's `throughput_timeline[job][r]`).
/// `completion_round` r is the iteration at whose start the micro-task was processed (1…R).
struct ThroughputSample {
  JobId job_id = 0;
  int completion_round = 0;
  double steps_per_s = 0.0;
  int batch_size = 0;
};

/// What a run did on one GPU type of its cluster (docs/mechanism.md §12.9). The engine records the
/// type and its GPU count; ComputeMetrics derives the rest.
struct GpuTypeResult {
  std::string gpu_type;         ///< type name (Cluster::name), rows in worker-id order
  int gpus = 0;                 ///< C_g
  double utilization = 0.0;     ///< mean over the type's GPUs of round(busy / makespan, 5)
  double busy_gpu_hours = 0.0;  ///< Σ over the type's GPUs of busy time / 3600 s
  /// Mean over the departed jobs that can run on the type of ρ_g = JCT / (T_excl,g · max(1, N/G))
  double mean_ftf_rho = 0.0;
};

/// Summary metrics (docs/mechanism.md §10), derived by ComputeMetrics. Fractions are in [0, 1].
struct SummaryMetrics {
  double makespan_s = 0.0;
  double mean_jct_s = 0.0;
  double geometric_mean_jct_s = 0.0;
  double harmonic_mean_jct_s = 0.0;
  double p99_jct_s = 0.0;  ///< linear interpolation between order statistics (numpy default)
  double mean_ftf_rho = 0.0;
  double worst_ftf_rho = 0.0;
  double unfair_fraction_1_05 = 0.0;  ///< share of jobs with ρ > 1.05
  double unfair_fraction_1_10 = 0.0;  ///< share of jobs with ρ > 1.10
  double utilization = 0.0;           ///< mean over GPUs of busy time / makespan
  double lease_extension_percent = 0.0;
  double restarts_per_job = 0.0;
  int num_rounds = 0;
  int num_jobs = 0;
  int num_deadline_completions = 0;
  int num_failed_jobs = 0;
  double mean_ftf_rho_type_weighted = 0.0;   ///< mean of JobResult::ftf_rho_type_weighted
  double worst_ftf_rho_type_weighted = 0.0;  ///< max of JobResult::ftf_rho_type_weighted
  /// Share of the departed jobs with ftf_rho_type_weighted > 1 among those with a ρ > 0: Sia's
  /// unfair fraction (SOSP'23 Fig. 8; `S:sia-simulator/utils/print_run_stats.py:254`).
  double unfair_fraction_type_weighted = 0.0;
  /// Contention: the mean and the largest, over the rounds, of RoundResult::active_jobs (jobs
  /// submitted and not finished, running or queued; every round, including those with no active
  /// job). Sia's Table 3 "mean (max) contention" (SOSP'23 §5.2; siasosp23/artifacts@aaf7a0d:
  /// sia-simulator/utils/print_run_stats.py:158-171, per workload). 0 without rounds.
  double mean_contention = 0.0;
  int max_contention = 0;
  /// GPU-hours in use per job: Σ over GPUs of their busy time / 3600 / jobs of the trace (Sia's
  /// Table 3 "GPU h / job", `sia-simulator/utils/print_run_stats.py:195-223`: the allocated
  /// GPUs' time, restart delays included).
  double gpu_hours_per_job = 0.0;
};

/// The rounds a job spent in the cluster under the round engine: the indices [admitted_round,
/// departed_round) of `SimulationResult::rounds` scheduled while it was active. The Themis-style ρ
/// averages the active jobs over them (docs/mechanism.md §10).
struct JobStay {
  int admitted_round = 0;
  int departed_round = 0;  ///< rounds scheduled before the job left (or before the run stopped)
};

/// Sia's isolated times for the type-weighted ρ (docs/sia.md §12): per job, T_g, the time the job
/// takes alone on GPU type g with its fair share of the cluster (IsolatedTimes,
/// adaptsim/isolated_times.hpp).
struct IsolatedTimeTable {
  std::vector<int> type_gpus;               ///< N_g per GPU type (node group), cluster order
  std::vector<std::vector<double>> time_s;  ///< [job][type] T_g, s; 0 = the job cannot run there
  /// The artifact's combination, JCT / (Σ N_g T_g / Σ N_g) (`S:sia-simulator/ftf_simulator.py:
  /// 559-570`); false: the paper's Eq. 3, Σ_g (N_g / N) JCT / T_g.
  bool combine_times = false;
};

/// One simulation's output: the facts an engine records. `jobs[*].ftf_rho`, `ftf_rho_themis` and
/// `summary` are derived from them by ComputeMetrics (adaptsim/metrics.hpp), once per task.
struct SimulationResult {
  TaskStatus status = TaskStatus::kOk;
  std::string message;
  std::vector<JobResult> jobs;  ///< trace order
  std::vector<RoundResult> rounds;
  std::vector<ThroughputSample> throughput_timeline;
  std::vector<double> gpu_busy_time_s;  ///< per worker id
  std::int64_t lease_extensions = 0;
  std::int64_t lease_extension_opportunities = 0;
  /// Simulated time at which the engine stopped; the makespan of a run stopped before every job
  /// left (status timeout or failed). Like `round_stays`, an input of ComputeMetrics that is
  /// neither stored nor sent between ranks.
  double end_time_s = 0.0;
  /// Round engine: per job (trace order) its stay; empty when the engine has no rounds of the
  /// reference's kind (interval engine), in which case no Themis-style ρ is derived.
  std::vector<JobStay> round_stays;
  /// Round engine: per job (trace order), its exclusive time T_excl,g on every GPU type g of the
  /// cluster (worker-id order), 0 where the job cannot run (ExclusiveTimeOn); an input of
  /// ComputeMetrics for the type-weighted ρ, neither stored nor sent. Empty: one type, whose
  /// T_excl is JobResult::exclusive_time_s (interval engine).
  std::vector<std::vector<double>> exclusive_time_by_type_s;
  /// Interval engine: per job (workload order), Sia's n_avg, the mean number of active jobs at the
  /// decisions at which the job was active (`S:sia-simulator/cluster.py:181-182`); 0 when it was
  /// active at none. Its fair share is N / n_avg GPUs (isolated runs); neither stored nor sent.
  std::vector<double> mean_contention_by_job;
  /// Interval engine with the task's isolated_ftf on: the isolated times (docs/sia.md §12); an
  /// input of ComputeMetrics for the type-weighted ρ, neither stored nor sent. Empty otherwise.
  IsolatedTimeTable isolated;
  /// Per GPU type of the cluster (worker-id order): the engine sets gpu_type and gpus, and the
  /// type's workers are the next `gpus` entries of gpu_busy_time_s; ComputeMetrics the rest.
  /// Empty for an engine without named GPU types (interval engine).
  std::vector<GpuTypeResult> gpu_types;
  SummaryMetrics summary;  ///< derived by ComputeMetrics
  std::map<std::string, double> policy_statistics;
  /// Counts about the task's input: for a production log how its rows were selected, skipped and
  /// simulated (ProductionInputStatistics, docs/production.md); empty for trace and workload files.
  std::map<std::string, std::int64_t> input_statistics;
  double wall_time_s = 0.0;  ///< measured, informational only
  /// Measured, informational: the thread CPU time, s, of each of the policy's optimisations
  /// (interval engine: each IntervalPolicy::Optimize call). Neither stored nor sent: ComputeMetrics
  /// summarises it into policy_statistics (`optimize_cpu_time_*_s`, docs/sia.md §6).
  std::vector<double> optimize_cpu_time_s;
};

}  // namespace adaptsim
