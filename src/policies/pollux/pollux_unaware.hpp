// Pollux heterogeneity-unaware, as the Sia artifact runs it as a baseline (docs/pollux.md §7;
// `S:sia-simulator/multi_simulator_unaware.py --policy=pollux --policy_p_val=-1`,
// `cluster_unaware.py`, `pollux_unaware.py`).
//
// The Pollux policy (pollux.hpp: its agents, its GA, exactly) decides on *virtual nodes*: every
// node of the cluster's node groups is presented as gpus_per_node / 4 virtual 4-GPU nodes, in
// cluster order, node by node (`cluster_unaware.py:41-51, 634-637`), so the GA sees one GPU type
// (the 64-GPU cluster aws=6,dgx-ext=2,rtx=3 is 16 virtual nodes × 4 GPUs). Each round:
//   1. the GA runs on the virtual cluster from each job's previous *repaired* virtual allocation
//      (`cluster_unaware.py:148-154, 211-212`), every job's max replicas also capped by
//      min over types of min(G_t, g_t · max physical nodes_t) (`multi_simulator_unaware.py:36-41`;
//      16 on the 64-GPU cluster);
//   2. "fix" repair (`fix_allocations_by_dropping`, `cluster_unaware.py:448-496`): an allocation
//      over several GPU types keeps the type with the most GPUs — ties in first-appearance order
//      (ascending virtual node id), and if the top two counts tie, the type of lower priority
//      number (dgx-ext 0 < azure 1 < quad 2 < rtx 3 < aws 4; only the top two compared) — the
//      other GPUs stay idle;
//   3. the repaired allocation is mapped to the engine's node ids (two virtual nodes of one 8-GPU
//      node are one node; `cluster_unaware.py:219-231`).
// Job side: one throughput model per job fitted on the samples of every type it ran on (the
// artifact's merged profile, `job.py:392-412`); the GA's speedups and batch limits are those of
// the reference type (aws, `job.py:226, 248`; `cluster_unaware.py:550-554`); the executed batch
// is chosen on the held type's limits (`job.py:317-386`).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "adaptsim/interval_policy.hpp"
#include "pollux.hpp"

namespace adaptsim {

/// GPUs of a virtual node: the smallest node of the Sia artifact's GPU types
/// (`S:sia-simulator/simulator_config.py:9`, `cluster_unaware.py:45-46`).
inline constexpr int kVirtualNodeGpus = 4;

/// One virtual node: its node group and the engine's node id it is part of.
struct VirtualNode {
  int group = 0;
  int node = 0;
  bool operator==(const VirtualNode&) const = default;
};

/// The virtual nodes of `groups` (cluster order, node by node, gpus_per_node / kVirtualNodeGpus
/// each). Throws InputError("cluster", 0, "gpus_per_node") when a group's node size is not a
/// multiple of kVirtualNodeGpus.
std::vector<VirtualNode> VirtualNodesOf(const std::vector<IntervalNodeGroup>& groups);

/// The rank of a GPU type in the fix repair's tie-break: dgx-ext 0, azure 1, quad 2, rtx 3, aws 4
/// (`cluster_unaware.py:450-451`); another type (including the artifact's `dgx`, missing from
/// the table) ranks after them, 5.
int FixPriority(const std::string& gpu_type);

/// The fix repair of one job's allocation (virtual node id per replica, ascending as the GA
/// gives it): the replicas on the chosen type, in the given order (docs/pollux.md §7). An
/// allocation on one type is returned unchanged.
std::vector<int> FixAllocationByDropping(const std::vector<int>& allocation,
                                         const std::vector<VirtualNode>& vnodes,
                                         const std::vector<IntervalNodeGroup>& groups);

/// The engine's node id per replica of a virtual allocation, sorted.
std::vector<int> EngineNodesOf(const std::vector<int>& allocation,
                               const std::vector<VirtualNode>& vnodes);

/// The job cap of the unaware engine: min over groups of min(G_t, g_t · max physical nodes_t),
/// with the Sia artifact's max physical nodes (SiaGpuTypeNodeShape; a group without a GPU type
/// has none), so 16 on aws=6,dgx-ext=2,rtx=3 (`multi_simulator_unaware.py:36-41`).
int UnawareMaxReplicas(const std::vector<IntervalNodeGroup>& groups);

/// The reference type's node group: the one of type aws, else the first (`cluster_unaware.py:550`
/// takes aws's profile whatever the cluster; docs/pollux.md §7).
int ReferenceGroupOf(const std::vector<IntervalNodeGroup>& groups);

class PolluxUnawarePolicy : public IntervalPolicy {
 public:
  /// The options are Pollux's (PolluxOptions: p = −1 is the value the Sia paper runs).
  /// Throws InputError("pollux", "pollux.<option>") for an option out of range.
  explicit PolluxUnawarePolicy(const PolluxOptions& options);
  void Observe(const IntervalJobView& job, const StepObservation& observation) override;
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) override;
  IntervalDecision Optimize(const IntervalClusterView& cluster) override;
  bool SupportsGpuTypes() const override { return true; }
  /// Pollux's statistics plus pollux_unaware_dropped_gpus (GPUs the fix repair left idle, summed
  /// over rounds) and pollux_unaware_fixed_allocations (allocations it repaired).
  std::map<std::string, double> Statistics() const override;
  /// Shares the fit memo of a donor of the same class (PolluxPolicy::ShareCachesWith).
  void ShareCachesWith(IntervalPolicy& donor) override;

 private:
  PolluxPolicy pollux_;
  std::map<int, std::vector<int>> virtual_allocations_;  ///< repaired, by job index
  double dropped_gpus_ = 0.0, fixed_allocations_ = 0.0;
};

}  // namespace adaptsim
