#include "task_batching.hpp"

#include <algorithm>

namespace adaptsim {

void TaskBatcher::Observe(double cost, double wall_time_s) {
  if (!(cost > 0) || !(wall_time_s >= 0)) return;
  cost_sum_ += cost;
  time_sum_ += wall_time_s;
}

double TaskBatcher::SecondsPerCost() const {
  return cost_sum_ > 0 ? time_sum_ / cost_sum_ : 0.0;
}

std::size_t TaskBatcher::NextBatch(const SweepPlan& plan, std::size_t next, int workers) const {
  const std::size_t remaining = plan.pending.size() - std::min(next, plan.pending.size());
  if (remaining == 0) return 0;
  const double per_cost = SecondsPerCost();
  if (per_cost <= 0) return 1;  // nothing measured yet
  const std::size_t tail_limit =
      std::max<std::size_t>(1, remaining / (2 * static_cast<std::size_t>(std::max(1, workers))));
  const std::size_t limit = std::min({remaining, tail_limit, options_.max_batch});
  std::size_t size = 0;
  double expected_s = 0;
  while (size < limit && (size == 0 || expected_s < options_.target_batch_s)) {
    expected_s += per_cost * plan.tasks[plan.pending[next + size]].cost;
    ++size;
  }
  return size;
}

}  // namespace adaptsim
