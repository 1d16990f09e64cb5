// Sia's placement (sia_placement.hpp).
#include "sia_placement.hpp"

#include <algorithm>
#include <numeric>

#include "adaptsim/error.hpp"

namespace adaptsim {

std::vector<std::vector<int>> SiaPlaceJobs(
    const std::vector<SiaNodeGroup>& groups,
    const std::vector<std::optional<SiaConfiguration>>& jobs) {
  std::vector<std::vector<int>> placements(jobs.size());
  for (std::size_t t = 0; t < groups.size(); ++t) {
    const SiaNodeGroup& group = groups[t];
    std::vector<std::size_t> order;
    int demand = 0;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      if (jobs[j] && jobs[j]->group == static_cast<int>(t)) {
        order.push_back(j);
        demand += jobs[j]->num_gpus;
      }
    }
    if (demand > group.total_gpus()) {
      throw InputError("sia", 0, "placement",
                       "configurations on '" + group.gpu_type + "' need " + std::to_string(demand) +
                           " GPUs, the type has " + std::to_string(group.total_gpus()));
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return jobs[a]->num_gpus > jobs[b]->num_gpus;
    });
    std::vector<int> free(group.num_nodes, group.gpus_per_node);
    int pointer = 0;
    for (std::size_t j : order) {
      int left = jobs[j]->num_gpus;
      int node = pointer;
      std::vector<int>& placement = placements[j];
      int full_nodes = left / group.gpus_per_node;
      for (int checked = 0; checked < group.num_nodes && full_nodes > 0; ++checked) {
        if (free[node] == group.gpus_per_node) {
          free[node] = 0;
          left -= group.gpus_per_node;
          placement.insert(placement.end(), group.gpus_per_node, node);
          --full_nodes;
        }
        node = (node + 1) % group.num_nodes;
      }
      while (left > 0) {
        const int take = std::min(left, free[node]);
        if (take > 0) {
          left -= take;
          free[node] -= take;
          placement.insert(placement.end(), take, node);
        }
        node = (node + 1) % group.num_nodes;
      }
      pointer = node;
    }
  }
  return placements;
}

}  // namespace adaptsim
