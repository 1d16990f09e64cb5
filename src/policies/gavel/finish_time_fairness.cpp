#include "finish_time_fairness.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/analytic_center.hpp"
#include "adaptsim/clp_solver.hpp"
#include "adaptsim/error.hpp"
#include "gandiva_fair.hpp"
#include "isolated.hpp"

namespace adaptsim {
namespace {

double Lower(const ThemisJob& job, double rho) {
  if (job.remaining_steps <= 0.0) return 0.0;
  return job.remaining_steps /
         (job.throughput * (rho * job.expected_isolated_s - job.time_since_arrival_s));
}

double Need(const std::vector<ThemisJob>& jobs, double rho) {
  double need = 0.0;
  for (const ThemisJob& job : jobs) need += job.scale_factor * Lower(job, rho);
  return need;
}

// max_i ρ_i at x = 1 (N > 0) and the constant ρ_i of jobs with N = 0.
double RhoFloor(const std::vector<ThemisJob>& jobs) {
  double floor = 0.0;
  for (const ThemisJob& job : jobs) {
    const double at_full = job.time_since_arrival_s + job.remaining_steps / job.throughput;
    floor = std::max(floor, (job.remaining_steps > 0.0 ? at_full : job.time_since_arrival_s) /
                                job.expected_isolated_s);
  }
  return floor;
}

ThemisOptimum Finish(const std::vector<ThemisJob>& jobs, double rho, bool binding) {
  ThemisOptimum optimum;
  optimum.rho = rho;
  optimum.unique = binding;
  for (const ThemisJob& job : jobs) optimum.lower.push_back(Lower(job, rho));
  return optimum;
}

bool FeasibleLp(const std::vector<ThemisJob>& jobs, int num_gpus, double rho, int max_iterations) {
  LpProblem lp;
  const int m = static_cast<int>(jobs.size());
  for (int i = 0; i < m; ++i) lp.AddColumn(0.0, 1.0, 0.0);
  const int capacity = lp.AddRow(-kLpInfinity, num_gpus);
  for (int i = 0; i < m; ++i) lp.AddEntry(capacity, i, jobs[i].scale_factor);
  for (int i = 0; i < m; ++i) {
    if (jobs[i].remaining_steps <= 0.0) {
      if (jobs[i].time_since_arrival_s > rho * jobs[i].expected_isolated_s) return false;
      continue;
    }
    const double denominator = rho * jobs[i].expected_isolated_s - jobs[i].time_since_arrival_s;
    if (!(denominator > 0.0)) return false;
    lp.AddEntry(lp.AddRow(jobs[i].remaining_steps / denominator, kLpInfinity), i,
                jobs[i].throughput);
  }
  LpOptions options;
  options.max_iterations = max_iterations;
  const LpSolution solution = SolveWithClp(lp, options);
  if (solution.status == LpStatus::kOptimal) return true;
  if (solution.status == LpStatus::kInfeasible) return false;
  throw InputError("policy finish_time_fairness", 0, "solver",
                   "CLP returned status " + ToString(solution.status));
}

}  // namespace

ThemisOptimum ThemisSolveClosedForm(const std::vector<ThemisJob>& jobs, int num_gpus) {
  const double floor = RhoFloor(jobs);
  if (Need(jobs, floor) <= num_gpus) return Finish(jobs, floor, false);
  double lo = floor, hi = 2.0 * floor;
  while (Need(jobs, hi) > num_gpus) lo = hi, hi *= 2.0;
  for (int it = 0; it < 2000; ++it) {  // to adjacent doubles; need(hi) <= C always holds
    const double mid = lo + (hi - lo) / 2.0;
    if (mid <= lo || mid >= hi) break;
    (Need(jobs, mid) <= num_gpus ? hi : lo) = mid;
  }
  return Finish(jobs, hi, true);
}

ThemisOptimum ThemisSolveClp(const std::vector<ThemisJob>& jobs, int num_gpus, int max_iterations) {
  double lo = 0.0, hi = 1.0;
  int solves = 0;
  for (const ThemisJob& job : jobs) {
    lo = std::max(lo, job.time_since_arrival_s / job.expected_isolated_s);
  }
  hi = std::max(1.0, 2.0 * lo);
  while (++solves, !FeasibleLp(jobs, num_gpus, hi, max_iterations)) lo = hi, hi *= 2.0;
  while (hi - lo > 1e-12 * hi) {
    const double mid = lo + (hi - lo) / 2.0;
    ++solves;
    (FeasibleLp(jobs, num_gpus, mid, max_iterations) ? hi : lo) = mid;
  }
  ThemisOptimum optimum = Finish(jobs, hi, false);
  double used = 0.0;
  for (std::size_t i = 0; i < jobs.size(); ++i) used += jobs[i].scale_factor * optimum.lower[i];
  optimum.unique = used >= num_gpus * (1.0 - 1e-9);
  optimum.lp_solves = solves;
  return optimum;
}

double ThemisWorstRho(const internal::TypedLpInputs& in, const std::vector<ThemisJob>& jobs,
                      const std::vector<double>& x) {
  double worst = 0.0;
  for (int i = 0; i < in.num_jobs; ++i) {
    const ThemisJob& job = jobs[i];
    double finish = job.time_since_arrival_s;
    if (job.remaining_steps > 0.0) {
      const double t = in.EffectiveThroughput(x, i);
      finish = t > 0.0 ? finish + job.remaining_steps / t : kLpInfinity;
    }
    worst = std::max(worst, finish / job.expected_isolated_s);
  }
  return worst;
}

ThemisSeveralTypesSolution ThemisSolveSeveralTypes(const internal::TypedLpInputs& in,
                                                   const std::vector<ThemisJob>& jobs,
                                                   const std::vector<double>& start) {
  ThemisSeveralTypesSolution solution;
  solution.x = start;
  solution.rho = ThemisWorstRho(in, jobs, start);
  const int m = in.num_jobs;
  std::vector<double> slopes(m, 0.0), offsets(m, 0.0), scales(m, 0.0);
  for (int step = 0; step < 100; ++step) {
    // Jobs with N_i > 0: (ρ_j E_i − τ_i) t_i(x) − N_i >= μ E_i t_i(x_j); a job with N_i = 0 has
    // the constant ρ_i = τ_i / E_i and no row.
    for (int i = 0; i < m; ++i) {
      if (!(jobs[i].remaining_steps > 0.0)) continue;
      slopes[i] = solution.rho * jobs[i].expected_isolated_s - jobs[i].time_since_arrival_s;
      offsets[i] = jobs[i].remaining_steps;
      scales[i] = jobs[i].expected_isolated_s * in.EffectiveThroughput(solution.x, i);
    }
    const internal::TypedLpPoint point = internal::MaxMargin(in, slopes, offsets, scales, 1e6);
    ++solution.lp_solves;
    const double rho = ThemisWorstRho(in, jobs, point.x);
    if (!(rho < solution.rho * (1.0 - 1e-12))) break;
    solution.rho = rho;
    solution.x = point.x;
  }
  std::vector<double> floors(m, 0.0);
  for (int i = 0; i < m; ++i) {
    if (jobs[i].remaining_steps > 0.0) {
      floors[i] = (1.0 - 1e-9) * jobs[i].remaining_steps /
                  (solution.rho * jobs[i].expected_isolated_s - jobs[i].time_since_arrival_s);
    }
  }
  // The point: the vertex of {x ∈ B : t_i >= d_i(ρ*)} maximising Σ_i t_i / d_i(ρ*).
  std::vector<double> weights(in.throughputs.size(), 0.0);
  for (int i = 0; i < in.num_jobs; ++i) {
    for (int k = 0; k < in.num_types && floors[i] > 0.0; ++k) {
      weights[static_cast<std::size_t>(i) * in.num_types + k] = in.T(i, k) / floors[i];
    }
  }
  const internal::TypedLpPoint point =
      internal::MaxWeightedSum(in, weights, floors, LpMethod::kDualSimplex);
  ++solution.lp_solves;
  if (const double rho = ThemisWorstRho(in, jobs, point.x); rho <= solution.rho * (1 + 1e-9)) {
    solution.x = point.x;
    solution.rho = std::max(solution.rho, rho);
  }
  return solution;
}

FinishTimeFairnessPolicy::FinishTimeFairnessPolicy(FinishTimeFairnessOptions options,
                                                   bool heterogeneity_aware)
    : options_(options), aware_(heterogeneity_aware) {
  ValidateOptions(options_,
                  {"policy", aware_ ? "finish_time_fairness_perf" : "finish_time_fairness"});
}

std::vector<double> FinishTimeFairnessPolicy::FacePoint(const std::vector<ThemisJob>& jobs,
                                                        const ThemisOptimum& optimum,
                                                        int num_gpus) const {
  const std::vector<double>& lower = optimum.lower;
  if (optimum.unique || options_.face_rule == ThemisFaceRule::kLower) return lower;
  std::vector<double> weights;
  double used = 0.0, headroom = 0.0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    weights.push_back(jobs[i].scale_factor);
    used += weights[i] * lower[i];
    headroom += weights[i] * (1.0 - std::min(1.0, lower[i]));
  }
  if (options_.face_rule == ThemisFaceRule::kAnalyticCenter) {
    return internal::BoxKnapsackAnalyticCenter(lower, weights, num_gpus).x;
  }
  if (options_.face_rule == ThemisFaceRule::kFill) {
    const double theta = headroom > 0.0 ? std::clamp((num_gpus - used) / headroom, 0.0, 1.0) : 0.0;
    std::vector<double> x(lower.size());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = lower[i] + theta * (1.0 - lower[i]);
    return x;
  }
  LpProblem lp;  // kClpBarrier: zero objective over the face
  for (std::size_t i = 0; i < lower.size(); ++i) lp.AddColumn(lower[i], 1.0, 0.0);
  const int capacity = lp.AddRow(-kLpInfinity, num_gpus);
  for (std::size_t i = 0; i < lower.size(); ++i) {
    lp.AddEntry(capacity, static_cast<int>(i), weights[i]);
  }
  LpOptions lp_options;
  lp_options.method = LpMethod::kBarrierNoCrossover;
  lp_options.max_iterations = options_.max_iterations;
  const LpSolution solution = SolveWithClp(lp, lp_options);
  return solution.status == LpStatus::kOptimal ? solution.x : lower;
}

