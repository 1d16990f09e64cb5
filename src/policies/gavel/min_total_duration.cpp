#include "min_total_duration.hpp"

#include <algorithm>

#include "adaptsim/analytic_center.hpp"
#include "adaptsim/clp_solver.hpp"
#include "adaptsim/error.hpp"

namespace adaptsim {

double OsspMinimalHorizon(const OsspInputs& in) {
  double per_job = 0.0, gpu_seconds = 0.0;
  for (std::size_t i = 0; i < in.throughputs.size(); ++i) {
    const double exclusive = in.remaining_steps[i] / in.throughputs[i];
    per_job = std::max(per_job, exclusive);
    gpu_seconds += in.scale_factors[i] * exclusive;
  }
  return std::max(per_job, gpu_seconds / in.num_gpus);
}

double OsspMinimalHorizonClp(const OsspInputs& in, int max_iterations) {
  LpProblem lp;
  lp.maximize = true;
  const int m = static_cast<int>(in.throughputs.size());
  for (int i = 0; i < m; ++i) lp.AddColumn(0.0, 1.0, 0.0);
  // λ <= 1/50 s⁻¹: horizons below the first probe (100 s) all replay alike; keeps N <= 0 bounded.
  const int lambda = lp.AddColumn(0.0, 1.0 / 50.0, 1.0);
  const int capacity = lp.AddRow(-kLpInfinity, in.num_gpus);
  for (int i = 0; i < m; ++i) lp.AddEntry(capacity, i, in.scale_factors[i]);
  for (int i = 0; i < m; ++i) {  // T_i x_i − λ N_i >= 0
    const int row = lp.AddRow(0.0, kLpInfinity);
    lp.AddEntry(row, i, in.throughputs[i]);
    lp.AddEntry(row, lambda, -in.remaining_steps[i]);
  }
  LpOptions options;
  options.max_iterations = max_iterations;
  LpSolution solution = SolveWithClp(lp, options);
  if (solution.status != LpStatus::kOptimal || !(solution.objective > 0.0)) {
    throw InputError("policy min_total_duration", 0, "solver",
                     "CLP returned status " + ToString(solution.status) + " for λ*");
  }
  return 1.0 / solution.objective;
}

BisectionReplay OsspReplayBisection(double minimal_horizon_s) {
  double hi = 1e6, lo = 100.0, last_hi = hi;
  BisectionReplay replay;
  bool found = false;
  while (!found) {
    while (1.05 * lo < hi) {
      const double t = (lo + hi) / 2.0;
      ++replay.probes;
      if (t >= minimal_horizon_s) {
        found = true;
        replay.horizon_s = t;
        hi = t;
      } else {
        lo = t;
      }
    }
    hi = last_hi * 10.0;
    lo = last_hi;
    last_hi *= 10.0;
  }
  return replay;
}

OsspSeveralTypesSolution OsspSolveSeveralTypes(const internal::TypedLpInputs& in,
                                               const std::vector<double>& remaining_steps) {
  OsspSeveralTypesSolution solution;
  // λ <= 1/50 s⁻¹ as in OsspMinimalHorizonClp.
  const internal::TypedLpPoint threshold =
      internal::MaxDemandScale(in, remaining_steps, 1.0 / 50.0);
  if (!(threshold.value > 0.0)) {
    throw InputError("policy " + in.policy, 0, "solver",
                     "no positive throughput scale λ* (" + std::to_string(threshold.value) + ")");
  }
  solution.minimal_horizon_s = 1.0 / threshold.value;
  solution.replay = OsspReplayBisection(solution.minimal_horizon_s);
  std::vector<double> floors(in.num_jobs), weights(in.throughputs.size(), 0.0);
  for (int i = 0; i < in.num_jobs; ++i) {
    floors[i] = remaining_steps[i] / solution.replay.horizon_s;
    for (int k = 0; k < in.num_types && floors[i] > 0.0; ++k) {
      weights[static_cast<std::size_t>(i) * in.num_types + k] = in.T(i, k) / floors[i];
    }
  }
  solution.x = internal::MaxWeightedSum(in, weights, floors, LpMethod::kDualSimplex).x;
  solution.lp_solves = 2;
  return solution;
}

MinTotalDurationPolicy::MinTotalDurationPolicy(MinTotalDurationOptions options,
                                               bool heterogeneity_aware)
    : options_(options), aware_(heterogeneity_aware) {
  ValidateOptions(options_, {"policy", aware_ ? "min_total_duration_perf" : "min_total_duration"});
}

std::vector<double> MinTotalDurationPolicy::FacePoint(const OsspInputs& in,
                                                      double horizon_s) const {
  const std::size_t m = in.throughputs.size();
  std::vector<double> lower(m), weights(m);
  for (std::size_t i = 0; i < m; ++i) {
    lower[i] = (in.remaining_steps[i] / horizon_s) / in.throughputs[i];  // T_i x_i >= N_i / T
    weights[i] = in.scale_factors[i];
  }
  if (options_.face_rule == OsspFaceRule::kVertex) return lower;
  if (options_.face_rule == OsspFaceRule::kAnalyticCenter) {
    return internal::BoxKnapsackAnalyticCenter(lower, weights, in.num_gpus).x;
  }
  LpProblem lp;  // rows in cvxpy's order: capacity, row sums, throughput constraints
  for (std::size_t i = 0; i < m; ++i) lp.AddColumn(0.0, kLpInfinity, 0.0);
  const int capacity = lp.AddRow(-kLpInfinity, in.num_gpus);
  for (std::size_t i = 0; i < m; ++i) lp.AddEntry(capacity, static_cast<int>(i), weights[i]);
  for (std::size_t i = 0; i < m; ++i) lp.AddEntry(lp.AddRow(-kLpInfinity, 1.0), int(i), 1.0);
  for (std::size_t i = 0; i < m; ++i) {
    lp.AddEntry(lp.AddRow(in.remaining_steps[i] / horizon_s, kLpInfinity), int(i),
                in.throughputs[i]);
  }
  LpOptions options;
  options.method = LpMethod::kBarrierNoCrossover;
  options.max_iterations = options_.max_iterations;
  LpSolution solution = SolveWithClp(lp, options);
  if (solution.status != LpStatus::kOptimal) return lower;  // feasible by construction
  return solution.x;
}

Allocation MinTotalDurationPolicy::ComputeAllocation(const ClusterState& state) {
  const char* name = aware_ ? "min_total_duration_perf" : "min_total_duration";
  internal::CheckBaselineInputs(state, name, true);
  if (state.jobs.empty()) return {};  // `:91-92`
  const Cluster cluster = internal::ClusterOf(state);
  if (aware_ && cluster.num_types() > 1) {
    std::vector<double> remaining;
    for (const ActiveJobView& job : state.jobs) {
      remaining.push_back(static_cast<double>(job.remaining_steps));
    }
    internal::TypedLpInputs in = internal::TypedInputs(state, cluster, name);
    in.warm_start = &warm_start_;
    return internal::TypedAllocation(state, OsspSolveSeveralTypes(in, remaining).x, cluster);
  }
  OsspInputs in;
  in.num_gpus = state.num_gpus;
  for (const ActiveJobView& job : state.jobs) {
    in.throughputs.push_back(job.throughput_steps_per_s);
    in.remaining_steps.push_back(static_cast<double>(job.remaining_steps));
    in.scale_factors.push_back(job.scale_factor);
  }
  const double minimal = options_.solver == LpPath::kClp
                             ? OsspMinimalHorizonClp(in, options_.max_iterations)
                             : OsspMinimalHorizon(in);
  const BisectionReplay replay = OsspReplayBisection(minimal);
  std::vector<double> x = FacePoint(in, replay.horizon_s);
  for (double& share : x) share = std::clamp(share, 0.0, 1.0);
  return internal::SplitByCapacity(state, x, cluster);
}

}  // namespace adaptsim
