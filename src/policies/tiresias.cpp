// Tiresias on the Pollux workloads (A:simulator/tiresias.py:8-83).
#include "policies/tiresias.hpp"

#include <algorithm>
#include <set>

#include "adaptsim/error.hpp"
#include "models/pollux_goodput.hpp"
#include "policies/policy_options.hpp"
#include "workload/pollux_application.hpp"
#include "workload/pollux_workload.hpp"

namespace adaptsim {

std::unique_ptr<TiresiasPolicy> TiresiasPolicy::FromOptions(const nlohmann::json& options,
                                                            const std::string& context) {
  internal::RequireKnownOptions(options, "tiresias",
                                {"interval_s", "restart_delay_s", "interference", "gpus_per_node"},
                                context);
  return std::make_unique<TiresiasPolicy>();
}

std::vector<int> TakeMostFreeGpus(std::map<int, int>& free_gpus, int num_replicas) {
  std::vector<int> allocation;
  while (static_cast<int>(allocation.size()) < num_replicas) {
    auto best = free_gpus.end();
    for (auto it = free_gpus.begin(); it != free_gpus.end(); ++it) {
      if (best == free_gpus.end() || it->second > best->second) best = it;
    }
    ADAPTSIM_CHECK(best != free_gpus.end() && best->second > 0);
    const int take = std::min(best->second, num_replicas - static_cast<int>(allocation.size()));
    allocation.insert(allocation.end(), take, best->first);
    best->second -= take;
  }
  return allocation;
}

BatchConfig TiresiasPolicy::ChooseBatch(const IntervalJobView& job,
                                        const std::vector<int>& placement) {
  int replicas = 0;
  for (int r : placement) replicas += r;
  models::GoodputChoice fixed = models::FixedBatch(
      job.spec->batch_size, replicas, job.app->init_batch_size(), job.app->max_local_bsz());
  return {fixed.atomic_bsz, fixed.accum_steps};
}

// Queue maintenance (tiresias.py:19-61); starvation handling is off (`_solve_starvation = 0`).
void TiresiasPolicy::UpdateQueues(const IntervalClusterView& cluster, long long event_time) {
  std::set<int> active;
  for (const IntervalJobView& job : cluster.jobs) active.insert(job.index);
  auto inactive = [&](int index) { return active.count(index) == 0; };
  std::erase_if(queue_0_, inactive);
  std::erase_if(queue_1_, inactive);
  std::erase_if(counters_, [&](const auto& entry) { return inactive(entry.first); });
  for (const IntervalJobView& job : cluster.jobs) {
    if (counters_.count(job.index) == 0) {
      counters_[job.index];  // PENDING, all counters 0
      queue_0_.push_back(job.index);
    }
  }
  for (const IntervalJobView& job : cluster.jobs) {
    Counters& c = counters_[job.index];
    const long long elapsed = event_time - c.last_check;
    c.last_check = event_time;
    if (c.status == Status::kRunning) {
      c.total_executed += elapsed;
      c.executed += elapsed;
      const long long gpu_time = c.executed * job.spec->num_replicas;
      auto in_q0 = std::find(queue_0_.begin(), queue_0_.end(), job.index);
      if (in_q0 != queue_0_.end() && gpu_time >= kQueueThresholdGpuS) {
        queue_0_.erase(in_q0);
        queue_1_.push_back(job.index);
      }
    } else {
      c.pending += elapsed;
      if (c.executed > 0) c.last_pending += elapsed;
    }
  }
}

IntervalDecision TiresiasPolicy::Optimize(const IntervalClusterView& cluster) {
  const long long event_time = static_cast<long long>(cluster.now_s);
  UpdateQueues(cluster, event_time);
  std::map<int, const IntervalJobView*> jobs;
  IntervalDecision decision;
  for (const IntervalJobView& job : cluster.jobs) {
    jobs[job.index] = &job;
    if (!job.allocation.empty()) decision.allocations[job.index] = job.allocation;
  }
  // Statuses: greedy admission in queue order (tiresias.py:63-71).
  int num_gpus = cluster.num_nodes * cluster.gpus_per_node;
  for (const std::vector<int>* queue : {&queue_0_, &queue_1_}) {
    for (int index : *queue) {
      const int replicas = jobs.at(index)->spec->num_replicas;
      if (replicas <= num_gpus) {
        counters_[index].status = Status::kRunning;
        num_gpus -= replicas;
      } else {
        counters_[index].status = Status::kPending;
        decision.allocations.erase(index);
      }
    }
  }
  // Allocations for newly running jobs (tiresias.py:72-81).
  std::map<int, int> free_gpus;
  for (int node = 0; node < cluster.num_nodes; ++node) free_gpus[node] = cluster.gpus_per_node;
  for (const auto& [index, allocation] : decision.allocations) {
    for (int node : allocation) --free_gpus[node];
  }
  std::erase_if(free_gpus, [](const auto& entry) { return entry.second <= 0; });
  for (const std::vector<int>* queue : {&queue_0_, &queue_1_}) {
    for (int index : *queue) {
      if (counters_[index].status != Status::kRunning || decision.allocations.count(index)) {
        continue;
      }
      decision.allocations[index] = TakeMostFreeGpus(free_gpus, jobs.at(index)->spec->num_replicas);
    }
  }
  return decision;
}

}  // namespace adaptsim
