// The interval engine (docs/pollux.md §4.4; A:simulator/simulator.py:100-271).
#include "adaptsim/interval_simulator.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "adaptsim/error.hpp"
#include "adaptsim/isolated_times.hpp"
#include "adaptsim/pollux_goodput.hpp"
#include "decision_checks.hpp"

namespace adaptsim {

void IntervalSimulationOptions::Validate() const {
  const std::string context = "interval_simulation";
  if (num_nodes < 1) throw InputError(context, 0, "num_nodes", "must be >= 1");
  if (max_replicas_per_job < 0) {
    throw InputError(context, 0, "max_replicas_per_job", "must be >= 0 (0 = no cap)");
  }
  VisitIntervalOptionsFields(*this, [&](const ConfigField& field, const auto& value) {
    CheckFieldRange(field, value, context);
  });
  int nodes = 0;
  for (const IntervalNodeGroup& group : node_groups) {
    if (group.num_nodes < 1 || group.gpus_per_node < 1) {
      throw InputError(context, 0, "cluster",
                       "node group '" + group.gpu_type + "' needs at least one node and one GPU");
    }
    if (group.first_node != nodes) {
      throw InputError(context, 0, "cluster", "node groups must be numbered group by group");
    }
    nodes += group.num_nodes;
  }
  if (!node_groups.empty() && nodes != num_nodes) {
    throw InputError(context, 0, "num_nodes", "must be the node groups' node count");
  }
  for (const auto* table : {&restart_delay_s_by_application, &slowdown_by_application}) {
    for (const auto& [application, value] : *table) {
      if (!(value > 0) || !std::isfinite(value)) {
        throw InputError(context, 0, application, "per-model delay or slowdown must be > 0");
      }
    }
  }
}

std::vector<IntervalNodeGroup> IntervalSimulationOptions::Groups() const {
  if (!node_groups.empty()) return node_groups;
  return {IntervalNodeGroup{"", num_nodes, gpus_per_node, 0}};
}

void IntervalSimulationOptions::WithNodeGroups(std::vector<IntervalNodeGroup> groups) {
  int nodes = 0;
  for (IntervalNodeGroup& group : groups) {
    group.first_node = nodes;
    nodes += group.num_nodes;
  }
  num_nodes = nodes;
  if (!groups.empty()) gpus_per_node = groups.front().gpus_per_node;
  node_groups = std::move(groups);
}

namespace {

// The set values of `given` over `options`.
void SetGiven(const IntervalOptions& given, IntervalSimulationOptions& options) {
  auto set = [](const std::optional<WrittenNumber>& value, auto& member) {
    if (value) member = static_cast<std::remove_reference_t<decltype(member)>>(value->value);
  };
  set(given.gpus_per_node, options.gpus_per_node);
  set(given.interval_s, options.interval_s);
  set(given.restart_delay_s, options.restart_delay_s);
  set(given.interference_slowdown, options.interference_slowdown);
  if (given.isolated_ftf) options.isolated_ftf = *given.isolated_ftf;
}

}  // namespace

IntervalSimulationOptions IntervalOptions::ResolveNodeGroups(
    std::vector<IntervalNodeGroup> groups) const {
  if (gpus_per_node) {
    throw InputError("task", 0, "gpus_per_node",
                     "not an option on a cluster of GPU types: each type has its node size");
  }
  IntervalSimulationOptions options;
  SetGiven(*this, options);
  options.WithNodeGroups(std::move(groups));
  options.Validate();
  return options;
}

IntervalSimulationOptions IntervalOptions::Resolve(int num_gpus, int input_gpus_per_node) const {
  IntervalSimulationOptions options;
  options.gpus_per_node = input_gpus_per_node;
  SetGiven(*this, options);
  options.Validate();  // gpus_per_node in range before it divides
  if (num_gpus % options.gpus_per_node != 0) {
    throw InputError(
        "task", 0, "num_gpus",
        "must be a multiple of gpus_per_node (" + std::to_string(options.gpus_per_node) + ")");
  }
  options.num_nodes = num_gpus / options.gpus_per_node;
  options.Validate();
  return options;
}

namespace {

// Placement tuple from a node-id list: counts of consecutive equal ids (simulator.py:243-249).
std::vector<int> PlacementOf(const std::vector<int>& allocation) {
  std::vector<int> placement;
  for (std::size_t i = 0; i < allocation.size(); ++i) {
    if (i == 0 || allocation[i] != allocation[i - 1]) {
      placement.push_back(1);
    } else {
      ++placement.back();
    }
  }
  return placement;
}

int Sum(const std::vector<int>& values) {
  int total = 0;
  for (int v : values) total += v;
  return total;
}

// m <= floor(max_batch_size / (K (s + 1))) (simulator.py:82-83).
BatchConfig Capped(BatchConfig batch, const PolluxApplication& app, int num_replicas) {
  const int count = num_replicas * (batch.accum_steps + 1);
  batch.atomic_bsz = std::min(batch.atomic_bsz, app.max_batch_size() / count);
  return batch;
}

struct JobState {
  const PolluxJobSpec* spec = nullptr;
  const PolluxApplication* app = nullptr;      // on the group held (else the first group)
  std::vector<const PolluxApplication*> apps;  // per node group
  int group = -1;                              // node group held, −1 = none
  double restart_delay_s = 0.0;                // the model's checkpoint-restore delay
  double slowdown = 1.0;                       // the model's slowdown calibration
  double calibration = 1.0;                    // 1 / slowdown
  int index = 0;
  std::vector<int> allocation;  // node id per replica
  std::vector<int> placement;   // replicas per node
  BatchConfig batch;
  double progress = 0.0;
  int epoch = 0;
  std::optional<double> completion_s;
  double attained_service = 0.0;
  double rescale_left_s = 0.0;
  int num_restarts = -1;  // -1: never allocated
  double time_s = 0.0;
  int last_batch_size = 0;
  double contention_sum = 0.0;  // Σ active jobs over the decisions at which the job was active
  int contention_count = 0;
};

class IntervalEngine {
 public:
  IntervalEngine(const PolluxWorkload& workload, const IntervalProfileLookup& profiles,
                 IntervalPolicy& policy, const IntervalSimulationOptions& options,
                 const RoundObserver& observer, const RunBudget& budget)
      : policy_(policy),
        options_(options),
        observer_(observer),
        budget_(budget),
        groups_(options.Groups()) {
    int gpus = 0;
    for (int g = 0; g < static_cast<int>(groups_.size()); ++g) {
      for (int n = 0; n < groups_[g].num_nodes; ++n) {
        group_of_node_.push_back(g);
        first_gpu_of_node_.push_back(gpus);
        gpus += groups_[g].gpus_per_node;
      }
    }
    for (std::size_t i = 0; i < workload.jobs.size(); ++i) {
      const PolluxJobSpec& spec = workload.jobs[i];
      JobState job;
      job.spec = &spec;
      for (const IntervalNodeGroup& group : groups_) job.apps.push_back(&profiles(spec, group));
      job.app = job.apps.front();
      const auto& delays = options.restart_delay_s_by_application;
      auto delay = delays.find(spec.application);
      job.restart_delay_s = delay == delays.end() ? options.restart_delay_s : delay->second;
      const auto& slowdowns = options.slowdown_by_application;
      auto slowdown = slowdowns.find(spec.application);
      if (slowdown != slowdowns.end()) {
        job.slowdown = slowdown->second;
        job.calibration = 1.0 / slowdown->second;
      }
      job.index = static_cast<int>(i);
      jobs_.push_back(job);
    }
    result_.gpu_busy_time_s.assign(gpus, 0.0);
  }

