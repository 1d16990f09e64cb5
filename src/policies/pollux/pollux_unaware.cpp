// Pollux heterogeneity-unaware (pollux_unaware.hpp; docs/pollux.md §7).
#include "pollux_unaware.hpp"

#include <algorithm>
#include <utility>

#include "adaptsim/error.hpp"
#include "adaptsim/gpu_type_profiles.hpp"

namespace adaptsim {

// cluster_unaware.py:41-51: vnode ids in cluster order, node by node.
std::vector<VirtualNode> VirtualNodesOf(const std::vector<IntervalNodeGroup>& groups) {
  std::vector<VirtualNode> vnodes;
  for (int g = 0; g < static_cast<int>(groups.size()); ++g) {
    const IntervalNodeGroup& group = groups[g];
    if (group.gpus_per_node % kVirtualNodeGpus != 0) {
      throw InputError("cluster", 0, "gpus_per_node",
                       "pollux_unaware splits nodes into virtual nodes of " +
                           std::to_string(kVirtualNodeGpus) + " GPUs; type '" + group.gpu_type +
                           "' has " + std::to_string(group.gpus_per_node) + " GPUs per node");
    }
    for (int n = 0; n < group.num_nodes; ++n) {
      for (int v = 0; v < group.gpus_per_node / kVirtualNodeGpus; ++v) {
        vnodes.push_back({g, group.first_node + n});
      }
    }
  }
  return vnodes;
}

int FixPriority(const std::string& gpu_type) {
  static const std::map<std::string, int> kPriority = {
      {"dgx-ext", 0}, {"azure", 1}, {"quad", 2}, {"rtx", 3}, {"aws", 4}};
  const auto it = kPriority.find(gpu_type);
  return it == kPriority.end() ? static_cast<int>(kPriority.size()) : it->second;
}

// fix_allocations_by_dropping (cluster_unaware.py:448-496): Counter(types).most_common() orders
// by count, ties in first-appearance order; only the top two are compared for the priority rule.
std::vector<int> FixAllocationByDropping(const std::vector<int>& allocation,
                                         const std::vector<VirtualNode>& vnodes,
                                         const std::vector<IntervalNodeGroup>& groups) {
  std::vector<std::pair<int, int>> counts;  // (group, GPUs), in first-appearance order
  for (int v : allocation) {
    const int group = vnodes.at(v).group;
    auto it = std::find_if(counts.begin(), counts.end(),
                           [group](const auto& c) { return c.first == group; });
    if (it == counts.end()) {
      counts.emplace_back(group, 1);
    } else {
      ++it->second;
    }
  }
  if (counts.size() <= 1) return allocation;
  std::stable_sort(counts.begin(), counts.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  int chosen = counts[0].first;
  if (counts[0].second == counts[1].second &&
      FixPriority(groups[counts[1].first].gpu_type) < FixPriority(groups[chosen].gpu_type)) {
    chosen = counts[1].first;
  }
  std::vector<int> kept;
  for (int v : allocation) {
    if (vnodes[v].group == chosen) kept.push_back(v);
  }
  return kept;
}

// map_vnode_to_real_node (cluster_unaware.py:219-231).
std::vector<int> EngineNodesOf(const std::vector<int>& allocation,
                               const std::vector<VirtualNode>& vnodes) {
  std::vector<int> nodes;
  nodes.reserve(allocation.size());
  for (int v : allocation) nodes.push_back(vnodes.at(v).node);
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

// multi_simulator_unaware.py:36-41.
int UnawareMaxReplicas(const std::vector<IntervalNodeGroup>& groups) {
  int cap = 0;
  for (const IntervalNodeGroup& group : groups) {
    int gpus = group.num_nodes * group.gpus_per_node;
    if (!group.gpu_type.empty()) {
      const int max_physical =
          SiaGpuTypeNodeShape(group.gpu_type, "cluster", 0, "cluster").max_physical_nodes;
      if (max_physical > 0) gpus = std::min(gpus, group.gpus_per_node * max_physical);
    }
    cap = cap == 0 ? gpus : std::min(cap, gpus);
  }
  return std::max(cap, 1);
}

int ReferenceGroupOf(const std::vector<IntervalNodeGroup>& groups) {
  for (int g = 0; g < static_cast<int>(groups.size()); ++g) {
    if (groups[g].gpu_type == "aws") return g;
  }
  return 0;
}

PolluxUnawarePolicy::PolluxUnawarePolicy(const PolluxOptions& options)
    : pollux_(options, PolluxVariant{.placement_local_bsz_limit = true}) {}

// The merged profile (job.py:392-412): Pollux's agent keeps the first observation of each
// (N, K, m), whatever type it was measured on, and refits one model on all of them.
void PolluxUnawarePolicy::Observe(const IntervalJobView& job, const StepObservation& observation) {
  pollux_.Observe(job, observation);
}

// update_local_bsz (job.py:317-386): the merged model, the held type's batch limits (job.app).
BatchConfig PolluxUnawarePolicy::ChooseBatch(const IntervalJobView& job,
                                             const std::vector<int>& placement) {
  return pollux_.ChooseBatch(job, placement);
}

// ClusterUnaware.optimize_policy (cluster_unaware.py:134-212).
IntervalDecision PolluxUnawarePolicy::Optimize(const IntervalClusterView& cluster) {
  const std::vector<VirtualNode> vnodes = VirtualNodesOf(cluster.node_groups);
  const int reference = ReferenceGroupOf(cluster.node_groups);
  IntervalClusterView virtual_cluster;
  virtual_cluster.now_s = cluster.now_s;
  virtual_cluster.num_nodes = static_cast<int>(vnodes.size());
  virtual_cluster.gpus_per_node = kVirtualNodeGpus;
  virtual_cluster.node_groups = {{"", virtual_cluster.num_nodes, kVirtualNodeGpus, 0}};
  virtual_cluster.interval_s = cluster.interval_s;
  // The GA's δ is the engine's option (30 s by default, pollux_unaware.py:324), not the
  // per-model delays the engine charges (docs/pollux.md §7).
  virtual_cluster.restart_delay_s = cluster.restart_delay_s;
  for (const IntervalJobView& job : cluster.jobs) {
    IntervalJobView view = job;
    view.app = job.apps_by_group.at(reference);
    view.apps_by_group = {view.app};
    view.allocation.clear();  // the previous round's repaired allocation, on virtual nodes
    view.gpu_group = -1;
    if (auto it = virtual_allocations_.find(job.index); it != virtual_allocations_.end()) {
      view.allocation = it->second;
      view.gpu_group = 0;
    }
    virtual_cluster.jobs.push_back(std::move(view));
  }
  const IntervalDecision proposed =
      pollux_.Optimize(virtual_cluster, UnawareMaxReplicas(cluster.node_groups));
  virtual_allocations_.clear();
  IntervalDecision decision;
  for (const auto& [index, allocation] : proposed.allocations) {
    std::vector<int> fixed = FixAllocationByDropping(allocation, vnodes, cluster.node_groups);
    if (fixed.size() != allocation.size()) {
      dropped_gpus_ += static_cast<double>(allocation.size() - fixed.size());
      fixed_allocations_ += 1;
    }
    decision.allocations[index] = EngineNodesOf(fixed, vnodes);
    virtual_allocations_[index] = std::move(fixed);
  }
  return decision;
}

void PolluxUnawarePolicy::ShareCachesWith(IntervalPolicy& donor) {
  if (auto* other = dynamic_cast<PolluxUnawarePolicy*>(&donor)) {
    pollux_.ShareCachesWith(other->pollux_);
  }
}

std::map<std::string, double> PolluxUnawarePolicy::Statistics() const {
  std::map<std::string, double> statistics = pollux_.Statistics();
  statistics["pollux_unaware_dropped_gpus"] = dropped_gpus_;
  statistics["pollux_unaware_fixed_allocations"] = fixed_allocations_;
  return statistics;
}

}  // namespace adaptsim
