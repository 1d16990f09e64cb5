// Gavel's time-sharing in whole rounds on the interval engine (gavel_rounds.hpp; docs/sia.md,
// "Baselines: Gavel+TunedJobs").
#include "adaptsim/gavel_rounds.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <set>

#include "adaptsim/error.hpp"

namespace adaptsim {

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

std::vector<bool> GavelRounds::AddJobs(const IntervalClusterView& cluster) {
  const int n = static_cast<int>(cluster.node_groups.size());
  const double round_s = cluster.interval_s;
  if (cluster_time_s_.empty()) cluster_time_s_.assign(n, 0.0);
  std::vector<bool> added;
  for (const IntervalJobView& job : cluster.jobs) {
    const bool is_new = job_time_s_.count(job.index) == 0;
    added.push_back(is_new);
    if (!is_new) continue;
    job_time_s_[job.index].assign(n, round_s / 2);  // gavel.py:111-125
    for (int t = 0; t < n; ++t) cluster_time_s_[t] += round_s / 2;
  }
  return added;
}

IntervalDecision GavelRounds::Schedule(const IntervalClusterView& cluster,
                                       const std::vector<double>& x,
                                       const std::vector<int>& num_replicas) {
  const std::vector<IntervalNodeGroup>& groups = cluster.node_groups;
  const int n = static_cast<int>(groups.size());
  const int m = static_cast<int>(cluster.jobs.size());
  const double round_s = cluster.interval_s;
  std::vector<int> gpus(n);
  for (int t = 0; t < n; ++t) gpus[t] = groups[t].num_nodes * groups[t].gpus_per_node;

  // 3-4. Priorities and the selection (gavel.py:249-330), types in cluster order.
  std::vector<GavelEntry> entries;
  for (int t = 0; t < n; ++t) {
    for (int j = 0; j < m; ++j) {
      const double allocation = x[static_cast<std::size_t>(j) * n + t];
      const double fraction = job_time_s_.at(cluster.jobs[j].index)[t] / cluster_time_s_[t];
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

}  // namespace adaptsim
