// Input checks shared by the Shockwave-paper baselines (docs/policies.md §2): clear InputErrors
// instead of NaNs or crashes when a policy is handed an impossible snapshot.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "adaptsim/cluster_state.hpp"
#include "adaptsim/policy.hpp"

namespace adaptsim {

/// Which path computes an LP policy's optimum: the exact one-GPU-type closed form, or COIN-OR CLP
/// (the general path, kept to check the closed forms; docs/policies.md §1).
enum class LpPath { kClosedForm, kClp };

}  // namespace adaptsim

namespace adaptsim::internal {

/// Throws InputError(file="policy <name>", field=...) if the cluster has no GPU, a job's scale
/// factor is < 1 or exceeds the cluster, or (when `needs_throughput`) a job's throughput is not a
/// positive finite number.
void CheckBaselineInputs(const ClusterState& state, const std::string& policy,
                         bool needs_throughput);

/// The snapshot's cluster: *state.cluster, or state.num_gpus GPUs of the default type.
Cluster ClusterOf(const ClusterState& state);

/// T_ik, steps/s: `job`'s throughput on GPU type k (its only throughput without a per-type view).
double ThroughputOn(const ActiveJobView& job, int k);

/// x_ik per job as an Allocation: time_fraction on one GPU type (x_i0), time_fraction_by_type on
/// several.
Allocation ToAllocation(std::map<JobId, std::vector<double>> fractions, int num_types);

}  // namespace adaptsim::internal
