// Sia's isolated times for finish-time fairness on the interval engine (docs/sia.md §12; Sia,
// SOSP'23 §3 Eq. 3; `S:sia-simulator/ftf_simulator.py:433-570`). After a run, each job j is run
// ALONE on each GPU type g of the cluster with its fair share v_j = N / n_avg_j GPUs (N the
// cluster's GPUs, n_avg_j its mean contention, SimulationResult::mean_contention_by_job) under
// the same policy; T_g is interpolated between two such runs, and ρ_j combines JCT_j / T_g over
// the types (IsolatedFtfRho, adaptsim/metrics.hpp).
//
// One isolated run of job j on type g with GPU cap c (`simulate_single_job`, :433-499):
//   * c = 0: no run, T = 0;
//   * the cluster is min(n_g, ⌊c / g_g⌋ + 1) nodes of type g (g_g GPUs per node), the job may hold
//     min(nodes · g_g, c) GPUs (IntervalJobView::max_replicas); more nodes than the type's
//     profiled maximum: no run, T = 0 (:441-450); with fixed replicas, no run either when the
//     job's K exceeds those GPUs (the artifact asserts that K fits, :73);
//   * the job is submitted at its submission time modulo the run's interval (:486), and the
//     result is its JCT alone.
// Caps (:524-544): an elastic job runs at c = max(⌊v⌋, 1) and max(⌈v⌉, 1), or at 0 and 1 when
// v < 1; a job of a policy with fixed replicas (IntervalPolicy::FixedReplicas, TunedJobs) at 0
// and K = its workload num_replicas. T_g (:605-630): elastic, T_lo + (T_hi − T_lo)(v − ⌊v⌋)
// (T_lo when the caps agree), or T_hi / v when v < 1; fixed replicas, T_hi · max(1, K / v).
//
// Runs with the same inputs (type, cap, application, num_replicas, batch_size, submission offset)
// give the same time: each is simulated once per task (a cache), so the result does not depend on
// how many jobs share them. Deterministic.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/interval_simulator.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/simulation.hpp"

namespace adaptsim {

/// The two GPU caps of a job's isolated runs on one type.
struct IsolatedCaps {
  int lower = 0;  ///< 0 = no run (its T is 0)
  int upper = 0;
};

/// The caps for fair share `fair_share` = v > 0 GPUs (see the header comment); `fixed_replicas`
/// with the job's workload `num_replicas` K ≥ 1. Throws std::invalid_argument for v ≤ 0 or NaN.
IsolatedCaps IsolatedReplicaCaps(double fair_share, bool fixed_replicas, int num_replicas);

/// The isolated cluster of type `group` for cap `cap` ≥ 0: one group of min(n_g, ⌊cap/g_g⌋ + 1)
/// nodes (first_node 0), and in `job_cap` the most GPUs the job may hold; nullopt when cap is 0
/// or the nodes exceed the group's max_physical_nodes (> 0).
std::optional<IntervalNodeGroup> IsolatedGroup(const IntervalNodeGroup& group, int cap,
                                               int& job_cap);

/// T_g from the JCTs alone at the lower and upper caps (see the header comment), s.
double InterpolateIsolatedTime(double lower_jct_s, double upper_jct_s, double fair_share,
                               bool fixed_replicas, int num_replicas);

/// What IsolatedTimes measured.
struct IsolatedRunReport {
  std::vector<std::vector<double>> time_s;  ///< [job][group] T_g, s (0 = cannot run there)
  int runs = 0;                             ///< isolated simulations run (the cache's misses)
  /// Not kOk when an isolated run stopped on `budget` (its message): the times are then partial.
  TaskStatus status = TaskStatus::kOk;
  std::string message;
};

/// T_g of every job of `workload` on every node group of `options.Groups()` (cluster order).
/// `mean_contention` is n_avg per job (workload order; a value < 1 counts as 1); `make_policy`
/// builds the policy the run used; `profiles` gives a job's profile on a group's type. Each
/// isolated run has the options of the run (restart delays, slowdowns, restart rule, interval)
/// on its one group, and `budget`. Throws InputError / PolicyError as SimulateIntervals (a policy
/// that gives a job more than its cap is a PolicyError).
IsolatedRunReport IsolatedTimes(const PolluxWorkload& workload,
                                const IntervalProfileLookup& profiles,
                                const IntervalPolicyFactory& make_policy,
                                const IntervalSimulationOptions& options,
                                const std::vector<double>& mean_contention,
                                const RunBudget& budget = {});

}  // namespace adaptsim
