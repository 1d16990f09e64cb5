// The round loop (docs/mechanism.md §5; `Scheduler.simulate`, `scheduler/scheduler.py:1728-2268`).
// One iteration: AdvanceTime, ProcessCompletions, RaiseAdaptationRequests, AdmitArrivals,
// ScheduleRound (policy + placement + dispatch).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

#include "adaptsim/adaptation.hpp"
#include "adaptsim/cluster_throughputs.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/workload.hpp"
#include "decision_checks.hpp"
#include "placement.hpp"

namespace adaptsim {
namespace {

struct JobRuntime {
  const JobSpec* spec = nullptr;
  const ModelInfo* model = nullptr;
  AdaptationState adaptation;
  /// T_ik on each GPU type at the current batch size (`_throughputs[j][k]`, `:3485-3495`).
  std::vector<double> throughput_by_type;
  double admitted_at_s = 0.0;
  double run_time_so_far_s = 0.0;
  std::int64_t deadline_s = 0;  // int(int(T_excl) · factor), `scheduler.py:4393-4395`
  int rounds_run = 0;
  int restarts = 0;
  int consecutive_failures = 0;
  int admitted_round = 0;
};

struct Dispatch {
  double finish_s;
  JobId id;
  std::vector<int> worker_ids;
  std::int64_t steps;
  int gpu_type;
};

class Engine {
 public:
  Engine(const Trace& trace, const ClusterThroughputs& throughputs, RoundScheduler& scheduler,
         const SimulationOptions& options, const RoundObserver& observer, const RunBudget& budget)
      : trace_(trace),
        cluster_(throughputs.cluster),
        throughputs_(throughputs),
        scheduler_(scheduler),
        options_(options),
        observer_(observer),
        budget_(budget) {}

  SimulationResult Run();

 private:
  void Prepare();
  bool AdvanceTime();
  void ProcessCompletions();
  void ProcessCompletion(const Dispatch& dispatch);
  void ApplyBatchSizeRequest(JobRuntime& job);
  void Remove(JobId id, JobOutcome outcome);
  void RaiseAdaptationRequests();
  void AdmitArrivals();
  void ScheduleRound();
  ClusterState BuildState() const;
  ActiveJobView View(JobId id, const JobRuntime& job) const;
  bool OutOfBudget(std::chrono::steady_clock::time_point start);
  std::optional<std::vector<double>> ThroughputsByType(const JobSpec& spec, int batch_size,
                                                       std::string* missing_type) const;
  void CheckCluster() const;

  const Trace& trace_;
  const Cluster& cluster_;
  const ClusterThroughputs& throughputs_;
  RoundScheduler& scheduler_;
  const SimulationOptions& options_;
  const RoundObserver& observer_;
  const RunBudget& budget_;

