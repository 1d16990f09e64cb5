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

std::vector<int> TunedJobsRoundPolicy::AddJobs(const IntervalClusterView& cluster) {
  const std::vector<bool> added = time_sharing_.AddJobs(cluster);  // gavel.py:111-125
  std::vector<int> num_replicas;
  for (std::size_t j = 0; j < cluster.jobs.size(); ++j) {
    const IntervalJobView& job = cluster.jobs[j];
    num_replicas.push_back(job.spec->num_replicas);
    if (!added[j]) continue;
    CheckTunedJobFits(job, cluster.node_groups);
    throughputs_[job.index] = TunedJobThroughputs(job, cluster.node_groups);  // gavel.py:515-546
  }
  return num_replicas;
}

TunedJobsRoundPolicy::MatrixOrder TunedJobsRoundPolicy::OrderOf(
    const IntervalClusterView& cluster) {
  MatrixOrder order;
  order.rows.resize(cluster.jobs.size());
  order.columns.resize(cluster.node_groups.size());
  std::iota(order.rows.begin(), order.rows.end(), 0);
  std::iota(order.columns.begin(), order.columns.end(), 0);
  std::stable_sort(order.rows.begin(), order.rows.end(), [&](int a, int b) {
    return cluster.jobs[a].spec->name < cluster.jobs[b].spec->name;
  });
  std::stable_sort(order.columns.begin(), order.columns.end(), [&](int a, int b) {
    return cluster.node_groups[a].gpu_type < cluster.node_groups[b].gpu_type;
  });
  return order;
}

}  // namespace adaptsim
