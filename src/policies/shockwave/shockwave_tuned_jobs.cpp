// Shockwave+TunedJobs on the interval engine (shockwave_tuned_jobs.hpp; docs/sia.md §11).
#include "shockwave_tuned_jobs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "adaptsim/error.hpp"
#include "adaptsim/gavel_rounds.hpp"
#include "adaptsim/job_mapping.hpp"
#include "adaptsim/milp_problem.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "shockwave_fairness.hpp"
#include "shockwave_window_milp.hpp"

namespace adaptsim {
namespace {

constexpr int kNcfBatchSize = 32768;  // cluster_unaware.py:70-73

double UniformShare(int num_gpus, std::size_t num_jobs) {  // shockwave.py:134, 389, 556
  return std::min(1.0, static_cast<double>(num_gpus) / static_cast<double>(num_jobs));
}

MilpOptions SolverOptions(const ShockwaveTunedJobsOptions& options) {
  MilpOptions milp;
  milp.relative_gap = options.solver_rel_gap;
  milp.max_nodes = options.solver_max_nodes;
  milp.time_limit_s = 0.0;  // node and gap limits only: deterministic
  return milp;
}

void CountSolve(std::map<std::string, double>& statistics, WindowStatus status, std::int64_t nodes,
                bool general) {
  statistics["shockwave_tj_solver_calls"] += 1;
  statistics["shockwave_tj_solver_nodes"] += static_cast<double>(nodes);
  if (status == WindowStatus::kError || status == WindowStatus::kLimitReached) {
    statistics["shockwave_tj_solver_failures"] += 1;
  } else if (general && status == WindowStatus::kFeasible) {
    statistics["shockwave_tj_solver_limits"] += 1;  // CBC's node limit before the gap
  }
}

}  // namespace

int ShockwaveTunedJobBatchSize(const PolluxJobSpec& spec) {
  return spec.application == "ncf" ? kNcfBatchSize : spec.batch_size;
}

WindowProblem ShockwaveTunedJobsProblem(const std::vector<ShockwaveTunedJob>& jobs, int round_index,
                                        int num_gpus, const ShockwaveTunedJobsOptions& options) {
  WindowProblem problem;
  problem.num_gpus = num_gpus;
  problem.num_rounds = options.future_rounds;
  problem.round_s = options.round_s;
  problem.k = options.k;
  problem.bases = {0.0, 0.2, 0.4, 0.6, 0.8, 1.0};  // multi_simulator_unaware.py:62-63
  problem.log_values = ShockwaveLogValues(problem.bases);
  const double share = UniformShare(num_gpus, jobs.size());
  // shockwave.py:548, 567: the window ends at (round + T)·R.
  const double end_of_window_s = options.round_s * (round_index + options.future_rounds);
  for (const ShockwaveTunedJob& job : jobs) {
    WindowJob w;
    w.gpus = job.gpus;
    w.epochs = job.total_steps;  // iterations stand for epochs (shockwave.py:241-254)
    w.progress = std::clamp(job.current_step, 0.0, job.total_steps);
    w.mean_epoch_s = job.iteration_s;
    w.remaining_s = std::max(0.0, job.RemainingS());
    const double target_s = ShockwaveMomentumAverage(job.share_series, round_index);
    w.max_shortfall_s =
        (options.rhomax * target_s - (end_of_window_s - job.submission_s)) * share;  // :567-573
    problem.jobs.push_back(w);
  }
  return problem;
}

std::vector<int> ShockwaveTunedJobsRound(const std::vector<ShockwaveTunedJob>& jobs,
                                         int round_index, int num_gpus,
                                         const ShockwaveTunedJobsOptions& options,
                                         std::map<std::string, double>& statistics) {
  const int m = static_cast<int>(jobs.size());
  if (m == 0) return {};
  const MilpOptions milp = SolverOptions(options);
  WindowProblem problem = ShockwaveTunedJobsProblem(jobs, round_index, num_gpus, options);
  const bool general = options.solver == ShockwaveSolver::kGeneral;
  const auto solve = [&](const WindowProblem& p) {
    return general ? SolveWindowGeneral(p, milp) : SolveWindowStructured(p);
  };
  const WindowSolution solution = solve(problem);
  CountSolve(statistics, solution.status, solution.nodes, general);
  WindowSchedule x = solution.x;
  if (!solution.HasSolution()) {
    // shockwave.py:365-452, 609-640: the weights π_j, the relaxed problem, the ranking.
    statistics["shockwave_tj_fallbacks"] += 1;
    const double share = UniformShare(num_gpus, jobs.size());
    const double now_s = options.round_s * round_index;
    std::vector<double> priority;
    std::vector<int> gpus;
    for (int j = 0; j < m; ++j) {
      const ShockwaveTunedJob& job = jobs[j];
      const double projected_s = now_s - job.submission_s + job.RemainingS() / share;  // :404-406
      const double rho = projected_s / ShockwaveMomentumAverage(job.share_series, round_index);
      priority.push_back(ShockwaveFallbackPriority(rho, job.RemainingS(), options.round_s,
                                                   options.rhomax, options.lambda));
      problem.jobs[j].weight = priority.back();
      problem.jobs[j].max_shortfall_s = std::numeric_limits<double>::infinity();
      gpus.push_back(job.gpus);
    }
    const WindowSolution relaxed = solve(problem);
    CountSolve(statistics, relaxed.status, relaxed.nodes, general);
    x.clear();
    if (relaxed.HasSolution() && !general) {
      x = relaxed.x;  // the structured solver lays its solution out with RankedLayout(π) already
    } else if (relaxed.HasSolution()) {
      WindowSchedule ranked = SolveRankingGeneral(gpus, relaxed.rounds, priority, num_gpus,
                                                  options.future_rounds, milp);
      CountSolve(statistics, ranked.empty() ? WindowStatus::kError : WindowStatus::kOptimal, 0,
                 general);
      x = ranked.empty() ? relaxed.x : std::move(ranked);  // :497-498 keeps x* without a ranking
    }
  }
  // construct_schedules (shockwave.py:669-719), the window's first round.
  std::vector<int> chosen;
  std::vector<char> taken(m, 0);
  int idle = num_gpus;
  for (int j = 0; j < m; ++j) {
    if (x.empty() || !x[j][0]) continue;
    chosen.push_back(j);
    taken[j] = 1;
    idle -= jobs[j].gpus;
  }
  if (idle > 0) {
    std::vector<int> others;
    for (int j = 0; j < m; ++j) {
      if (!taken[j]) others.push_back(j);
    }
    std::stable_sort(others.begin(), others.end(),
                     [&](int a, int b) { return jobs[a].RemainingS() > jobs[b].RemainingS(); });
    for (int j : others) {
      if (jobs[j].gpus <= idle) {
        idle -= jobs[j].gpus;
        chosen.push_back(j);
      }
      if (idle <= 0) break;
    }
  }
  return chosen;
}

ShockwaveTunedJobsPolicy::ShockwaveTunedJobsPolicy(const ShockwaveTunedJobsOptions& options)
    : options_(options) {
  ValidateOptions(options_, {"policy", "shockwave_tj"});
  for (const char* key : {"rounds", "fallbacks", "solver_calls", "solver_failures", "solver_limits",
                          "solver_nodes", "unplaced"}) {
    statistics_[std::string("shockwave_tj_") + key] = 0.0;
  }
}

BatchConfig ShockwaveTunedJobsPolicy::ChooseBatch(const IntervalJobView& job,
                                                  const std::vector<int>& placement) {
  return GavelTunedJobBatch(*job.app, ShockwaveTunedJobBatchSize(*job.spec), placement);
}

IntervalDecision ShockwaveTunedJobsPolicy::Optimize(const IntervalClusterView& cluster) {
  statistics_["shockwave_tj_rounds"] += 1;
  if (cluster.jobs.empty()) return {};
  const std::vector<IntervalNodeGroup>& groups = cluster.node_groups;
  const double round_s = options_.round_s;
  const int round_index = static_cast<int>(std::llround(cluster.now_s / round_s));
  const double now_s = round_s * round_index;  // shockwave.py:171: round_ptr · R
  // The virtual type (cluster_unaware.py:41-75, multi_simulator_unaware.py:43-47).
  int node_gpus = std::numeric_limits<int>::max(), smallest_type = std::numeric_limits<int>::max();
  int num_gpus = 0;
  for (const IntervalNodeGroup& group : groups) {
    node_gpus = std::min(node_gpus, group.gpus_per_node);
    smallest_type = std::min(smallest_type, group.num_nodes * group.gpus_per_node);
    num_gpus += group.num_nodes * group.gpus_per_node;
  }
  std::vector<int> vnode_group, vnode_node;
  for (std::size_t t = 0; t < groups.size(); ++t) {
    if (groups[t].gpus_per_node % node_gpus != 0) {
      throw InputError("shockwave_tj", 0, "cluster",
                       "node sizes must be multiples of the smallest (" +
                           std::to_string(node_gpus) + " GPUs) for the virtual nodes");
    }
    for (int node = 0; node < groups[t].num_nodes; ++node) {
      for (int v = 0; v < groups[t].gpus_per_node / node_gpus; ++v) {
        vnode_group.push_back(static_cast<int>(t));
        vnode_node.push_back(groups[t].first_node + node);
      }
    }
  }

  // 1-2. The planner's jobs and this round's finish-time estimates.
  const double share = UniformShare(num_gpus, cluster.jobs.size());
  std::vector<ShockwaveTunedJob> jobs;
  for (const IntervalJobView& view : cluster.jobs) {
    const PolluxApplication& app = *view.apps_by_group.front();  // cluster_unaware.py:596
    const int batch_size = ShockwaveTunedJobBatchSize(*view.spec);
    ShockwaveTunedJob job;
    job.gpus = std::min(view.spec->num_replicas, smallest_type);
    job.total_steps = TunedJobTotalSteps(app, batch_size);
    job.current_step = TunedJobCurrentStep(
        app, batch_size, std::min(view.epoch, app.completion_epoch()), view.progress);
    job.iteration_s = TunedJobMeanIterationTime(view, groups, job.gpus, batch_size);
    job.submission_s = view.spec->submission_time_s;
    std::vector<std::pair<int, double>>& series = share_series_[view.index];
    series.push_back({round_index, (now_s - job.submission_s + job.RemainingS()) / share});
    job.share_series = series;
    jobs.push_back(std::move(job));
  }

  // 3-5. The window's first round.
  const std::vector<int> chosen =
      ShockwaveTunedJobsRound(jobs, round_index, num_gpus, options_, statistics_);

  // 6. Workers on the virtual type (shockwave.py:757-827).
  std::vector<std::pair<int, int>> scheduled;  // (position, K') in schedule order
  std::map<int, std::vector<int>> previous;
  for (int j : chosen) {
    scheduled.emplace_back(j, jobs[j].gpus);
    auto it = previous_workers_.find(cluster.jobs[j].index);
    if (it != previous_workers_.end()) previous[j] = it->second;
  }
  const std::map<int, std::vector<int>> workers =
      GavelAssignWorkers(scheduled, previous, static_cast<int>(vnode_group.size()), node_gpus);
  // The order the reference's assignments are made in (per K' descending: the jobs that keep
  // their workers, then the others), which the repair's ties follow.
  std::vector<std::pair<int, int>> order = scheduled;
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<int> assigned;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t end = i;
    while (end < order.size() && order[end].second == order[i].second) ++end;
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t k = i; k < end; ++k) {
        const int j = order[k].first;
        const auto it = previous.find(j);
        const bool kept = it != previous.end() && it->second == workers.at(j);
        if (kept == (pass == 0)) assigned.push_back(j);
      }
    }
    i = end;
  }

  // 7. The repair onto one real type (cluster_unaware.py:273-348).
  std::vector<std::vector<int>> by_type(groups.size());
  for (int j : assigned) {
    std::vector<int> first_seen, counts(groups.size(), 0);
    for (int worker : workers.at(j)) {
      const int t = vnode_group[worker / node_gpus];
      if (counts[t]++ == 0) first_seen.push_back(t);
    }
    int primary = first_seen.front();
    for (int t : first_seen) {
      if (counts[t] > counts[primary]) primary = t;
    }
    by_type[primary].push_back(j);
  }
  IntervalDecision decision;
  std::map<int, std::vector<int>> next_workers;
  for (std::size_t t = 0; t < groups.size(); ++t) {
    std::vector<int> members = by_type[t];
    std::stable_sort(members.begin(), members.end(),
                     [&](int a, int b) { return jobs[a].gpus > jobs[b].gpus; });
    std::vector<int> vnodes, free;
    for (std::size_t v = 0; v < vnode_group.size(); ++v) {
      if (vnode_group[v] == static_cast<int>(t)) vnodes.push_back(static_cast<int>(v));
    }
    free.assign(vnodes.size(), node_gpus);
    for (int j : members) {
      const int need = jobs[j].gpus;
      if (std::accumulate(free.begin(), free.end(), 0) < need) {
        statistics_["shockwave_tj_unplaced"] += 1;  // no real allocation; workers dropped
        continue;
      }
      std::vector<int> nodes;
      while (static_cast<int>(nodes.size()) < need) {
        const auto most = std::max_element(free.begin(), free.end());  // first among equals
        const int take = std::min(*most, need - static_cast<int>(nodes.size()));
        nodes.insert(nodes.end(), take, vnode_node[vnodes[most - free.begin()]]);
        *most -= take;
      }
      std::sort(nodes.begin(), nodes.end());  // map_vnode_to_real_node sorts the node ids
      const int index = cluster.jobs[j].index;
      decision.allocations[index] = std::move(nodes);
      next_workers[index] = workers.at(j);
    }
  }
  previous_workers_ = std::move(next_workers);
  return decision;
}

}  // namespace adaptsim
