// Optimus+Oracle (+TunedJobs) as shipped with the Pollux artifact (docs/pollux.md §4.5;
// `A:simulator/optimus.py:10-73`, job info `A:simulator/simulator.py:338-355`). Every active job
// gets one GPU (workload order while GPUs last); remaining GPUs go one at a time to the job with
// the largest marginal gain (T_step(k) − T_step(k+1)) · remaining_iterations, where T_step is the
// TRUE profiled step time (oracle) at the CSV batch size on k GPUs packed per node, and
// remaining_iterations = iterations(M, completion epoch) − iterations(M, current epoch) (1 once
// in the last epoch); ties go to the earliest job. max_replicas = batch_size // min_local_bsz
// (1 for ncf). Jobs whose GPU count is unchanged keep their nodes; the others, in ascending GPU
// count, take GPUs from the nodes with the most free GPUs. Deterministic.
#pragma once

#include <vector>

#include "adaptsim/interval_policy.hpp"

namespace adaptsim {

class OptimusPolicy : public IntervalPolicy {
 public:
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) override;
  IntervalDecision Optimize(const IntervalClusterView& cluster) override;
};

/// The oracle's seconds per optimizer step of `job` on `num_replicas` GPUs packed `per_node` per
/// node at its CSV batch size (optimus.py:75-89; note s ≥ 1 whenever K == 1).
double OptimusStepTime(const IntervalJobView& job, int num_replicas, int per_node);

}  // namespace adaptsim
