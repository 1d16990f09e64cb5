#include "fifo.hpp"

#include <deque>
#include <map>

namespace adaptsim {

Allocation FifoPolicy::ComputeAllocation(const ClusterState& state) {
  std::map<JobId, const ActiveJobView*> active;
  for (const ActiveJobView& job : state.jobs) active[job.id] = &job;
  // The queue: active jobs not yet admitted, by ascending id (`fifo.py:91-95`).
  std::deque<const ActiveJobView*> queue;
  for (const auto& [id, job] : active) {
    if (admitted_.count(id) == 0) queue.push_back(job);
  }
  auto admit_head = [&](int& gpus_free) {
    const ActiveJobView* head = queue.front();
    queue.pop_front();
    if (head->throughput_steps_per_s > 0.0) {  // the reference skips zero throughputs
      admitted_.insert(head->id);
      gpus_free -= head->scale_factor;
    }
  };
  int gpus_free = state.num_gpus;
  if (options_.respect_capacity) {
    std::set<JobId> still_active;
    for (JobId id : admitted_) {
      if (active.count(id) == 0) continue;
      still_active.insert(id);
      gpus_free -= active[id]->scale_factor;
    }
    admitted_ = std::move(still_active);
  } else {
    // `fifo.py:101-131`: admitted jobs in id order (a snapshot: replacements admitted here are
    // not visited again). A completed job offers its place to the queue head, which is checked
    // against the GPUs counted so far; a running job's GPUs are subtracted when it is visited.
    const std::set<JobId> snapshot = admitted_;
    for (JobId id : snapshot) {
      auto running = active.find(id);
      if (running != active.end()) {
        gpus_free -= running->second->scale_factor;
        continue;
      }
      if (!queue.empty() && queue.front()->scale_factor <= gpus_free &&
          queue.front()->throughput_steps_per_s > 0.0) {
        admit_head(gpus_free);
      }
      admitted_.erase(id);
    }
  }
  // `fifo.py:133-180`: while GPUs remain, admit the queue head; stop at the first that does not
  // fit.
  while (!queue.empty() && gpus_free > 0) {
    if (queue.front()->scale_factor > gpus_free) break;
    admit_head(gpus_free);
  }
  Allocation allocation;
  for (const ActiveJobView& job : state.jobs) {
    allocation.time_fraction[job.id] = admitted_.count(job.id) != 0 ? 1.0 : 0.0;
  }
  return allocation;
}

}  // namespace adaptsim
