// What the Pollux artifact's rigid baselines share ("+TunedJobs", docs/pollux.md §4.5): each job
// runs at its workload CSV's total batch size, spread over the replicas the policy grants
// (`A:simulator/simulator.py:76-81`), and new allocations take GPUs from the nodes with the most
// free GPUs (`A:simulator/tiresias.py:70-83`, `optimus.py:80-89`). Used by tiresias.cpp and
// optimus.cpp.
#pragma once

#include <map>
#include <vector>

#include "adaptsim/interval_policy.hpp"

namespace adaptsim {

/// The job's CSV batch size on `placement` (replicas per node): models::FixedBatch with the
/// application's initial batch and per-GPU cap, as (per-GPU batch m, accumulation steps s).
BatchConfig TunedJobBatch(const IntervalJobView& job, const std::vector<int>& placement);

/// Takes `num_replicas` GPUs from `free_gpus` (free count per node id), each time from the node
/// with the most free GPUs, lowest id first among ties (collections.Counter.most_common(1) over
/// node ids inserted in ascending order). Returns one node id per replica.
std::vector<int> TakeMostFreeGpus(std::map<int, int>& free_gpus, int num_replicas);

}  // namespace adaptsim
