// What every "+TunedJobs" round policy shares (tuned_jobs_round_policy.hpp; docs/sia.md §9).
#include "tuned_jobs_round_policy.hpp"

#include <algorithm>
#include <numeric>

#include "adaptsim/job_mapping.hpp"
#include "adaptsim/pollux_workload.hpp"

namespace adaptsim {

BatchConfig TunedJobsRoundPolicy::ChooseBatch(const IntervalJobView& job,
                                              const std::vector<int>& placement) {
  return GavelTunedJobBatch(*job.app, job.spec->batch_size, placement);
}

IntervalDecision TunedJobsRoundPolicy::Optimize(const IntervalClusterView& cluster) {
  const std::vector<IntervalNodeGroup>& groups = cluster.node_groups;
  const int n = static_cast<int>(groups.size());
  const int m = static_cast<int>(cluster.jobs.size());

  // 1. Accounting of new jobs (gavel.py:111-125); X per job, constant (gavel.py:515-546).
  const std::vector<bool> added = time_sharing_.AddJobs(cluster);
  std::vector<int> num_replicas;
  for (int j = 0; j < m; ++j) {
    const IntervalJobView& job = cluster.jobs[j];
    num_replicas.push_back(job.spec->num_replicas);
    if (!added[j]) continue;
    CheckTunedJobFits(job, groups);
    throughputs_[job.index] = TunedJobThroughputs(job, groups);
  }

  // 2. The policy's fractions: rows by job name, columns by type name (policy.py:26-43).
  std::vector<int> rows(m), columns(n);
  std::iota(rows.begin(), rows.end(), 0);
  std::iota(columns.begin(), columns.end(), 0);
  std::stable_sort(rows.begin(), rows.end(), [&](int a, int b) {
    return cluster.jobs[a].spec->name < cluster.jobs[b].spec->name;
  });
  std::stable_sort(columns.begin(), columns.end(),
                   [&](int a, int b) { return groups[a].gpu_type < groups[b].gpu_type; });
  std::vector<TunedJobRoundView> views;
  for (int j : rows) {
    const IntervalJobView& job = cluster.jobs[j];
    std::vector<double> throughputs;
    for (int t : columns) throughputs.push_back(throughputs_.at(job.index)[t]);
    views.push_back(MakeTunedJobRoundView(job, cluster.interval_s, std::move(throughputs)));
  }
  std::vector<int> capacities;
  for (int t : columns) capacities.push_back(groups[t].num_nodes * groups[t].gpus_per_node);
  const std::vector<double> fractions = Fractions(views, capacities);
  std::vector<double> x(static_cast<std::size_t>(m) * n);  // x[j·n + t], view order
  for (int r = 0; r < m; ++r) {
    for (int c = 0; c < n; ++c) {
      x[static_cast<std::size_t>(rows[r]) * n + columns[c]] =
          fractions[static_cast<std::size_t>(r) * n + c];
    }
  }

  // 3-6. Priorities, selection, workers, time received (gavel_rounds.hpp).
  return time_sharing_.Schedule(cluster, x, num_replicas);
}

}  // namespace adaptsim