Allocation FinishTimeFairnessPolicy::ComputeAllocation(const ClusterState& state) {
  const char* name = aware_ ? "finish_time_fairness_perf" : "finish_time_fairness";
  internal::CheckBaselineInputs(state, name, true);
  if (state.jobs.empty()) {  // `:78-81`
    previous_remaining_steps_.clear();
    previous_isolated_throughput_.clear();
    return {};
  }
  const Cluster cluster = internal::ClusterOf(state);
  const bool several = aware_ && cluster.num_types() > 1;
  const int m = static_cast<int>(state.jobs.size());
  std::vector<ThemisJob> jobs;
  std::vector<double> isolated(m);
  std::vector<double> isolated_x;  // x^iso, m×n (several types)
  bool convex = true;
  for (int i = 0; i < m; ++i) {
    const ActiveJobView& view = state.jobs[i];
    if (several) {  // Σ_k T_ik x^iso_ik (`isolated.py:14-33`)
      const std::vector<double> shares = CapacityProportionalShares(cluster, m, view.scale_factor);
      isolated[i] = 0.0;
      for (int k = 0; k < cluster.num_types(); ++k) {
        isolated[i] += internal::ThroughputOn(view, k) * shares[k];
      }
      isolated_x.insert(isolated_x.end(), shares.begin(), shares.end());
    } else {
      isolated[i] =
          view.throughput_steps_per_s * IsolatedTimeFraction(state.num_gpus, m, view.scale_factor);
    }
    const double remaining = static_cast<double>(view.remaining_steps);
    double& cumulative = cumulative_isolated_s_[view.id];  // 0 for a new job
    if (auto it = previous_remaining_steps_.find(view.id); it != previous_remaining_steps_.end()) {
      cumulative += (it->second - remaining) / previous_isolated_throughput_.at(view.id);
    }
    ThemisJob job{view.throughput_steps_per_s, remaining, view.time_since_arrival_s,
                  cumulative + remaining / isolated[i], view.scale_factor};
    convex = convex && remaining >= 0.0 && job.expected_isolated_s > 0.0;
    jobs.push_back(job);
  }
  std::vector<double> x;
  if (!convex) {  // non-DCP in cvxpy → Isolated allocation, state not stored (`:154-157`)
    if (cluster.num_types() > 1) {
      std::map<JobId, std::vector<double>> fractions;
      for (const ActiveJobView& job : state.jobs) {
        fractions.emplace(job.id, CapacityProportionalShares(cluster, m, job.scale_factor));
      }
      return internal::ToAllocation(std::move(fractions), cluster.num_types());
    }
    for (int i = 0; i < m; ++i) {
      x.push_back(IsolatedTimeFraction(state.num_gpus, m, state.jobs[i].scale_factor));
    }
    return internal::SplitByCapacity(state, x, cluster);
  }
  if (several) {
    internal::TypedLpInputs in = internal::TypedInputs(state, cluster, name);
    in.warm_start = &warm_start_;
    x = ThemisSolveSeveralTypes(in, jobs, isolated_x).x;
  } else {
    const ThemisOptimum optimum =
        options_.solver == LpPath::kClp
            ? ThemisSolveClp(jobs, state.num_gpus, options_.max_iterations)
            : ThemisSolveClosedForm(jobs, state.num_gpus);
    x = FacePoint(jobs, optimum, state.num_gpus);
    for (double& share : x) share = std::clamp(share, 0.0, 1.0);
  }
  previous_remaining_steps_.clear();
  previous_isolated_throughput_.clear();
  for (int i = 0; i < m; ++i) {
    previous_remaining_steps_[state.jobs[i].id] = jobs[i].remaining_steps;
    previous_isolated_throughput_[state.jobs[i].id] = isolated[i];
  }
  return several ? internal::TypedAllocation(state, x, cluster)
                 : internal::SplitByCapacity(state, x, cluster);
}

}  // namespace adaptsim
