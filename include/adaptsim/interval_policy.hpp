// The interface between the interval engine (include/adaptsim/interval_simulator.hpp, the Pollux
// simulator's semantics, docs/pollux.md §4.4) and its policies (pollux, optimus, tiresias).
//
// Each interval the engine hands the policy a read-only IntervalClusterView of the active jobs and
// receives the allocation of every job: one node id per replica (a job absent or with an empty
// list holds nothing). Between decisions the engine asks the policy for each running job's batch
// configuration (ChooseBatch, `A:simulator/simulator.py:64-83`) and reports what the job measured
// (Observe, `simulator.py:85-98`): that is the job-side half of a policy (Pollux's agent refits its
// throughput model from it). The engine never asks which policy it runs.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace adaptsim {

class PolluxApplication;
struct PolluxJobSpec;

/// One node group of the cluster: `num_nodes` nodes of `gpus_per_node` GPUs of type `gpu_type`,
/// with node ids first_node … first_node + num_nodes − 1 (groups in cluster order, ids group by
/// group). A cluster of one type is one group (gpu_type empty for the Pollux artifact's profiles).
struct IntervalNodeGroup {
  std::string gpu_type;
  int num_nodes = 0;
  int gpus_per_node = 0;
  int first_node = 0;
  /// Most nodes a placement is profiled on (the Sia artifact's cluster_max_physical_nnodes); a job
  /// placed on more nodes of this group runs as ⌈K/max⌉ replicas per node on max nodes
  /// (`S:sia-simulator/cluster.py:197-209`). 0 = no limit.
  int max_physical_nodes = 0;
  bool operator==(const IntervalNodeGroup&) const = default;
};

/// One active job as the policy sees it. Pointers stay valid for the whole simulation. The fields
/// of this view and of IntervalClusterView, with units, are declared once in
/// adaptsim/view_fields.hpp.
struct IntervalJobView {
  int index = 0;                           ///< position in the workload (job id)
  const PolluxJobSpec* spec = nullptr;     ///< name, submission time, CSV replicas and batch size
  const PolluxApplication* app = nullptr;  ///< profile on the type it holds (else the first)
  /// The job's profile on each node group's GPU type (one entry per IntervalNodeGroup).
  std::vector<const PolluxApplication*> apps_by_group;
  int gpu_group = -1;            ///< node group of the current allocation, −1 = none
  double restart_delay_s = 0.0;  ///< the model's checkpoint-restore delay the engine charges
  double restart_left_s = 0.0;   ///< restore time still to go (> 0: restoring a checkpoint)
  double slowdown = 1.0;  ///< the model's slowdown calibration: progress rates are divided by it
  double attained_service_gpu_s = 0.0;  ///< GPU-seconds held, restart delays included
  int num_restarts = 0;                 ///< re-allocations after the first allocation
  double age_s = 0.0;                   ///< now − submission time
  int epoch = 0;                        ///< completed epochs
  double progress = 0.0;                ///< scale-invariant iterations done
  std::vector<int> allocation;          ///< current node id per replica (empty = none)
  /// Most GPUs the job may hold, 0 = no cap of the engine's: the job's fair share in an isolated
  /// run for Sia's finish-time fairness (docs/sia.md §12; `S:sia-simulator/ftf_simulator.py:
  /// 349-350`). The engine refuses a larger allocation.
  int max_replicas = 0;
};

/// What the policy may see at a decision point. `jobs` are submitted and incomplete, workload
/// order.
struct IntervalClusterView {
  double now_s = 0.0;
  int num_nodes = 16;     ///< all groups' nodes
  int gpus_per_node = 4;  ///< the first group's
  /// The node groups, in cluster order (one for a cluster of one GPU type).
  std::vector<IntervalNodeGroup> node_groups;
  /// The engine's options (IntervalSimulationOptions): the interval between decisions and the
  /// time without progress after each (re)allocation, s. A policy that models restarts (Pollux's
  /// re-allocation factor) reads the engine's delay here rather than an option of its own.
  double interval_s = 0.0;
  double restart_delay_s = 0.0;
  std::vector<IntervalJobView> jobs;
};

