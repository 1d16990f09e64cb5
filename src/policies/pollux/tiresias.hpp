// Tiresias (+TunedJobs) as shipped with the Pollux artifact (docs/pollux.md §4.5;
// `A:simulator/tiresias.py:8-83`): two-queue discretised LAS. A job is demoted from Q0 to Q1 once
// executed_time · num_replicas ≥ 16 GPU-hours (integer seconds, as the artifact); starvation
// handling off. Every interval jobs are admitted greedily in priority order (Q0 in arrival order,
// then Q1 in demotion order) whenever their CSV num_replicas GPUs still fit; a running job that no
// longer fits is preempted. New allocations take GPUs from the node with the most free GPUs
// (ties: lowest node id, Counter.most_common). Each job runs at its CSV batch size
// (simulator.py:76-81). Deterministic.
#pragma once

#include <map>
#include <vector>

#include "adaptsim/interval_policy.hpp"

namespace adaptsim {

class TiresiasPolicy : public IntervalPolicy {
 public:
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) override;
  IntervalDecision Optimize(const IntervalClusterView& cluster) override;
  /// Every job runs on its workload num_replicas.
  bool FixedReplicas() const override { return true; }

 private:
  enum class Status { kPending, kRunning };
  struct Counters {
    Status status = Status::kPending;
    long long last_check = 0, total_executed = 0, executed = 0, last_pending = 0, pending = 0;
  };
  void UpdateQueues(const IntervalClusterView& cluster, long long event_time);

  static constexpr long long kQueueThresholdGpuS = 3600 * 16;
  std::vector<int> queue_0_, queue_1_;
  std::map<int, Counters> counters_;  // active jobs only
};

}  // namespace adaptsim
