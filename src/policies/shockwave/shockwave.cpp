// Shockwave policy (shockwave.hpp).
#include "shockwave.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "adaptsim/error.hpp"
#include "adaptsim/workload.hpp"
#include "shockwave_fairness.hpp"
#include "shockwave_window_milp.hpp"

namespace adaptsim {
namespace {

constexpr int kReoptRounds = 8;  // REOPT_ROUNDS, `scheduler.py:71`

}  // namespace

ShockwavePolicy::ShockwavePolicy(ShockwaveConfig config) : config_(std::move(config)) {
  ValidateOptions(config_, {"policy", "shockwave"});
}

void ShockwavePolicy::OnJobArrived(const ActiveJobView& job) {
  const ModelInfo* model = FindModel(job.spec->model);
  ADAPTSIM_CHECK(model != nullptr && job.profile != nullptr);
  arrivals_.push_back(
      {job.id, *job.profile, job.scale_factor, model->dataset_size_samples, job.admitted_at_s});
}

void ShockwavePolicy::OnJobRemoved(JobId id) {
  // `remove_metadata`, `shockwave.py:203-210`.
  if (jobs_.erase(id) == 0) return;
  order_.erase(std::find(order_.begin(), order_.end(), id));
  reestimate_share_ = true;
  resolve_ = true;
}

void ShockwavePolicy::OnMicroTaskDone(const MicroTaskOutcome& outcome) {
  auto it = dispatched_.find(outcome.id);
  auto job = jobs_.find(outcome.id);
  if (it == dispatched_.end() || job == jobs_.end()) return;
  const Dispatched& d = it->second;
  // The reference's throughput timeline entry (`scheduler.py:1936-2000`): steps / execution time.
  double steps_per_s = outcome.execution_time_s > 0.0 && outcome.succeeded
                           ? static_cast<double>(outcome.steps) / outcome.execution_time_s
                           : 0.0;
  // Several types: the reference-type throughput (docs/shockwave.md, "Shockwave on mixed GPUs").
  if (d.speed != 1.0) steps_per_s /= d.speed;
  job->second.forecast->AddThroughputMeasurement(d.round + 1, steps_per_s, d.batch_size);
  dispatched_.erase(it);
}

RoundPlan ShockwavePolicy::PlanRound(const ClusterState& state) {
  if (planned_before_) UpdateAfterRound(state);
  planned_before_ = true;
  RegisterArrivals(state.round_duration_s);
  if (resolve_ || schedules_.count(round_ptr_) == 0) Resolve(state);
  const std::vector<Slot>& slots = schedules_.at(round_ptr_);
  std::vector<JobId> ids;
  for (const auto& [id, type] : slots) ids.push_back(id);
  last_returned_ = ids;
  RoundPlan plan;
  for (const auto& [id, type] : slots) {
    if (jobs_.count(id) > 0) plan.jobs.push_back({id, {}, type});
  }
  if (state.cluster != nullptr && !state.cluster->homogeneous()) KeepRunnableTypes(state, plan);
  RecordDispatch(state, plan.jobs);
  return plan;
}

// `_update_shockwave_scheduler`, `scheduler.py:2270-2374`.
void ShockwavePolicy::UpdateAfterRound(const ClusterState& state) {
  for (JobId id : last_returned_) {
    auto job = jobs_.find(id);
    if (job == jobs_.end()) continue;  // completed in the round just finished
    auto view = std::find_if(state.jobs.begin(), state.jobs.end(),
                             [&](const ActiveJobView& v) { return v.id == id; });
    ADAPTSIM_CHECK(view != state.jobs.end());
    const std::int64_t steps_per_epoch =
        (job->second.dataset_size + view->batch_size - 1) / view->batch_size;
    job->second.forecast->SetEpochProgress(static_cast<int>(view->steps_run / steps_per_epoch));
  }
  ++round_ptr_;
  if (++rounds_since_reopt_ >= kReoptRounds) {
    rounds_since_reopt_ = 0;
    resolve_ = true;
  }
}

void ShockwavePolicy::RegisterArrivals(double round_s) {
  // `add_metadata`, `shockwave.py:196-201`; metadata built at `scheduler.py:754-778`.
  for (Pending& p : arrivals_) {
    Job job;
    job.forecast = std::make_unique<ShockwaveJobForecaster>(p.profile, p.dataset_size,
                                                            p.submit_time_s, round_s);
    job.gpus = p.gpus;
    job.dataset_size = p.dataset_size;
    jobs_.emplace(p.id, std::move(job));
    order_.push_back(p.id);
    reestimate_share_ = true;
    resolve_ = true;
  }
  arrivals_.clear();
}

// `finish_time_uniform_share`, `shockwave.py:88-120`.
void ShockwavePolicy::EstimateShares(double share) {
  if (!reestimate_share_) return;
  for (JobId id : order_) {
    Job& job = jobs_.at(id);
    ShockwaveJobForecaster& f = *job.forecast;
    f.Calibrate();
    const double done_s = f.CompletedEpochsDuration();
    const double estimate =
        f.submit_time_s() + (done_s + f.RemainingRuntime(f.epoch_progress())) / share;
    job.share_series.push_back({round_ptr_, estimate});
  }
  reestimate_share_ = false;
}

WindowProblem ShockwavePolicy::BuildProblem(const ClusterState& state, double share) {
  WindowProblem problem;
  problem.num_gpus = state.num_gpus;
  problem.num_rounds = config_.future_rounds;
  problem.round_s = state.round_duration_s;
  problem.k = config_.k;
  problem.bases = config_.log_approximation_bases;
  problem.log_values = ShockwaveLogValues(problem.bases);
  const bool typed = state.cluster != nullptr && !state.cluster->homogeneous();
  if (typed) {
    for (const GpuTypeCount& type : state.cluster->types())
      problem.gpus_by_type.push_back(type.count);
  }
  const double end_of_window_s = state.round_duration_s * (round_ptr_ + config_.future_rounds);
  for (JobId id : order_) {
    Job& job = jobs_.at(id);
    ShockwaveJobForecaster& f = *job.forecast;
    WindowJob w;
    w.gpus = job.gpus;
    w.epochs = f.num_epochs();
    w.progress = std::min<double>(f.epoch_progress(), problem.bases.back() * w.epochs);
    w.mean_epoch_s = f.MeanPastEpochDuration();
    w.remaining_s = f.RemainingRuntime();
    const double target_s = ShockwaveMomentumAverage(job.share_series, round_ptr_);
    w.max_shortfall_s = (config_.rhomax * target_s - end_of_window_s) * share;
    if (typed) {
      // r_jk = T_jk / T_j,ref at the current batch size (docs/shockwave.md, "Shockwave on mixed
      // GPUs").
      const ActiveJobView& view =
          *std::lower_bound(state.jobs.begin(), state.jobs.end(), id,
                            [](const ActiveJobView& v, JobId key) { return v.id < key; });
      ADAPTSIM_CHECK(view.id == id && view.throughput_steps_per_s > 0.0);
      for (double thr : view.throughput_by_type_steps_per_s) {
        w.speed.push_back(thr / view.throughput_steps_per_s);
      }
    }
    problem.jobs.push_back(w);
  }
  return problem;
}

WindowSolution ShockwavePolicy::Solve(const WindowProblem& problem) {
  WindowSolution solution;
  if (config_.solver != ShockwaveSolver::kGeneral) {
    WindowStructuredOptions options;
    options.reference = config_.solver == ShockwaveSolver::kStructuredReference;
    solution = SolveWindowStructured(problem, options);
  } else {
    MilpOptions options;
    options.relative_gap = config_.solver_rel_gap;
    options.max_nodes = config_.solver_max_nodes;
    options.time_limit_s = config_.solver_wall_clock ? config_.solver_timeout : 0.0;
    solution = SolveWindowGeneral(problem, options);
  }
  solver_nodes_ += solution.nodes;
  RecordSolverOutcome(solution.status);
  return solution;
}

void ShockwavePolicy::RecordSolverOutcome(WindowStatus status) {
  ++solver_calls_;
  if (status == WindowStatus::kError || status == WindowStatus::kLimitReached) {
    ++solver_failures_;
  } else if (config_.solver == ShockwaveSolver::kGeneral && status == WindowStatus::kFeasible) {
    ++solver_limits_;  // CBC stopped at solver_max_nodes before reaching solver_rel_gap
  }
}

// π_j of `relax_finish_time_constraints` (`shockwave.py:830-911`), in metadata order.
std::vector<double> ShockwavePolicy::FallbackPriorities(double share, double round_s) {
  std::vector<double> priority;
  for (JobId id : order_) {
    Job& job = jobs_.at(id);
    ShockwaveJobForecaster& f = *job.forecast;
    f.Calibrate();
    const double remaining_s = f.RemainingRuntime();
    const double projected_s = round_s * round_ptr_ + remaining_s / share;
    const double rho = projected_s / ShockwaveMomentumAverage(job.share_series, round_ptr_);
    priority.push_back(
        ShockwaveFallbackPriority(rho, remaining_s, round_s, config_.rhomax, config_.lambda));
  }
  return priority;
}

// `relax_finish_time_constraints` (`shockwave.py:830-911`), the relaxed re-solve and the ranking.
WindowSchedule ShockwavePolicy::Fallback(WindowProblem problem, double share, double round_s) {
  ++fallbacks_;
  const std::vector<double> priority = FallbackPriorities(share, round_s);
  for (std::size_t i = 0; i < priority.size(); ++i) {
    problem.jobs[i].weight = priority[i];
    problem.jobs[i].max_shortfall_s = std::numeric_limits<double>::infinity();
  }
  WindowSolution relaxed = Solve(problem);
  if (!relaxed.HasSolution()) return {};
  // The structured solver lays its solution out with RankedLayout(π) already, and π_j is the
  // priority here: relaxed.x is the ranked layout.
  if (config_.solver != ShockwaveSolver::kGeneral) return relaxed.x;
  std::vector<int> gpus;
  for (const WindowJob& job : problem.jobs) gpus.push_back(job.gpus);
  MilpOptions options;
  options.relative_gap = config_.solver_rel_gap;
  options.max_nodes = config_.solver_max_nodes;
  options.time_limit_s = config_.solver_wall_clock ? config_.solver_timeout : 0.0;
  WindowSchedule ranked = SolveRankingGeneral(gpus, relaxed.rounds, priority, problem.num_gpus,
                                              problem.num_rounds, options);
  // Empty only when CBC found no solution: the relaxed layout is then used unranked.
  RecordSolverOutcome(ranked.empty() ? WindowStatus::kError : WindowStatus::kOptimal);
  return ranked.empty() ? relaxed.x : ranked;
}

void ShockwavePolicy::Resolve(const ClusterState& state) {
  const auto start = std::chrono::steady_clock::now();
  ++resolves_;
  const double share =
      std::min(1.0, static_cast<double>(state.num_gpus) / static_cast<double>(order_.size()));
  EstimateShares(share);
  WindowProblem problem = BuildProblem(state, share);
  if (!problem.gpus_by_type.empty()) {
    ResolveTyped(state, std::move(problem), share);
    resolve_ = false;
    resolve_times_s_.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return;
  }
  WindowSolution solution = Solve(problem);
  WindowSchedule x = solution.HasSolution()
                         ? solution.x
                         : Fallback(std::move(problem), share, state.round_duration_s);
  if (x.empty()) {
    x.assign(order_.size(), std::vector<char>(config_.future_rounds, 0));
  }
  BuildSchedules(x, state.num_gpus);
  resolve_ = false;
  resolve_times_s_.push_back(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

// `construct_schedules`, `shockwave.py:213-285`.
void ShockwavePolicy::BuildSchedules(const WindowSchedule& x, int num_gpus) {
  schedules_.clear();
  const int num_jobs = static_cast<int>(order_.size());
  for (int t = 0; t < config_.future_rounds; ++t) {
    std::vector<Slot> ids;
    std::vector<char> taken(num_jobs, 0);
    int idle = num_gpus;
    for (int j = 0; j < num_jobs; ++j) {
      if (!x[j][t]) continue;
      ids.push_back({order_[j], -1});
      taken[j] = 1;
      idle -= jobs_.at(order_[j]).gpus;
    }
    if (idle > 0) {
      std::vector<std::pair<double, int>> others;  // (forecast remaining time, index)
      for (int j = 0; j < num_jobs; ++j) {
        if (!taken[j]) others.push_back({jobs_.at(order_[j]).forecast->RemainingRuntime(), j});
      }
      std::stable_sort(others.begin(), others.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      for (const auto& [remaining_s, j] : others) {
        const int gpus = jobs_.at(order_[j]).gpus;
        if (gpus <= idle) {
          idle -= gpus;
          ids.push_back({order_[j], -1});
        }
        if (idle <= 0) break;
      }
    }
    schedules_[round_ptr_ + t] = std::move(ids);
  }
}

// A plan is up to REOPT_ROUNDS rounds old: a batch-size change since may have left a job without
// throughput on its planned type (ResNet-50 at batch size 128 on K80). Such a job moves to its
// fastest type with room left in this round, or waits.
void ShockwavePolicy::KeepRunnableTypes(const ClusterState& state, RoundPlan& plan) const {
  const Cluster& cluster = *state.cluster;
  const auto view_of = [&](JobId id) -> const ActiveJobView& {
    return *std::lower_bound(state.jobs.begin(), state.jobs.end(), id,
                             [](const ActiveJobView& v, JobId key) { return v.id < key; });
  };
  std::vector<int> room(cluster.num_types());
  for (int k = 0; k < cluster.num_types(); ++k) room[k] = cluster.count(k);
  std::vector<PlannedJob*> stranded;
  for (PlannedJob& p : plan.jobs) {
    const ActiveJobView& view = view_of(p.id);
    if (view.throughput_by_type_steps_per_s[p.gpu_type] > 0.0) {
      room[p.gpu_type] -= view.scale_factor;
    } else {
      stranded.push_back(&p);
    }
  }
  if (stranded.empty()) return;
  for (PlannedJob* p : stranded) {
    const ActiveJobView& view = view_of(p->id);
    int best = -1;
    for (int k = 0; k < cluster.num_types(); ++k) {
      const double thr = view.throughput_by_type_steps_per_s[k];
      if (thr > 0.0 && room[k] >= view.scale_factor &&
          (best < 0 || thr > view.throughput_by_type_steps_per_s[best])) {
        best = k;
      }
    }
    p->gpu_type = best;
    if (best >= 0) room[best] -= view.scale_factor;
  }
  std::erase_if(plan.jobs, [](const PlannedJob& p) { return p.gpu_type < 0; });
}

void ShockwavePolicy::RecordDispatch(const ClusterState& state,
                                     const std::vector<PlannedJob>& planned) {
  for (const PlannedJob& p : planned) {
    auto view = std::find_if(state.jobs.begin(), state.jobs.end(),
                             [&](const ActiveJobView& v) { return v.id == p.id; });
    if (view == state.jobs.end()) continue;
    Dispatched d;
    d.round = state.round_index;
    d.batch_size = view->batch_size;
    if (p.gpu_type >= 0 && state.cluster != nullptr && !state.cluster->homogeneous()) {
      d.speed = view->throughput_by_type_steps_per_s[p.gpu_type] / view->throughput_steps_per_s;
    }
    dispatched_[p.id] = d;
  }
}

TypedWindowSolution ShockwavePolicy::SolveTyped(const WindowProblem& problem) {
  TypedWindowSolution solution;
  if (config_.solver == ShockwaveSolver::kGeneral) {
    MilpOptions options;
    options.relative_gap = config_.solver_rel_gap;
    options.max_nodes = config_.solver_max_nodes;
    options.time_limit_s = config_.solver_wall_clock ? config_.solver_timeout : 0.0;
    solution = SolveTypedWindowGeneral(problem, options);
  } else {
    solution = SolveWindowHeterogeneous(problem);
  }
  solver_nodes_ += solution.nodes;
  RecordSolverOutcome(solution.status);
  return solution;
}

// The same steps as on one type (Resolve, Fallback) with the typed window problem: the
// finish-time-constrained solve, else the fallback's weights π_j and the relaxed solve, whose
// rounds are ranked by π (RankTypedRounds).
void ShockwavePolicy::ResolveTyped(const ClusterState& state, WindowProblem problem, double share) {
  TypedWindowSolution solution = SolveTyped(problem);
  if (!solution.HasSolution()) {
    ++fallbacks_;
    std::vector<double> priority = FallbackPriorities(share, state.round_duration_s);
    for (std::size_t i = 0; i < priority.size(); ++i) {
      problem.jobs[i].weight = priority[i];
      problem.jobs[i].max_shortfall_s = std::numeric_limits<double>::infinity();
    }
    solution = SolveTyped(problem);
    if (solution.HasSolution()) RankTypedRounds(solution.y, priority);
  }
  if (!solution.HasSolution()) {
    solution.y.assign(order_.size(), std::vector<int>(config_.future_rounds, -1));
  }
  BuildTypedSchedules(solution.y, problem);
}

// `construct_schedules` (`shockwave.py:213-285`) per type: the planned jobs on their types, then
// the work-conserving fill — unplanned jobs by forecast remaining time, largest first, each on
// its fastest type with enough idle GPUs — until no GPU is idle.
void ShockwavePolicy::BuildTypedSchedules(const TypedWindowSchedule& y,
                                          const WindowProblem& problem) {
  schedules_.clear();
  const int num_jobs = static_cast<int>(order_.size());
  const int types = static_cast<int>(problem.gpus_by_type.size());
  for (int t = 0; t < config_.future_rounds; ++t) {
    std::vector<Slot> slots;
    std::vector<int> idle = problem.gpus_by_type;
    int total_idle = problem.num_gpus;
    for (int j = 0; j < num_jobs; ++j) {
      const int k = y[j][t];
      if (k < 0) continue;
      slots.push_back({order_[j], k});
      idle[k] -= problem.jobs[j].gpus;
      total_idle -= problem.jobs[j].gpus;
    }
    if (total_idle > 0) {
      std::vector<std::pair<double, int>> others;  // (forecast remaining time, index)
      for (int j = 0; j < num_jobs; ++j) {
        if (y[j][t] < 0) others.push_back({jobs_.at(order_[j]).forecast->RemainingRuntime(), j});
      }
      std::stable_sort(others.begin(), others.end(),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      for (const auto& [remaining_s, j] : others) {
        const WindowJob& job = problem.jobs[j];
        int best = -1;
        for (int k = 0; k < types; ++k) {
          if (job.speed[k] > 0.0 && idle[k] >= job.gpus &&
              (best < 0 || job.speed[k] > job.speed[best])) {
            best = k;
          }
        }
        if (best >= 0) {
          idle[best] -= job.gpus;
          total_idle -= job.gpus;
          slots.push_back({order_[j], best});
        }
        if (total_idle <= 0) break;
      }
    }
    schedules_[round_ptr_ + t] = std::move(slots);
  }
}

std::map<std::string, double> ShockwavePolicy::Statistics() const {
  return {{"shockwave_resolves", static_cast<double>(resolves_)},
          {"shockwave_fallbacks", static_cast<double>(fallbacks_)},
          {"shockwave_solver_failures", static_cast<double>(solver_failures_)},
          {"shockwave_solver_limits", static_cast<double>(solver_limits_)},
          {"shockwave_solver_calls", static_cast<double>(solver_calls_)},
          {"shockwave_solver_nodes", static_cast<double>(solver_nodes_)}};
}

std::string ShockwavePolicy::Diagnostics() const {
  if (solver_limits_ == 0 && solver_failures_ == 0) return {};
  std::string note = "shockwave: of " + std::to_string(solver_calls_) + " solver calls, ";
  note += std::to_string(solver_limits_) +
          " stopped at solver_max_nodes outside solver_rel_gap (incumbent used), ";
  note += std::to_string(solver_failures_) + " ended without a solution (fallback used)";
  return note;
}

}  // namespace adaptsim