/// Next allocation: job index -> node id per replica. Jobs not listed get nothing. The engine
/// refuses an allocation of a job that is not active, a node id outside [0, num_nodes), a node
/// over its GPUs and a job on nodes of two groups (PolicyError naming the job, the node and the
/// time).
struct IntervalDecision {
  std::map<int, std::vector<int>> allocations;
};

/// Per-GPU atomic batch size m and extra accumulation steps s (total batch K·m·(s+1)).
struct BatchConfig {
  int atomic_bsz = 0;
  int accum_steps = 0;
};

/// One step-loop measurement of a running job (true trace values, docs/pollux.md §1.3).
struct StepObservation {
  int num_nodes = 1;
  int num_replicas = 1;
  int atomic_bsz = 0;
  double step_time_s = 0.0;  ///< full optimizer step (no accumulation)
  double sync_time_s = 0.0;  ///< all-reduce wait within it
  double grad_sqr = 0.0;
  double grad_var = 0.0;
};

/// A policy for the interval engine. Not thread-safe; one instance per simulation.
class IntervalPolicy {
 public:
  virtual ~IntervalPolicy() = default;
  /// The job measured one step-loop iteration (called before its progress is counted).
  virtual void Observe(const IntervalJobView& job, const StepObservation& observation) {
    (void)job, (void)observation;
  }
  /// Batch configuration for `placement` (replicas per node, no zeros), before the engine's cap
  /// m <= floor(max_batch_size / (K·(s+1))).
  virtual BatchConfig ChooseBatch(const IntervalJobView& job,
                                  const std::vector<int>& placement) = 0;
  /// The allocation for the next interval.
  virtual IntervalDecision Optimize(const IntervalClusterView& cluster) = 0;
  /// Whether the policy can decide on a cluster of several node groups (GPU types); the engine
  /// refuses a mixed cluster otherwise.
  virtual bool SupportsGpuTypes() const { return false; }
  /// The length of the policy's own rounds, s, for a policy that decides in rounds of a fixed
  /// length whatever the task's interval (Gavel's 360 s rounds as the Sia artifact runs it,
  /// `S:sia-simulator/run_experiment.sh:5`): the engine then steps and decides every this many
  /// seconds instead of every `interval_s` (IntervalClusterView::interval_s says which). nullopt:
  /// the engine's interval.
  virtual std::optional<double> RoundDurationS() const { return std::nullopt; }
  /// Whether every job runs on exactly its workload's num_replicas GPUs or none (TunedJobs,
  /// docs/sia.md §8): its isolated run for Sia's ρ is then on those GPUs, slowed by K/v when its
  /// fair share v is smaller (`S:sia-simulator/ftf_simulator.py:542-544, 621-630`), instead of on
  /// its fair share (docs/sia.md §12).
  virtual bool FixedReplicas() const { return false; }
  /// Policy statistics for the results file (name -> value).
  virtual std::map<std::string, double> Statistics() const { return {}; }
  /// Makes this policy use `donor`'s caches of pure functions (values that depend only on their
  /// inputs, bit for bit: the throughput-model fits by their samples), so that the fresh
  /// instances of a task's isolated runs (adaptsim/isolated_times.hpp) fit each sample list once.
  /// Results are unchanged; a donor of another policy class shares nothing. Default: nothing.
  virtual void ShareCachesWith(IntervalPolicy& donor) { (void)donor; }
};

/// Builds a fresh instance of a task's policy with the task's options (the isolated runs of Sia's
/// finish-time fairness, adaptsim/isolated_times.hpp, run one per simulation).
using IntervalPolicyFactory = std::function<std::unique_ptr<IntervalPolicy>()>;

}  // namespace adaptsim
