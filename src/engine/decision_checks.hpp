// What the engines accept from a policy (docs/python.md §3 and §5; the same rules for C++ and
// Python policies): a decision the engine cannot honour is refused with a PolicyError naming the
// method, the round (or the time), the job and the numbers, instead of failing deep inside
// placement or running something the policy did not mean.
#pragma once

#include "adaptsim/cluster_state.hpp"
#include "adaptsim/interval_policy.hpp"
#include "adaptsim/policy.hpp"

namespace adaptsim {

/// Throws PolicyError(method "plan_round") unless every job of `plan` is an active job of `state`
/// named once; a job given explicit workers has scale_factor distinct GPUs in [0, num_gpus) of one
/// GPU type that no other planned job uses; every other job has a GPU type of state.cluster
/// (PlannedJob::gpu_type; -1 only on a cluster of one type); per type, the planned jobs' scale
/// factors sum to at most the type's GPUs (state.num_gpus without a cluster); and each job's
/// throughput on its type is > 0.
void CheckRoundPlan(const RoundPlan& plan, const ClusterState& state);

/// Throws PolicyError(method "optimize") unless every job of `decision` is an active job of
/// `cluster` and its node ids are in [0, num_nodes) with at most gpus_per_node replicas per node.
void CheckIntervalDecision(const IntervalDecision& decision, const IntervalClusterView& cluster);

/// Throws PolicyError(method "optimize") when `max_replicas` > 0 and a job of `decision` holds
/// more GPUs (the fair share of an isolated run, IntervalJobView::max_replicas).
void CheckReplicaCap(const IntervalDecision& decision, const IntervalClusterView& cluster,
                     int max_replicas);

/// Throws PolicyError(method "choose_batch") unless batch.atomic_bsz >= 1 and
/// batch.accum_steps >= 0.
void CheckBatchConfig(const BatchConfig& batch, const IntervalJobView& job,
                      const std::vector<int>& placement);

}  // namespace adaptsim
