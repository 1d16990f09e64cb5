// Gavel+TunedJobs on the interval engine (gavel_tuned_jobs.hpp; docs/sia.md, "Baselines:
// Gavel+TunedJobs").
#include "gavel_tuned_jobs.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>
#include <set>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_goodput.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "max_sum_throughput.hpp"
#include "typed_lp.hpp"

namespace adaptsim {

namespace {

constexpr double kOutOfReachThroughput = 1e-1;  // gavel.py:520-522

// numpy's ndarray.round(decimals=5): rint(x·1e5)/1e5, half to even.
double NumpyRound5(double x) {
  return std::nearbyint(x * 1e5) / 1e5;
}

int Sum(const std::vector<int>& values) {
  return std::accumulate(values.begin(), values.end(), 0);
}

}  // namespace

int GavelLargestConfigurationGpus(int gpus_per_node, int num_nodes) {
  if (gpus_per_node == 4) return std::min(num_nodes, 16) * 4;  // CONFIGS_4GPU, gavel.py:10-11
  if (gpus_per_node == 8) return std::min(num_nodes, 8) * 8;   // CONFIGS_8GPU, gavel.py:13-14
  throw InputError("gavel_tj", 0, "cluster",
                   "Gavel's configurations are defined for nodes of 4 or 8 GPUs, not " +
                       std::to_string(gpus_per_node));
}

double GavelTunedJobThroughput(const PolluxApplication& app, int gpus_per_node, int num_nodes,
                               int num_replicas, int batch_size, double slowdown) {
  // gavel.py:517-522: the node size is the largest configuration's GPUs per node, g_t.
  if (num_replicas > GavelLargestConfigurationGpus(gpus_per_node, num_nodes)) {
    return kOutOfReachThroughput;
  }
  const int per_node = gpus_per_node == 4 ? 4 : 8;
  const std::vector<int> placement = PackedPlacement(num_replicas, per_node);  // :523-525
  // :527-533 is FixedBatch's rule except that s >= 1 whenever K = 1: FixedBatch with M0 = 0.
  const models::GoodputChoice fixed = models::FixedBatch(
      batch_size, num_replicas, /*init_batch_size=*/0, app.MaxLocalBszAt(placement));
  const int accum_steps = fixed.accum_steps;
  const int count = num_replicas * (accum_steps + 1);  // :534-536
  const int atomic_bsz = std::min(fixed.atomic_bsz, app.max_batch_size() / count);
  const StepTimes times = app.Throughput(placement, atomic_bsz);  // :539-541
  const double throughput =
      1.0 / (times.step_time_s + (times.step_time_s - times.sync_time_s) * accum_steps);
  return throughput * (1.0 / slowdown);  // :545, slowdown_factor = 1/SLOWDOWN (cluster.py:498)
}

BatchConfig GavelTunedJobBatch(const PolluxApplication& app, int batch_size,
                               const std::vector<int>& placement) {
  const int num_replicas = Sum(placement);
  const models::GoodputChoice fixed = models::FixedBatch(
      batch_size, num_replicas, app.init_batch_size(), app.MaxLocalBszAt(placement));
  BatchConfig batch{fixed.atomic_bsz, fixed.accum_steps};
  // job.py:375-382: the memory cap at K replicas, when K was profiled.
  if (const int cap = app.MaxLocalBszAtReplicas(num_replicas); cap > 0) {
    batch.atomic_bsz = std::min(batch.atomic_bsz, cap);
  }
  return batch;
}

std::vector<int> GavelSelectJobs(std::vector<GavelEntry> entries,
                                 const std::vector<int>& num_replicas,
                                 const std::vector<int>& gpus) {
  // sorted(key=(priority, deficit 0, x), reverse=True): stable (gavel.py:305).
  std::stable_sort(entries.begin(), entries.end(), [](const GavelEntry& a, const GavelEntry& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    return a.allocation > b.allocation;
  });
  std::vector<int> chosen(num_replicas.size(), -1);
  std::vector<int> free = gpus;
  for (const GavelEntry& entry : entries) {  // gavel.py:310-328
    if (free[entry.type] == 0 || chosen[entry.job] >= 0) continue;
    if (num_replicas[entry.job] > free[entry.type]) continue;
    free[entry.type] -= num_replicas[entry.job];
    chosen[entry.job] = entry.type;
  }
  return chosen;
}

std::map<int, std::vector<int>> GavelAssignWorkers(const std::vector<std::pair<int, int>>& jobs,
                                                   const std::map<int, std::vector<int>>& previous,
                                                   int num_servers, int gpus_per_server) {
  // Jobs by descending K, stable (gavel.py:373); each server's free-worker list (:374-380).
  std::vector<std::pair<int, int>> order = jobs;
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::deque<int>> servers(num_servers);
  for (int s = 0; s < num_servers; ++s) {
    for (int g = 0; g < gpus_per_server; ++g) servers[s].push_back(s * gpus_per_server + g);
  }
  std::set<int> assigned;
  std::size_t pointer = 0;
  std::map<int, std::vector<int>> workers;
  std::set<int, std::greater<>> sizes;
  for (const auto& [job, k] : order) sizes.insert(k);
  for (int size : sizes) {                // gavel.py:396-427
    for (const auto& [job, k] : order) {  // keep the previous workers when none is taken yet
      if (k != size) continue;
      auto it = previous.find(job);
      if (it == previous.end()) continue;
      const std::vector<int>& held = it->second;
      if (std::none_of(held.begin(), held.end(), [&](int w) { return assigned.count(w) > 0; })) {
        workers[job] = held;
        assigned.insert(held.begin(), held.end());
      }
    }
    for (const auto& [job, k] : order) {  // the others from the server pointer (:332-358)
      if (k != size || workers.count(job) > 0) continue;
      std::vector<int>& taken = workers[job];
      while (static_cast<int>(taken.size()) < k && pointer < servers.size()) {
        if (servers[pointer].empty()) {
          ++pointer;
          continue;
        }
        const int worker = servers[pointer].front();
        if (assigned.insert(worker).second) taken.push_back(worker);
        servers[pointer].pop_front();
      }
      ADAPTSIM_CHECK(static_cast<int>(taken.size()) == k);  // the selection fits the type
    }
  }
  return workers;
}

GavelTunedJobsPolicy::GavelTunedJobsPolicy(const GavelTunedJobsOptions& options)
    : options_(options) {
  ValidateOptions(options_, {"policy", "gavel_tj"});
}

BatchConfig GavelTunedJobsPolicy::ChooseBatch(const IntervalJobView& job,
                                              const std::vector<int>& placement) {
  return GavelTunedJobBatch(*job.app, job.spec->batch_size, placement);
}

IntervalDecision GavelTunedJobsPolicy::Optimize(const IntervalClusterView& cluster) {
  const std::vector<IntervalNodeGroup>& groups = cluster.node_groups;
  const int n = static_cast<int>(groups.size());
  const int m = static_cast<int>(cluster.jobs.size());
  const double round_s = cluster.interval_s;
  std::vector<int> gpus(n);
  for (int t = 0; t < n; ++t) gpus[t] = groups[t].num_nodes * groups[t].gpus_per_node;
  if (cluster_time_s_.empty()) cluster_time_s_.assign(n, 0.0);
  ++rounds_;

  // 1. Accounting of new jobs (gavel.py:111-125); X per job, constant (gavel.py:515-546).
  std::vector<int> num_replicas(m);
  for (int j = 0; j < m; ++j) {
    const IntervalJobView& job = cluster.jobs[j];
    num_replicas[j] = job.spec->num_replicas;
    if (job_time_s_.count(job.index) > 0) continue;
    if (*std::max_element(gpus.begin(), gpus.end()) < num_replicas[j]) {
      throw InputError("workload", job.spec->line, "num_replicas",
                       job.spec->name + " needs " + std::to_string(num_replicas[j]) +
                           " GPUs; no GPU type of the cluster has that many");
    }
    job_time_s_[job.index].assign(n, round_s / 2);
    for (int t = 0; t < n; ++t) cluster_time_s_[t] += round_s / 2;
    std::vector<double>& x = throughputs_[job.index];
    for (int t = 0; t < n; ++t) {
      x.push_back(GavelTunedJobThroughput(*job.apps_by_group[t], groups[t].gpus_per_node,
                                          groups[t].num_nodes, num_replicas[j],
                                          job.spec->batch_size, job.slowdown));
    }
  }

  // 2. The LP: rows by job name, columns by type name (policy.py:26-43).
  std::vector<int> rows(m), columns(n);
  std::iota(rows.begin(), rows.end(), 0);
  std::iota(columns.begin(), columns.end(), 0);
  std::stable_sort(rows.begin(), rows.end(), [&](int a, int b) {
    return cluster.jobs[a].spec->name < cluster.jobs[b].spec->name;
  });
  std::stable_sort(columns.begin(), columns.end(),
                   [&](int a, int b) { return groups[a].gpu_type < groups[b].gpu_type; });
  internal::TypedLpInputs in;
  in.num_jobs = m;
  in.num_types = n;
  in.policy = "gavel_tj";
  for (int j : rows) {
    for (int t : columns) in.throughputs.push_back(throughputs_[cluster.jobs[j].index][t]);
    in.scale_factors.push_back(num_replicas[j]);
  }
  for (int t : columns) in.capacities.push_back(gpus[t]);
  const internal::TypedLpPoint point = internal::MaxSumThroughputTyped(in);
  ++lp_solves_;
  std::vector<double> x(static_cast<std::size_t>(m) * n);  // x[j·n + t], view order
  for (int r = 0; r < m; ++r) {
    for (int c = 0; c < n; ++c) {
      const double value = std::clamp(NumpyRound5(point.x[r * n + c]), 0.0, 1.0);
      x[static_cast<std::size_t>(rows[r]) * n + columns[c]] = value;
    }
  }

  // 3-4. Priorities and the selection (gavel.py:249-330), types in cluster order.
  std::vector<GavelEntry> entries;
  for (int t = 0; t < n; ++t) {
    for (int j = 0; j < m; ++j) {
      const double allocation = x[static_cast<std::size_t>(j) * n + t];
      const double fraction = job_time_s_[cluster.jobs[j].index][t] / cluster_time_s_[t];
      entries.push_back({j, t, allocation == 0.0 ? 0.0 : allocation / fraction, allocation});
    }
  }
  const std::vector<int> chosen = GavelSelectJobs(std::move(entries), num_replicas, gpus);

  // 5. Workers per type (gavel.py:360-441), then nodes.
  IntervalDecision decision;
  std::map<int, std::pair<int, std::vector<int>>> next_workers;
  for (int t = 0; t < n; ++t) {
    std::vector<std::pair<int, int>> scheduled;
    std::map<int, std::vector<int>> previous;
    for (int j = 0; j < m; ++j) {
      if (chosen[j] != t) continue;
      const int index = cluster.jobs[j].index;
      scheduled.emplace_back(index, num_replicas[j]);
      auto it = previous_workers_.find(index);
      if (it != previous_workers_.end() && it->second.first == t)
        previous[index] = it->second.second;
    }
    const std::map<int, std::vector<int>> workers =
        GavelAssignWorkers(scheduled, previous, groups[t].num_nodes, groups[t].gpus_per_node);
    for (const auto& [index, held] : workers) {
      std::vector<int>& nodes = decision.allocations[index];
      for (int worker : held)
        nodes.push_back(groups[t].first_node + worker / groups[t].gpus_per_node);
      next_workers[index] = {t, held};
      // 6. Time received (gavel.py:505-510).
      job_time_s_[index][t] += round_s;
      cluster_time_s_[t] += round_s;
    }
  }
  previous_workers_ = std::move(next_workers);
  return decision;
}

std::map<std::string, double> GavelTunedJobsPolicy::Statistics() const {
  return {{"gavel_tj_rounds", static_cast<double>(rounds_)},
          {"gavel_tj_lp_solves", static_cast<double>(lp_solves_)}};
}

}  // namespace adaptsim