  SimulationResult Run();

 private:
  IntervalJobView View(const JobState& job) const;
  double Interference(const JobState& job) const;
  BatchConfig ChosenBatch(const JobState& job);
  void Step(JobState& job, double seconds, double interference);
  std::vector<int> PlacementFor(const std::vector<int>& allocation) const;
  void Reallocate(JobState& job, const std::vector<int>& allocation);
  void Decide();
  void Record(double start_s, int active_jobs);
  bool AllComplete() const;
  void Finish();

  IntervalPolicy& policy_;
  const IntervalSimulationOptions& options_;
  const RoundObserver& observer_;
  const RunBudget& budget_;
  std::vector<IntervalNodeGroup> groups_;
  std::vector<int> group_of_node_;      // node id -> its group
  std::vector<int> first_gpu_of_node_;  // node id -> worker id of its first GPU
  std::vector<JobState> jobs_;
  double now_s_ = 0.0;
  SimulationResult result_;
};

/// CPU time of the calling thread, s (what the machine's other load does not inflate).
double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

IntervalJobView IntervalEngine::View(const JobState& job) const {
  IntervalJobView view;
  view.index = job.index;
  view.spec = job.spec;
  view.app = job.app;
  view.apps_by_group = job.apps;
  view.gpu_group = job.group;
  view.restart_delay_s = job.restart_delay_s;
  view.restart_left_s = job.rescale_left_s;
  view.slowdown = job.slowdown;
  view.attained_service_gpu_s = job.attained_service;
  view.num_restarts = std::max(job.num_restarts, 0);
  view.age_s = now_s_ - job.spec->submission_time_s;
  view.epoch = job.epoch;
  view.progress = job.progress;
  view.allocation = job.allocation;
  view.max_replicas = options_.max_replicas_per_job;
  return view;
}

// The policy's batch configuration for the job's placement, checked (decision_checks.hpp).
BatchConfig IntervalEngine::ChosenBatch(const JobState& job) {
  const IntervalJobView view = View(job);
  const BatchConfig batch = policy_.ChooseBatch(view, job.placement);
  CheckBatchConfig(batch, view, job.placement);
  return batch;
}

// A distributed job (> 1 node) touching a node that hosts > 1 distributed job
// (simulator.py:207-214).
double IntervalEngine::Interference(const JobState& job) const {
  if (options_.interference_slowdown == 0.0) return 0.0;
  std::set<int> nodes(job.allocation.begin(), job.allocation.end());
  if (nodes.size() <= 1) return 0.0;
  for (int node : nodes) {
    int distributed = 0;
    for (const JobState& other : jobs_) {
      std::set<int> other_nodes(other.allocation.begin(), other.allocation.end());
      distributed += other_nodes.size() > 1 && other_nodes.count(node) > 0;
    }
    if (distributed > 1) return options_.interference_slowdown;
  }
  return 0.0;
}

// Job.step (simulator.py:100-157).
void IntervalEngine::Step(JobState& job, double seconds, double interference) {
  if (job.placement.empty()) {
    job.time_s += seconds;
    return;
  }
  const PolluxApplication& app = *job.app;
  const int num_replicas = Sum(job.placement);
  const int num_nodes = static_cast<int>(job.placement.size());
  const double delay = std::min(job.rescale_left_s, seconds);
  job.time_s += delay;
  job.attained_service += delay * num_replicas;
  job.rescale_left_s -= delay;
  seconds -= delay;
  while (seconds > 0 && !job.completion_s) {
    ADAPTSIM_CHECK(job.epoch < app.max_epochs());
    const int batch_size = num_replicas * job.batch.atomic_bsz * (job.batch.accum_steps + 1);
    const double scale = static_cast<double>(batch_size) / app.init_batch_size();
    const StepTimes times = app.Throughput(job.placement, job.batch.atomic_bsz);
    const double accum_time = times.step_time_s - times.sync_time_s;
    const GradientStats grad = app.GradStats(batch_size, job.epoch);
    const double gain = (grad.var + grad.sqr) / (grad.var / scale + grad.sqr);
    policy_.Observe(View(job), {num_nodes, num_replicas, job.batch.atomic_bsz, times.step_time_s,
                                times.sync_time_s, grad.sqr, grad.var});
    const double total_time = times.step_time_s + accum_time * job.batch.accum_steps;
    // The Sia artifact's slowdown calibration (job.py:485); 1 without it.
    const double rate = gain / total_time * (1.0 - interference) * job.calibration;
    const double next_progress = app.Progress(job.epoch + 1);
    job.last_batch_size = batch_size;
    if (job.progress + rate * seconds < next_progress) {
      job.progress += rate * seconds;
      job.time_s += seconds;
      job.attained_service += seconds * num_replicas;
      seconds = 0;
    } else {
      job.epoch += 1;
      // Python round(): half to even, as nearbyint in the default rounding mode.
      const double delta = std::min(std::nearbyint((next_progress - job.progress) / rate), seconds);
      if (job.epoch > app.completion_epoch()) job.completion_s = job.time_s + delta;
      job.progress = next_progress;
      job.time_s += delta;
      job.attained_service += delta * num_replicas;
      seconds -= delta;
    }
    job.batch = Capped(ChosenBatch(job), app, num_replicas);
  }
  job.time_s += seconds;
}

// The placement a job runs on: PlacementOf, re-split as ⌈K/max⌉ replicas per node when it spans
// more nodes than its group's profiled maximum (`S:sia-simulator/cluster.py:197-209`).
std::vector<int> IntervalEngine::PlacementFor(const std::vector<int>& allocation) const {
  std::vector<int> placement = PlacementOf(allocation);
  if (placement.empty()) return placement;
  const int max_nodes = groups_[group_of_node_[allocation.front()]].max_physical_nodes;
  if (max_nodes <= 0 || static_cast<int>(placement.size()) <= max_nodes) return placement;
  int replicas = Sum(placement);
  const int per_node = (replicas + max_nodes - 1) / max_nodes;
  placement.clear();
  for (; replicas > 0; replicas -= per_node) placement.push_back(std::min(per_node, replicas));
  return placement;
}

// Job.reallocate (simulator.py:159-170).
void IntervalEngine::Reallocate(JobState& job, const std::vector<int>& allocation) {
  job.allocation = allocation;
  job.placement = PlacementFor(allocation);
  if (job.placement.empty()) {
    job.batch = {};
    job.group = -1;
    return;
  }
  // One group per job (CheckIntervalDecision): the batch runs on that group's type.
  job.group = group_of_node_[allocation.front()];
  job.app = job.apps[job.group];
  job.batch = Capped(ChosenBatch(job), *job.app, Sum(job.placement));
  job.rescale_left_s = job.restart_delay_s;
  job.num_restarts += 1;
}

// Cluster.step, decision part (simulator.py:215-251).
void IntervalEngine::Decide() {
  IntervalClusterView cluster;
  cluster.now_s = now_s_;
  cluster.num_nodes = options_.num_nodes;
  cluster.gpus_per_node = options_.gpus_per_node;
  cluster.node_groups = groups_;
  cluster.interval_s = options_.interval_s;
  cluster.restart_delay_s = options_.restart_delay_s;
  for (JobState& job : jobs_) {
    const bool active = job.spec->submission_time_s <= now_s_ && !job.completion_s;
    if (!active) {
      job.allocation.clear();  // the artifact drops allocations of inactive jobs before deciding
      continue;
    }
    cluster.jobs.push_back(View(job));
  }
  if (cluster.jobs.empty()) return;
  // Sia's n_avg (`S:sia-simulator/cluster.py:181-182`): the active jobs at each decision.
  for (const IntervalJobView& view : cluster.jobs) {
    jobs_[view.index].contention_sum += static_cast<double>(cluster.jobs.size());
    jobs_[view.index].contention_count += 1;
  }
  const double cpu_start_s = ThreadCpuSeconds();
  const IntervalDecision decision = policy_.Optimize(cluster);
  result_.optimize_cpu_time_s.push_back(ThreadCpuSeconds() - cpu_start_s);
  CheckIntervalDecision(decision, cluster);  // an allocation the engine cannot honour
  CheckReplicaCap(decision, cluster, options_.max_replicas_per_job);
  for (JobState& job : jobs_) {
    auto it = decision.allocations.find(job.index);
    const std::vector<int> empty;
    const std::vector<int>& next = it == decision.allocations.end() ? empty : it->second;
    if (next == job.allocation) continue;
    if (!options_.restart_on_node_move && !next.empty() && !job.allocation.empty() &&
        group_of_node_[next.front()] == job.group && PlacementFor(next) == job.placement) {
      job.allocation = next;  // other nodes, same group and placement: no restart
      continue;
    }
    Reallocate(job, next);
  }
}

void IntervalEngine::Record(double start_s, int active_jobs) {
  RoundResult round;
  round.round_index = static_cast<int>(result_.rounds.size());
  round.start_s = start_s;
  round.end_s = now_s_;
  round.active_jobs = active_jobs;
  std::vector<int> next_slot(group_of_node_.size(), 0);
  for (const JobState& job : jobs_) {
    if (job.allocation.empty()) continue;
    round.running_job_ids.push_back(job.index);
    std::vector<int> workers;
    for (int node : job.allocation) {
      const int worker = first_gpu_of_node_[node] + next_slot[node]++;
      workers.push_back(worker);
      result_.gpu_busy_time_s[worker] += now_s_ - start_s;
    }
    round.busy_gpus += static_cast<int>(workers.size());
    round.worker_ids.push_back(std::move(workers));
  }
  result_.rounds.push_back(std::move(round));
  if (observer_) observer_(result_.rounds.back());
}

bool IntervalEngine::AllComplete() const {
  return std::all_of(jobs_.begin(), jobs_.end(),
                     [](const JobState& job) { return job.completion_s.has_value(); });
}

SimulationResult IntervalEngine::Run() {
  const auto start = std::chrono::steady_clock::now();
  while (!AllComplete()) {
    if (budget_.max_rounds > 0 &&
        static_cast<std::int64_t>(result_.rounds.size()) >= budget_.max_rounds) {
      result_.status = TaskStatus::kTimeout;
      result_.message = "stopped after max_intervals";
      break;
    }
    if (budget_.max_wall_time_s > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
            budget_.max_wall_time_s) {
      result_.status = TaskStatus::kTimeout;
      result_.message = "stopped after max_wall_time_s";
      break;
    }
    const double start_s = now_s_;
    std::vector<double> interference(jobs_.size(), 0.0);
    for (std::size_t i = 0; i < jobs_.size(); ++i) interference[i] = Interference(jobs_[i]);
    for (std::size_t i = 0; i < jobs_.size(); ++i) {
      Step(jobs_[i], options_.interval_s, interference[i]);
    }
    now_s_ += options_.interval_s;
    int active = 0;
    for (const JobState& job : jobs_) {
      active += job.spec->submission_time_s <= now_s_ && !job.completion_s;
    }
    Decide();
    Record(start_s, active);
  }
  Finish();
  result_.policy_statistics = policy_.Statistics();
  result_.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::move(result_);
}

void IntervalEngine::Finish() {
  for (const JobState& job : jobs_) {
    JobResult out;
    out.id = job.index;
    out.workload = job.spec->application;
    out.initial_batch_size = job.spec->batch_size;
    out.final_batch_size = job.last_batch_size;
    out.requested_gpus = job.spec->num_replicas;
    out.extras = IntervalJobExtras{job.spec->application};
    out.arrival_time_s = job.spec->submission_time_s;
    out.restarts = std::max(job.num_restarts, 0);
    // On the first group's type.
    out.exclusive_time_s = PolluxExclusiveTime(*job.spec, *job.apps.front(),
                                               groups_.front().gpus_per_node, job.restart_delay_s);
    if (job.completion_s) {
      out.completion_time_s = *job.completion_s;
      out.jct_s = *job.completion_s - job.spec->submission_time_s;
      out.outcome = JobOutcome::kCompleted;
    }
    result_.jobs.push_back(out);
    result_.mean_contention_by_job.push_back(
        job.contention_count > 0 ? job.contention_sum / job.contention_count : 0.0);
  }
  result_.end_time_s = now_s_;
}

}  // namespace

double PolluxExclusiveTime(const PolluxJobSpec& spec, const PolluxApplication& app,
                           int gpus_per_node, double restart_delay_s) {
  try {
    const std::vector<int> placement = PackedPlacement(spec.num_replicas, gpus_per_node);
    models::GoodputChoice fixed = models::FixedBatch(spec.batch_size, spec.num_replicas,
                                                     app.init_batch_size(), app.max_local_bsz());
    const BatchConfig batch = Capped({fixed.atomic_bsz, fixed.accum_steps}, app, spec.num_replicas);
    const int batch_size = spec.num_replicas * batch.atomic_bsz * (batch.accum_steps + 1);
    const double scale = static_cast<double>(batch_size) / app.init_batch_size();
    const StepTimes times = app.Throughput(placement, batch.atomic_bsz);
    const double total_time =
        times.step_time_s + (times.step_time_s - times.sync_time_s) * batch.accum_steps;
    double seconds = restart_delay_s;
    for (int epoch = 0; epoch < app.max_epochs(); ++epoch) {
      const GradientStats grad = app.GradStats(batch_size, epoch);
      const double gain = (grad.var + grad.sqr) / (grad.var / scale + grad.sqr);
      seconds += (app.Progress(epoch + 1) - app.Progress(epoch)) / (gain / total_time);
    }
    return seconds;
  } catch (const InputError&) {
    return std::numeric_limits<double>::quiet_NaN();
  }
}

SimulationResult SimulateIntervals(const PolluxWorkload& workload, PolluxApplications& apps,
                                   IntervalPolicy& policy, const IntervalSimulationOptions& options,
                                   const RoundObserver& observer, const RunBudget& budget) {
  const IntervalProfileLookup profiles = [&](const PolluxJobSpec& spec,
                                             const IntervalNodeGroup&) -> const PolluxApplication& {
    return apps.Get(spec.application, workload.path, spec.line);
  };
  return SimulateIntervals(workload, profiles, policy, options, observer, budget);
}

SimulationResult SimulateIntervals(const PolluxWorkload& workload,
                                   const IntervalProfileLookup& profiles, IntervalPolicy& policy,
                                   const IntervalSimulationOptions& options,
                                   const RoundObserver& observer, const RunBudget& budget) {
  options.Validate();
  budget.Validate();
  if (options.node_groups.size() > 1 && !policy.SupportsGpuTypes()) {
    throw InputError("interval_simulation", 0, "cluster",
                     "the policy decides for one GPU type; this cluster has " +
                         std::to_string(options.node_groups.size()) + " node groups");
  }
  // The policy's own rounds, if it declares them, replace the engine's interval.
  IntervalSimulationOptions run_options = options;
  if (const std::optional<double> round_s = policy.RoundDurationS()) {
    if (!(*round_s > 0) || !std::isfinite(*round_s)) {
      throw InputError("interval_simulation", 0, "round_s",
                       "the policy's round length must be > 0 s");
    }
    run_options.interval_s = *round_s;
  }
  IntervalEngine engine(workload, profiles, policy, run_options, observer, budget);
  return engine.Run();
}

IntervalSimulation::IntervalSimulation(PolluxWorkload workload,
                                       std::unique_ptr<PolluxApplications> apps,
                                       std::unique_ptr<IntervalPolicy> policy,
                                       const IntervalSimulationOptions& options,
                                       const RunBudget& budget)
    : workload_(std::move(workload)),
      apps_(std::move(apps)),
      policy_(std::move(policy)),
      options_(options),
      budget_(budget) {}

IntervalSimulation::IntervalSimulation(PolluxWorkload workload,
                                       std::unique_ptr<GpuTypeApplications> apps,
                                       std::unique_ptr<IntervalPolicy> policy,
                                       const IntervalSimulationOptions& options,
                                       const RunBudget& budget)
    : workload_(std::move(workload)),
      typed_apps_(std::move(apps)),
      policy_(std::move(policy)),
      options_(options),
      budget_(budget) {}

SimulationResult IntervalSimulation::Run(const RoundObserver& observer) {
  const IntervalProfileLookup profiles =
      [&](const PolluxJobSpec& spec, const IntervalNodeGroup& group) -> const PolluxApplication& {
    if (!typed_apps_) return apps_->Get(spec.application, workload_.path, spec.line);
    return typed_apps_->Get(spec.application, group.gpu_type, workload_.path, spec.line);
  };
  if (options_.isolated_ftf != IsolatedFtf::kOff && !make_policy_) {
    throw InputError("interval_simulation", 0, "isolated_ftf",
                     "the isolated runs need a factory of the policy (SetPolicyFactory)");
  }
  SimulationResult result =
      SimulateIntervals(workload_, profiles, *policy_, options_, observer, budget_);
  if (options_.isolated_ftf == IsolatedFtf::kOff || result.status != TaskStatus::kOk) {
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  IsolatedRunReport report = IsolatedTimes(workload_, profiles, make_policy_, options_,
                                           result.mean_contention_by_job, budget_);
  for (const IntervalNodeGroup& group : options_.Groups()) {
    result.isolated.type_gpus.push_back(group.num_nodes * group.gpus_per_node);
  }
  result.isolated.time_s = std::move(report.time_s);
  result.isolated.combine_times = options_.isolated_ftf == IsolatedFtf::kArtifact;
  result.policy_statistics["isolated_runs"] = report.runs;
  result.policy_statistics["isolated_wall_time_s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (report.status != TaskStatus::kOk) {
    result.status = report.status;
    result.message = report.message;
  }
  return result;
}

}  // namespace adaptsim
