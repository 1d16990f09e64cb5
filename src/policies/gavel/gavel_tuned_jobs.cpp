// Gavel+TunedJobs on the interval engine (gavel_tuned_jobs.hpp; docs/sia.md, "Baselines:
// Gavel+TunedJobs").
#include "gavel_tuned_jobs.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "max_sum_throughput.hpp"
#include "typed_lp.hpp"

namespace adaptsim {

namespace {

// numpy's ndarray.round(decimals=5): rint(x·1e5)/1e5, half to even.
double NumpyRound5(double x) {
  return std::nearbyint(x * 1e5) / 1e5;
}

}  // namespace

GavelTunedJobsPolicy::GavelTunedJobsPolicy(const GavelTunedJobsOptions& options)
    : TunedJobsRoundPolicy(options.round_s), options_(options) {
  ValidateOptions(options_, {"policy", "gavel_tj"});
}

IntervalDecision GavelTunedJobsPolicy::Optimize(const IntervalClusterView& cluster) {
  const std::vector<IntervalNodeGroup>& groups = cluster.node_groups;
  const int n = static_cast<int>(groups.size());
  const int m = static_cast<int>(cluster.jobs.size());
  ++rounds_;

  // 1. Accounting of new jobs (gavel.py:111-125); X per job, constant (gavel.py:515-546).
  const std::vector<int> num_replicas = AddJobs(cluster);

  // 2. The LP: rows by job name, columns by type name (policy.py:26-43).
  const MatrixOrder order = OrderOf(cluster);
  internal::TypedLpInputs in;
  in.num_jobs = m;
  in.num_types = n;
  in.policy = "gavel_tj";
  for (int j : order.rows) {
    for (int t : order.columns) in.throughputs.push_back(Throughputs(cluster.jobs[j].index)[t]);
    in.scale_factors.push_back(num_replicas[j]);
  }
  for (int t : order.columns) {
    in.capacities.push_back(groups[t].num_nodes * groups[t].gpus_per_node);
  }
  const internal::TypedLpPoint point = internal::MaxSumThroughputTyped(in);
  ++lp_solves_;
  std::vector<double> x(static_cast<std::size_t>(m) * n);  // x[j·n + t], view order
  for (int r = 0; r < m; ++r) {
    for (int c = 0; c < n; ++c) {
      const double value = std::clamp(NumpyRound5(point.x[r * n + c]), 0.0, 1.0);
      x[static_cast<std::size_t>(order.rows[r]) * n + order.columns[c]] = value;
    }
  }

  // 3-6. Priorities, selection, workers, time received (gavel_rounds.hpp).
  return Schedule(cluster, x, num_replicas);
}

std::map<std::string, double> GavelTunedJobsPolicy::Statistics() const {
  return {{"gavel_tj_rounds", static_cast<double>(rounds_)},
          {"gavel_tj_lp_solves", static_cast<double>(lp_solves_)}};
}

}  // namespace adaptsim