  std::vector<JobProfile> profiles_;
  std::map<JobId, JobRuntime> active_;  // ascending id
  std::size_t next_arrival_ = 0;
  std::size_t remaining_jobs_ = 0;
  double now_s_ = 0.0;
  double round_start_s_ = 0.0;
  std::optional<double> round_end_s_;
  int round_ = 0;
  std::vector<Dispatch> running_;
  // The schedules of the last two rounds (placement order): [0] the round just dispatched,
  // [1] the one before; the restart-overhead check needs nothing older (§5.2 step 3).
  std::array<std::vector<ScheduledJob>, 2> recent_schedules_;
  int empty_rounds_ = 0;  // consecutive rounds in which nothing was placed
  std::map<JobId, std::vector<int>> current_assignments_;
  SimulationResult result_;
};

// T_ik of `spec` at `batch_size` on every type, or nullopt (and the first type without an entry).
std::optional<std::vector<double>> Engine::ThroughputsByType(const JobSpec& spec, int batch_size,
                                                             std::string* missing_type) const {
  std::vector<double> by_type;
  by_type.reserve(throughputs_.by_type.size());
  for (int k = 0; k < cluster_.num_types(); ++k) {
    std::optional<double> thr =
        throughputs_.by_type[k]->ThroughputStepsPerS(spec.model, batch_size, spec.scale_factor);
    if (!thr) {
      if (missing_type != nullptr) *missing_type = cluster_.name(k);
      return std::nullopt;
    }
    by_type.push_back(*thr);
  }
  return by_type;
}

// The cluster and the options agree, and the scheduler can run on it (docs/mechanism.md §12).
void Engine::CheckCluster() const {
  ADAPTSIM_CHECK(static_cast<int>(throughputs_.by_type.size()) == cluster_.num_types());
  if (options_.num_gpus != cluster_.num_gpus()) {
    throw InputError("simulation options", 0, "num_gpus",
                     std::to_string(options_.num_gpus) + " GPUs, but the cluster " +
                         cluster_.ToString() + " has " + std::to_string(cluster_.num_gpus()));
  }
  if (!cluster_.homogeneous() && !scheduler_.SupportsSeveralGpuTypes()) {
    throw InputError(
        "simulation options", 0, "cluster",
        "the policy does not support a cluster of several GPU types (" + cluster_.ToString() + ")");
  }
}

void Engine::Prepare() {
  options_.Validate();
  budget_.Validate();
  CheckCluster();
  int largest_type = 0;
  for (const GpuTypeCount& type : cluster_.types())
    largest_type = std::max(largest_type, type.count);
  const ThroughputSource& reference = throughputs_.reference();
  profiles_.reserve(trace_.jobs.size());
  for (const JobSpec& job : trace_.jobs) {
    const int line = job.id + 1;
    if (job.scale_factor > largest_type) {
      throw InputError(trace_.path, line, "scale_factor",
                       "job needs " + std::to_string(job.scale_factor) + " GPUs but the cluster " +
                           (cluster_.homogeneous() ? "has " : "has at most ") +
                           std::to_string(largest_type) +
                           (cluster_.homogeneous() ? "" : " of one type"));
    }
    const std::string job_type = JobTypeName(job.model, job.initial_batch_size) + " on " +
                                 std::to_string(job.scale_factor) + " GPU(s)";
    std::string missing;
    std::optional<std::vector<double>> by_type =
        ThroughputsByType(job, job.initial_batch_size, &missing);
    if (!by_type) {
      const int k = *cluster_.IndexOf(missing);
      throw InputError(trace_.path, line, "job_type",
                       "no throughput for " + job_type + " (job " + std::to_string(job.id) +
                           ") on GPU type " + missing + " in " +
                           throughputs_.by_type[k]->Describe());
    }
    // The exclusive time (profile, over-deadline cut, ρ) needs the reference type (`utils.py:698`).
    if ((*by_type)[cluster_.reference_type()] <= 0.0) {
      throw InputError(trace_.path, line, "job_type",
                       "zero throughput for " + job_type + " (job " + std::to_string(job.id) +
                           ") on GPU type " + cluster_.name(cluster_.reference_type()) + " in " +
                           reference.Describe());
    }
    profiles_.push_back(BuildProfile(job, reference, trace_.path));
    JobResult record;
    record.id = job.id;
    record.workload = job.model;
    record.initial_batch_size = record.final_batch_size = job.initial_batch_size;
    record.requested_gpus = job.scale_factor;
    record.extras = RoundJobExtras{job.mode, 0};
    record.arrival_time_s = job.arrival_time_s;
    record.exclusive_time_s = profiles_.back().exclusive_time_s;
    record.jct_s = record.completion_time_s = std::nan("");
    result_.jobs.push_back(record);
    // The job's exclusive time on every type, for the type-weighted ρ (§12.9): the same pattern
    // of batch sizes under each type's throughputs; 0 where it cannot run.
    std::vector<double>& exclusive_by_type = result_.exclusive_time_by_type_s.emplace_back();
    for (int k = 0; k < cluster_.num_types(); ++k) {
      exclusive_by_type.push_back(
          k == cluster_.reference_type()
              ? record.exclusive_time_s
              : ExclusiveTimeOn(job, profiles_.back(), *throughputs_.by_type[k]).value_or(0.0));
    }
  }
  remaining_jobs_ = trace_.jobs.size();
  result_.gpu_busy_time_s.assign(cluster_.num_gpus(), 0.0);
  for (const GpuTypeCount& type : cluster_.types()) {
    result_.gpu_types.push_back(GpuTypeResult{type.name, type.count});
  }
  result_.round_stays.assign(trace_.jobs.size(), JobStay{});
}

// §5.2 step 2: jump to the end of the round just dispatched, else to the next arrival.
bool Engine::AdvanceTime() {
  double max_finish_s = 0.0;
  for (const Dispatch& d : running_) max_finish_s = std::max(max_finish_s, d.finish_s);
  if (!running_.empty() && max_finish_s > 0.0) {
    if (round_end_s_) round_start_s_ = *round_end_s_;
    round_end_s_ = max_finish_s;
    now_s_ = max_finish_s;
    return true;
  }
  // Nothing ran. Jobs may be waiting (e.g. for the Gavel reset gate, §7.4): the reference jumps
  // to the next arrival and, with none pending, could not go on. adaptsim then runs empty rounds
  // of T_r — always when no arrival is pending, and with `arrival` also before an arrival more
  // than a round away — at most `max_empty` in a row, enough for the gate to open.
  const bool arrival_pending = next_arrival_ < trace_.jobs.size();
  const bool arrival_mode = options_.idle_round_start == IdleRoundStart::kArrival;
  const int max_empty = static_cast<int>(std::ceil(options_.allocation_reset_interval_s /
                                                   options_.round_duration_s)) +
                        2;
  if (!active_.empty() && (arrival_mode || !arrival_pending) && empty_rounds_ < max_empty) {
    const double next_round_s = now_s_ + options_.round_duration_s;
    if (!arrival_pending || next_round_s < trace_.jobs[next_arrival_].arrival_time_s) {
      now_s_ = next_round_s;
      round_end_s_ = now_s_;
      return true;
    }
  }
  if (arrival_pending) {
    now_s_ = trace_.jobs[next_arrival_].arrival_time_s;
    // Quirk Q4: the reference leaves the round start where the last round ended.
    if (arrival_mode) round_end_s_ = now_s_;
    return true;
  }
  return false;
}

void Engine::ProcessCompletions() {
  // Heap order of the reference: latest finish first, ties by job id.
  std::sort(running_.begin(), running_.end(), [](const Dispatch& a, const Dispatch& b) {
    return a.finish_s != b.finish_s ? a.finish_s > b.finish_s : a.id < b.id;
  });
  std::vector<Dispatch> finished;
  finished.swap(running_);
  for (const Dispatch& dispatch : finished) ProcessCompletion(dispatch);
  if (!result_.rounds.empty()) result_.rounds.back().end_s = now_s_;
}

void Engine::ProcessCompletion(const Dispatch& dispatch) {
  JobRuntime& job = active_.at(dispatch.id);
  double exec_s = dispatch.finish_s - round_start_s_;
  double slowdown = 1.0;
  bool restarted = false;
  // Restart overhead (§5.2 step 3, `:1936-1969`): not in the round before the one just finished.
  if (round_ != 1) {
    const std::vector<ScheduledJob>& before = recent_schedules_[1];
    bool ran_before = std::any_of(before.begin(), before.end(),
                                  [&](const ScheduledJob& s) { return s.id == dispatch.id; });
    if (!ran_before && exec_s != 0.0 &&
        options_.round_duration_s - options_.restart_slack_s < exec_s) {
      slowdown = (exec_s - options_.restart_overhead_s) / exec_s;
      exec_s -= options_.restart_overhead_s;
      ++job.restarts;
      restarted = true;
    }
  }
  const std::int64_t steps = static_cast<std::int64_t>(dispatch.steps * slowdown);
  const int sf = job.spec->scale_factor;
  // Per-worker split (`:1982-2000`): floor(steps / sf) on the first sf-1 workers, the rest on
  // the last. The micro-task fails if any worker reports steps <= 0 and exec <= 0 (`:4487-4569`).
  const std::int64_t per_worker = steps >= 0 ? steps / sf : -((-steps + sf - 1) / sf);
  const std::int64_t last_worker = steps - per_worker * (sf - 1);
  const bool failed = exec_s <= 0.0 && ((sf > 1 && per_worker <= 0) || last_worker <= 0);
  job.run_time_so_far_s += exec_s;
  ++job.rounds_run;
  JobResult& record = result_.jobs[dispatch.id];
  record.completion_time_s = dispatch.finish_s;

  std::optional<JobOutcome> outcome;
  if (failed) {
    if (++job.consecutive_failures >= options_.max_failed_attempts) outcome = JobOutcome::kFailed;
  } else {
    job.consecutive_failures = 0;
    job.adaptation.steps_run += steps;
    const bool over_deadline = job.run_time_so_far_s > static_cast<double>(job.deadline_s);
    if (job.adaptation.total_steps - job.adaptation.steps_run <= 0) {
      outcome = JobOutcome::kCompleted;
    } else if (over_deadline) {
      outcome = JobOutcome::kDeadline;
    }
    for (int w : dispatch.worker_ids) result_.gpu_busy_time_s[w] += exec_s;
  }
  scheduler_.OnMicroTaskDone({dispatch.id, steps, exec_s, restarted, !failed, dispatch.gpu_type});
  result_.throughput_timeline.push_back(
      {dispatch.id, round_, exec_s > 0.0 ? steps / exec_s : 0.0, job.adaptation.batch_size});
  ApplyBatchSizeRequest(job);
  if (outcome) Remove(dispatch.id, *outcome);
}

// §3.5 (`_scale_bs_and_iters`, `:4731-4931`), consumed after the job's executed round.
void Engine::ApplyBatchSizeRequest(JobRuntime& job) {
  if (job.adaptation.request == BatchSizeRequest::kNone) return;
  const int new_bs = RequestedBatchSize(*job.spec, *job.model, job.adaptation);
  job.adaptation.request = BatchSizeRequest::kNone;
  if (new_bs == job.adaptation.batch_size) return;  // rejected (initial bs already the maximum)
  // Every type is re-read (`:4803-4840`). A batch size missing on any type keeps the old one
  // (`:4809-4823`); the reference would keep the types read before the missing one updated
  // (docs/mechanism.md §12.6), which no shipped throughputs file can reach.
  std::optional<std::vector<double>> by_type = ThroughputsByType(*job.spec, new_bs, nullptr);
  if (!by_type) return;
  job.throughput_by_type = std::move(*by_type);
  RescaleToBatchSize(*job.model, new_bs, job.adaptation);
  result_.jobs[job.spec->id].final_batch_size = new_bs;
}

void Engine::Remove(JobId id, JobOutcome outcome) {
  JobResult& record = result_.jobs[id];
  const JobRuntime& job = active_.at(id);
  record.outcome = outcome;
  record.jct_s = record.completion_time_s - record.arrival_time_s;
  std::get<RoundJobExtras>(record.extras).rounds_run = job.rounds_run;
  record.restarts = job.restarts;
  // The stay from which metrics derive the Themis-style ρ (docs/mechanism.md §10).
  result_.round_stays[id] = {job.admitted_round,
                             std::min(round_, static_cast<int>(result_.rounds.size()))};
  active_.erase(id);
  current_assignments_.erase(id);
  --remaining_jobs_;
  scheduler_.OnJobRemoved(id);
}

void Engine::RaiseAdaptationRequests() {
  for (auto& [id, job] : active_) {
    BatchSizeRequest request = EvaluateAdaptation(*job.spec, *job.model, job.adaptation);
    if (request != BatchSizeRequest::kNone) job.adaptation.request = request;
  }
}

void Engine::AdmitArrivals() {
  while (next_arrival_ < trace_.jobs.size() &&
         trace_.jobs[next_arrival_].arrival_time_s <= now_s_) {
    const JobSpec& spec = trace_.jobs[next_arrival_++];
    JobRuntime job;
    job.spec = &spec;
    job.model = FindModel(spec.model);
    job.adaptation = {spec.initial_batch_size, spec.total_steps, 0, BatchSizeRequest::kNone};
    job.throughput_by_type = *ThroughputsByType(spec, spec.initial_batch_size, nullptr);
    job.admitted_at_s = now_s_;
    job.admitted_round = round_;
    const double exclusive_s = profiles_[spec.id].exclusive_time_s;
    job.deadline_s = static_cast<std::int64_t>(
        static_cast<double>(static_cast<std::int64_t>(exclusive_s)) * options_.deadline_factor);
    auto [it, inserted] = active_.emplace(spec.id, job);
    scheduler_.OnJobArrived(View(spec.id, it->second));
  }
}

ActiveJobView Engine::View(JobId id, const JobRuntime& job) const {
  ActiveJobView view;
  view.id = id;
  view.spec = job.spec;
  view.profile = &profiles_[id];
  view.scale_factor = job.spec->scale_factor;
  view.batch_size = job.adaptation.batch_size;
  view.throughput_steps_per_s = job.throughput_by_type[cluster_.reference_type()];
  view.throughput_by_type_steps_per_s = job.throughput_by_type;
  view.cluster = &cluster_;
  view.total_steps = job.adaptation.total_steps;
  view.steps_run = job.adaptation.steps_run;
  view.remaining_steps = job.adaptation.total_steps - job.adaptation.steps_run;
  view.time_since_arrival_s = now_s_ - job.spec->arrival_time_s;
  view.admitted_at_s = job.admitted_at_s;
  view.run_time_so_far_s = job.run_time_so_far_s;
  view.rounds_run = job.rounds_run;
  return view;
}

ClusterState Engine::BuildState() const {
  ClusterState state;
  state.now_s = now_s_;
  state.round_index = round_;
  state.num_gpus = cluster_.num_gpus();
  state.cluster = &cluster_;
  state.round_duration_s = options_.round_duration_s;
  state.num_trace_jobs = static_cast<int>(trace_.jobs.size());
  state.previous_round = &recent_schedules_[0];
  state.throughputs = &throughputs_.reference();
  state.jobs.reserve(active_.size());
  for (const auto& [id, job] : active_) state.jobs.push_back(View(id, job));
  for (const ScheduledJob& ran : recent_schedules_[0]) {  // jobs by ascending id
    auto it = std::lower_bound(state.jobs.begin(), state.jobs.end(), ran.id,
                               [](const ActiveJobView& job, JobId id) { return job.id < id; });
    if (it != state.jobs.end() && it->id == ran.id) {
      it->previous_round_gpus = static_cast<int>(ran.worker_ids.size());
      it->previous_round_gpu_type = cluster_.TypeOfWorker(ran.worker_ids.front());
    }
  }
  return state;
}

void Engine::ScheduleRound() {
  const ClusterState state = BuildState();
  const RoundPlan plan = scheduler_.PlanRound(state);
  CheckRoundPlan(plan, state);  // a plan the engine cannot honour is the policy's error
  std::map<JobId, int> scale_factors;
  for (const PlannedJob& p : plan.jobs) scale_factors[p.id] = active_.at(p.id).spec->scale_factor;
  std::vector<ScheduledJob> placed =
      PlaceRound(plan, cluster_, scale_factors, current_assignments_);

  // Lease-extension counters (§5.2 step 8, `:2195-2209`).
  result_.lease_extension_opportunities += static_cast<std::int64_t>(current_assignments_.size());
  std::map<JobId, std::vector<int>> next;
  RoundResult round;
  round.round_index = round_;
  round.start_s = round.end_s = now_s_;
  round.active_jobs = static_cast<int>(active_.size());
  for (const ScheduledJob& s : placed) {
    auto prev = current_assignments_.find(s.id);
    std::vector<int> sorted_now = s.worker_ids;
    std::sort(sorted_now.begin(), sorted_now.end());
    if (prev != current_assignments_.end()) {
      std::vector<int> sorted_prev = prev->second;
      std::sort(sorted_prev.begin(), sorted_prev.end());
      if (sorted_prev == sorted_now) ++result_.lease_extensions;
    }
    next[s.id] = s.worker_ids;
    const JobRuntime& job = active_.at(s.id);
    // §5.3: steps = min(int(thr·T_r), S - run); finish = max(t, t + steps/thr), with thr on the
    // type of the job's first worker (§12.5, `:2212-2222`).
    const int gpu_type = cluster_.TypeOfWorker(s.worker_ids.front());
    const double throughput = job.throughput_by_type[gpu_type];
    if (!(throughput > 0.0)) {
      throw std::logic_error("job " + std::to_string(s.id) + " placed on GPU type " +
                             cluster_.name(gpu_type) + " where its throughput is 0");
    }
    std::int64_t steps = std::min(static_cast<std::int64_t>(throughput * options_.round_duration_s),
                                  job.adaptation.total_steps - job.adaptation.steps_run);
    double finish_s = std::max(now_s_, now_s_ + steps / throughput);
    running_.push_back({finish_s, s.id, s.worker_ids, steps, gpu_type});
    round.running_job_ids.push_back(s.id);
    round.worker_ids.push_back(s.worker_ids);
    round.busy_gpus += static_cast<int>(s.worker_ids.size());
  }
  current_assignments_ = std::move(next);
  empty_rounds_ = placed.empty() ? empty_rounds_ + 1 : 0;
  recent_schedules_[1] = std::move(recent_schedules_[0]);
  recent_schedules_[0] = std::move(placed);
  result_.rounds.push_back(std::move(round));
}

bool Engine::OutOfBudget(std::chrono::steady_clock::time_point start) {
  std::string reason;
  if (budget_.max_rounds > 0 && round_ >= budget_.max_rounds) {
    reason = "simulated-round limit of " + std::to_string(budget_.max_rounds) + " reached";
  } else if (budget_.max_wall_time_s > 0 &&
             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
                 budget_.max_wall_time_s) {
    reason = "wall-time limit reached";
  }
  if (reason.empty()) return false;
  result_.status = TaskStatus::kTimeout;
  result_.message = reason;
  return true;
}

SimulationResult Engine::Run() {
  const auto start = std::chrono::steady_clock::now();
  Prepare();
  while (remaining_jobs_ > 0) {
    if (OutOfBudget(start)) break;
    if (!AdvanceTime()) {
      result_.status = TaskStatus::kFailed;
      result_.message = "no job can be scheduled and no arrival is pending (" +
                        std::to_string(empty_rounds_) + " empty rounds in a row)";
      break;
    }
    ProcessCompletions();
    RaiseAdaptationRequests();
    AdmitArrivals();
    // The reference stops when the cluster empties (`:2182-2187`); adaptsim waits for the next
    // arrival instead (the shipped traces never empty before their last arrival).
    if (active_.empty()) continue;
    ScheduleRound();
    if (observer_) observer_(result_.rounds.back());
    ++round_;
  }
  result_.policy_statistics = scheduler_.Statistics();
  if (const std::string note = scheduler_.Diagnostics(); !note.empty()) {
    result_.message = result_.message.empty() ? note : result_.message + "; " + note;
  }
  result_.end_time_s = now_s_;
  result_.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result_;
}

}  // namespace

SimulationResult Simulate(const Trace& trace, const ClusterThroughputs& throughputs,
                          RoundScheduler& scheduler, const SimulationOptions& options,
                          const RoundObserver& observer, const RunBudget& budget) {
  Engine engine(trace, throughputs, scheduler, options, observer, budget);
  return engine.Run();
}

SimulationResult Simulate(const Trace& trace, const ThroughputSource& throughputs,
                          RoundScheduler& scheduler, const SimulationOptions& options,
                          const RoundObserver& observer, const RunBudget& budget) {
  options.Validate();
  // A non-owning pointer: `throughputs` outlives the call.
  const ClusterThroughputs cluster = ClusterThroughputs::Homogeneous(
      std::shared_ptr<const ThroughputSource>(std::shared_ptr<void>(), &throughputs),
      options.num_gpus);
  return Simulate(trace, cluster, scheduler, options, observer, budget);
}

RoundSimulation::RoundSimulation(Trace trace, std::shared_ptr<const ThroughputSource> throughputs,
                                 std::unique_ptr<RoundScheduler> scheduler,
                                 const SimulationOptions& options, const RunBudget& budget)
    : RoundSimulation(std::move(trace),
                      ClusterThroughputs::Homogeneous(std::move(throughputs), options.num_gpus),
                      std::move(scheduler), options, budget) {}

RoundSimulation::RoundSimulation(Trace trace, ClusterThroughputs throughputs,
                                 std::unique_ptr<RoundScheduler> scheduler,
                                 const SimulationOptions& options, const RunBudget& budget)
    : trace_(std::move(trace)),
      throughputs_(std::move(throughputs)),
      scheduler_(std::move(scheduler)),
      options_(options),
      budget_(budget) {}

SimulationResult RoundSimulation::Run(const RoundObserver& observer) {
  return Simulate(trace_, throughputs_, *scheduler_, options_, observer, budget_);
}

}  // namespace adaptsim
