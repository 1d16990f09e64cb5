// Tiresias on the Pollux workloads (A:simulator/tiresias.py:8-83).
#include "tiresias.hpp"

#include <algorithm>
#include <set>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "tuned_jobs.hpp"

namespace adaptsim {

BatchConfig TiresiasPolicy::ChooseBatch(const IntervalJobView& job,
                                        const std::vector<int>& placement) {
  return TunedJobBatch(job, placement);
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
