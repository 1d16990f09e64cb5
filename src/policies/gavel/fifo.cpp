#include "fifo.hpp"

#include <deque>

#include "baseline_inputs.hpp"

namespace adaptsim {

FifoPolicy::FifoPolicy(FifoOptions options, FifoMode mode, std::uint64_t seed)
    : options_(options), mode_(mode), rng_(seed) {}

Allocation FifoPolicy::ComputeAllocation(const ClusterState& state) {
  const Cluster cluster = internal::ClusterOf(state);
  const int num_types = cluster.num_types();
  std::map<JobId, const ActiveJobView*> active;
  for (const ActiveJobView& job : state.jobs) active[job.id] = &job;
  if (mode_ == FifoMode::kPerf) admitted_.clear();  // `fifo.py:87-89`
  // The queue: active jobs not yet admitted, by ascending id (`fifo.py:91-95`).
  std::deque<const ActiveJobView*> queue;
  for (const auto& [id, job] : active) {
    if (admitted_.count(id) == 0) queue.push_back(job);
  }
  std::vector<int> available(num_types);  // `available_workers`, may go negative
  for (int k = 0; k < num_types; ++k) available[k] = cluster.count(k);
  if (options_.respect_capacity) {
    std::erase_if(admitted_, [&](const auto& entry) { return active.count(entry.first) == 0; });
    for (const auto& [id, k] : admitted_) available[k] -= active[id]->scale_factor;
  } else {
    // `fifo.py:101-131`: admitted jobs in id order (a snapshot: replacements admitted here are
    // not visited again). A completed job offers its place on its type to the queue head, which
    // is checked against that type's GPUs counted so far; a running job's GPUs are subtracted
    // when it is visited.
    const std::map<JobId, int> snapshot = admitted_;
    for (const auto& [id, k] : snapshot) {
      auto running = active.find(id);
      if (running != active.end()) {
        available[k] -= running->second->scale_factor;
        continue;
      }
      if (!queue.empty() && queue.front()->scale_factor <= available[k] &&
          internal::ThroughputOn(*queue.front(), k) > 0.0) {
        admitted_[queue.front()->id] = k;
        available[k] -= queue.front()->scale_factor;
        queue.pop_front();
      }
      admitted_.erase(id);
    }
  }
  // `fifo.py:133-180`: the available types in name order; while both remain, the queue head goes
  // to a type with room; stop at the first job that fits nowhere.
  std::vector<int> types;
  for (int k = 0; k < num_types; ++k) {
    if (available[k] > 0) types.push_back(k);
  }
  while (!queue.empty() && !types.empty()) {
    const ActiveJobView* head = queue.front();
    queue.pop_front();
    std::vector<std::size_t> with_room;  // positions in `types`
    for (std::size_t i = 0; i < types.size(); ++i) {
      if (available[types[i]] >= head->scale_factor) with_room.push_back(i);
    }
    if (with_room.empty()) break;
    std::size_t chosen = 0;  // index into with_room
    int type = 0;
    if (mode_ == FifoMode::kBase) {
      chosen = rng_.RandBelow(static_cast<std::uint32_t>(with_room.size()));
      // The reference's `worker_type` is still the scan's loop variable (`:146`, `:154-157`).
      type = options_.type_choice == FifoTypeChoice::kReference ? types.back()
                                                                : types[with_room[chosen]];
    } else {
      double best = -1.0;  // fastest type, ties to the first in name order (`:158-170`)
      for (std::size_t e = 0; e < with_room.size(); ++e) {
        const double throughput = internal::ThroughputOn(*head, types[with_room[e]]);
        if (throughput > best) best = throughput, chosen = e, type = types[with_room[e]];
      }
    }
    if (internal::ThroughputOn(*head, type) > 0.0) {  // else dropped for this call
      admitted_[head->id] = type;
      available[type] -= head->scale_factor;
      // Removes the chosen entry, which is `type` itself except for the reference's choice.
      if (available[type] == 0) types.erase(types.begin() + with_room[chosen]);
    }
  }
  std::map<JobId, std::vector<double>> fractions;
  for (const ActiveJobView& job : state.jobs) {
    std::vector<double> x(num_types, 0.0);
    if (auto it = admitted_.find(job.id); it != admitted_.end()) x[it->second] = 1.0;
    fractions.emplace(job.id, std::move(x));
  }
  return internal::ToAllocation(std::move(fractions), num_types);
}

}  // namespace adaptsim
