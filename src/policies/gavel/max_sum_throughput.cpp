#include "max_sum_throughput.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "adaptsim/clp_solver.hpp"
#include "adaptsim/error.hpp"
#include "baseline_inputs.hpp"
#include "typed_lp.hpp"

namespace adaptsim {

std::vector<double> MaxSumThroughputClosedForm(const std::vector<double>& throughputs,
                                               const std::vector<int>& scale_factors, int num_gpus,
                                               double tie_tolerance) {
  const std::size_t m = throughputs.size();
  std::vector<double> ratio(m), x(m, 0.0);
  for (std::size_t i = 0; i < m; ++i) ratio[i] = throughputs[i] / scale_factors[i];
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return ratio[a] > ratio[b]; });
  double capacity_left = num_gpus;
  std::size_t begin = 0;
  while (begin < m && capacity_left > 0.0) {
    const double leader = ratio[order[begin]];
    std::size_t end = begin;
    double group_gpus = 0.0;
    while (end < m && leader - ratio[order[end]] <= tie_tolerance * leader) {
      group_gpus += scale_factors[order[end]];
      ++end;
    }
    const double share = group_gpus <= capacity_left ? 1.0 : capacity_left / group_gpus;
    for (std::size_t k = begin; k < end; ++k) x[order[k]] = share;
    capacity_left = share == 1.0 ? capacity_left - group_gpus : 0.0;
    begin = end;
  }
  return x;
}

std::vector<double> MaxSumThroughputClp(const std::vector<double>& throughputs,
                                        const std::vector<int>& scale_factors, int num_gpus,
                                        int max_iterations) {
  // Rows in cvxpy's order (docs/policies.md §6): capacity, then Σ_k x_ik <= 1 per job; x >= 0
  // bounds.
  LpProblem lp;
  lp.maximize = true;
  const int m = static_cast<int>(throughputs.size());
  for (int i = 0; i < m; ++i) lp.AddColumn(0.0, kLpInfinity, throughputs[i]);
  const int capacity = lp.AddRow(-kLpInfinity, num_gpus);
  for (int i = 0; i < m; ++i) lp.AddEntry(capacity, i, scale_factors[i]);
  for (int i = 0; i < m; ++i) lp.AddEntry(lp.AddRow(-kLpInfinity, 1.0), i, 1.0);
  LpOptions options;
  options.method = LpMethod::kBarrierNoCrossover;
  options.max_iterations = max_iterations;
  LpSolution solution = SolveWithClp(lp, options);
  if (solution.status != LpStatus::kOptimal) {
    throw InputError("policy max_sum_throughput", 0, "solver",
                     "CLP returned status " + ToString(solution.status));
  }
  for (double& v : solution.x) v = std::clamp(v, 0.0, 1.0);
  return solution.x;
}

namespace internal {

TypedLpPoint MaxSumThroughputTyped(const TypedLpInputs& in) {
  try {  // a centred point of a tie (as ECOS's), else a vertex
    return MaxWeightedSum(in, in.throughputs, {}, LpMethod::kBarrierNoCrossover);
  } catch (const InputError&) {
    return MaxWeightedSum(in, in.throughputs, {}, LpMethod::kDualSimplex);
  }
}

}  // namespace internal

MaxSumThroughputPolicy::MaxSumThroughputPolicy(MaxSumThroughputOptions options)
    : options_(options) {
  ValidateOptions(options_, {"policy", "max_sum_throughput"});
}

Allocation MaxSumThroughputPolicy::ComputeAllocation(const ClusterState& state) {
  internal::CheckBaselineInputs(state, "max_sum_throughput_perf", true);
  Allocation allocation;
  if (state.jobs.empty()) return allocation;
  if (const Cluster cluster = internal::ClusterOf(state); cluster.num_types() > 1) {
    internal::TypedLpInputs in = internal::TypedInputs(state, cluster, "max_sum_throughput_perf");
    const internal::TypedLpPoint point = internal::MaxSumThroughputTyped(in);
    return internal::TypedAllocation(state, point.x, cluster);
  }
  std::vector<double> throughputs;
  std::vector<int> scale_factors;
  for (const ActiveJobView& job : state.jobs) {
    throughputs.push_back(job.throughput_steps_per_s);
    scale_factors.push_back(job.scale_factor);
  }
  std::vector<double> x =
      options_.solver == LpPath::kClp
          ? MaxSumThroughputClp(throughputs, scale_factors, state.num_gpus, options_.max_iterations)
          : MaxSumThroughputClosedForm(throughputs, scale_factors, state.num_gpus,
                                       options_.tie_tolerance);
  for (std::size_t i = 0; i < x.size(); ++i) allocation.time_fraction[state.jobs[i].id] = x[i];
  return allocation;
}

}  // namespace adaptsim
