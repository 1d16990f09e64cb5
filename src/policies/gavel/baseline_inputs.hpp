// What the Shockwave-paper baselines share: input checks (docs/policies.md §2: clear InputErrors
// instead of NaNs or crashes when a policy is handed an impossible snapshot) and the options that
// several of them take (face_rule, solver, max_iterations), declared here once.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "adaptsim/cluster_state.hpp"
#include "adaptsim/policy.hpp"
#include "adaptsim/policy_options.hpp"

namespace adaptsim {

/// Which path computes an LP policy's optimum: the exact one-GPU-type closed form, or COIN-OR CLP
/// (the general path, kept to check the closed forms; docs/policies.md §1).
enum class LpPath { kClosedForm, kClp };

/// The solver options of the LP policies (min_total_duration, finish_time_fairness,
/// max_sum_throughput), whose options structs derive from it.
struct LpPathOptions {
  LpPath solver = LpPath::kClosedForm;
  int max_iterations = 1000;  ///< CLP iteration limit per LP (simplex pivots / barrier iterations)

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("solver", "",
                 Choices<LpPath>{
                     {"closed_form", LpPath::kClosedForm, "exact, the reference's optimum"},
                     {"clp", LpPath::kClp, "the LP solved by CLP"}}),
          self.solver);
    visit(Option("max_iterations", "CLP iteration limit per LP (solver = clp)", Within(1, 1e9)),
          self.max_iterations);
  }
};

/// The `face_rule` option of a policy whose optimum is not unique: which point of the optimal
/// face it returns (docs/policies.md §6), one of `rules`.
template <typename T>
OptionSpec<Choices<T>> FaceRuleOption(Choices<T> rules) {
  return Option("face_rule", "point of a non-unique optimal face (docs/policies.md §6)",
                std::move(rules));
}

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

/// A heterogeneity-agnostic policy's allocation: y_i (the share of the one-type problem on all
/// G GPUs, jobs in state order) split over the types in proportion to their GPUs,
/// x_ik = y_i · (C_k / G) (docs/policies.md §3.7). On one type x_i = y_i exactly.
Allocation SplitByCapacity(const ClusterState& state, const std::vector<double>& shares,
                           const Cluster& cluster);

}  // namespace adaptsim::internal
