// How many tasks rank 0 hands a worker in one message (docs/sweeps.md §3, "Batches"). No MPI.
//
// Sub-second tasks cost rank 0 one wake-up and two messages each if handed out singly; batches
// of about `target_batch_s` of expected work amortize that. The batch size comes from the tasks'
// measured wall times: seconds per unit of expected cost (ExpectedCost, sweep.hpp) over the
// tasks finished so far; before the first result every batch is one task. Batches shrink towards
// the end (at most remaining / (2 × workers) tasks) so that the last tasks still spread over all
// workers. Batching changes only which worker runs a task and when, never a task's result.
#pragma once

#include <cstddef>
#include <vector>

#include "sweep_plan.hpp"

namespace adaptsim {

struct TaskBatchingOptions {
  double target_batch_s = 0.5;  ///< expected wall time of one batch
  std::size_t max_batch = 256;  ///< upper bound on tasks per batch
};

class TaskBatcher {
 public:
  explicit TaskBatcher(TaskBatchingOptions options = {}) : options_(options) {}

  /// A task of expected cost `cost` took `wall_time_s`.
  void Observe(double cost, double wall_time_s);
  /// Measured seconds per unit of expected cost, 0 before any observation.
  double SecondsPerCost() const;
  /// Tasks in the next batch: consecutive entries of `pending` from `next`, whose expected time
  /// sums to about target_batch_s; ≥ 1 while tasks remain, 0 when none do.
  std::size_t NextBatch(const SweepPlan& plan, std::size_t next, int workers) const;

 private:
  TaskBatchingOptions options_;
  double cost_sum_ = 0;
  double time_sum_ = 0;
};

}  // namespace adaptsim
