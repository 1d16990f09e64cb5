// The interval engine: the Pollux simulator's semantics (docs/pollux.md §4.4,
// `A:simulator/simulator.py:100-271`), separate from the Gavel/Shockwave round loop
// (simulator.cpp) because its time model differs: fixed intervals in which every allocated job
// steps continuously, epochs and completion inside an interval, a restart delay per
// (re)allocation, node-level placements with per-GPU batch size and accumulation steps.
// docs/pollux.md explains the choice.
//
// One interval (Cluster.step, simulator.py:206-271):
//   1. interference: nodes hosting > 1 distributed job slow every distributed job on them by
//      `interference_slowdown`;
//   2. every job steps `interval_s` (JobStep below), then the clock advances;
//   3. the policy sees the submitted, incomplete jobs and returns allocations; every job whose
//      node list changed is re-allocated (placement = counts of consecutive equal node ids; a
//      non-empty one costs `restart_delay_s` of no progress, re-chooses the batch and counts a
//      restart after the first).
// Job step (Job.step, :100-157): after the restart delay, loop: true (step, sync) time from the
// profile at (placement, m); true (sqr, var) at (M, epoch); gain = (var+sqr)/(var/scale+sqr);
// Observe(); rate = gain / (step + (step − sync)·s) · (1 − interference) progress/s; either the
// interval is used up, or the epoch ends after round((next − progress)/rate) s (half to even),
// completion when the epoch passes max_epochs − 1; the batch is re-chosen after each iteration.
// JCT = completion − submission. Not thread-safe; one simulation per thread.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "adaptsim/config_field.hpp"
#include "adaptsim/gpu_type_profiles.hpp"
#include "adaptsim/interval_policy.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/simulation.hpp"

namespace adaptsim {

/// Sia's finish-time fairness ρ on the interval engine (docs/sia.md §12): whether every job is
/// also run alone on each GPU type with its fair share after the run (Sia SOSP'23 §3 Eq. 3;
/// `S:sia-simulator/ftf_simulator.py:433-570`), and how the types' isolated times T_g combine.
enum class IsolatedFtf {
  kOff,       ///< no isolated runs: ftf_rho_type_weighted is the static ftf_rho
  kPaper,     ///< Eq. 3: ρ_j = Σ_g (N_g / N) · JCT_j / T_g
  kArtifact,  ///< the artifact's code: ρ_j = JCT_j / (Σ_g N_g T_g / Σ_g N_g) (:559-570)
};

/// The stored names of IsolatedFtf (a ChoiceEnum, adaptsim/config_field.hpp).
constexpr std::array<std::pair<IsolatedFtf, std::string_view>, 3> EnumChoices(IsolatedFtf) {
  return {{{IsolatedFtf::kOff, "off"},
           {IsolatedFtf::kPaper, "paper"},
           {IsolatedFtf::kArtifact, "artifact"}}};
}

/// Knobs; defaults are the artifact's command-line defaults (simulator.py:431-463). Declared
/// field by field (all but num_nodes, which a task derives from its GPUs) in
/// VisitIntervalOptionsFields below.
struct IntervalSimulationOptions {
  int num_nodes = 16;                  ///< `--min-nodes`
  int gpus_per_node = 4;               ///< `--num-gpus`
  double interval_s = 60.0;            ///< `--interval`, scheduling period
  double restart_delay_s = 30.0;       ///< no-progress time after each (re)allocation
  double interference_slowdown = 0.0;  ///< `--interference`, in [0, 1)
  /// Node groups of a cluster of several GPU types (docs/sia.md §5), in cluster order; empty =
  /// one group of num_nodes × gpus_per_node (the Pollux artifact's cluster). When set, num_nodes
  /// is their node count and gpus_per_node the first group's (Resolve / WithNodeGroups).
  std::vector<IntervalNodeGroup> node_groups;
  /// Per-model checkpoint-restore delay, s, by application (the Sia artifact's, docs/sia.md
  /// §4.1); an application not listed takes restart_delay_s.
  std::map<std::string, double> restart_delay_s_by_application;
  /// Per-model slowdown calibration by application: progress rates are divided by it (the Sia
  /// artifact's SLOWDOWNS, docs/sia.md §5); an application not listed is not slowed.
  std::map<std::string, double> slowdown_by_application;
  /// Whether a re-allocation that moves a job to other nodes of the same group with the same
  /// placement (replicas per node) restarts it: true in the Pollux artifact, where every changed
  /// node list re-allocates (`simulator.py:232-251`); false in the Sia artifact, whose
  /// `reallocate` restarts only on a changed placement tuple (`S:sia-simulator/job.py:524-542`;
  /// docs/sia.md §5), so such a move is free.
  bool restart_on_node_move = true;
  /// Sia's ρ from isolated runs (IsolatedFtf; run by IntervalSimulation, which can make fresh
  /// policies; SimulateIntervals ignores it). Off by default: the isolated runs cost a multiple of
  /// the run itself (docs/performance.md, "Isolated runs").
  IsolatedFtf isolated_ftf = IsolatedFtf::kOff;
  /// Most GPUs any job may hold, 0 = none (IntervalJobView::max_replicas): the fair share of the
  /// one job of an isolated run. Not a task option.
  int max_replicas_per_job = 0;

  /// The groups the engine runs: node_groups, or the one group of num_nodes × gpus_per_node.
  std::vector<IntervalNodeGroup> Groups() const;
  /// Sets node_groups (first_node numbered group by group), num_nodes and gpus_per_node.
  void WithNodeGroups(std::vector<IntervalNodeGroup> groups);
  /// Throws InputError("interval_simulation", 0, field, ...) when a value is outside its declared
  /// range, num_nodes < 1, a group has no node or no GPU, or a delay or slowdown is not positive.
  void Validate() const;
};

/// The interval engine's options as a task gives them (TaskConfig::interval): each unset one takes
/// the engine's default (IntervalSimulationOptions), gpus_per_node the input's node size. A value
/// keeps the spelling it was given (WrittenNumber), because these options were policy options
/// once and task ids hash them as written (docs/sweeps.md §4.1).
struct IntervalOptions {
  std::optional<WrittenNumber> gpus_per_node;
  std::optional<WrittenNumber> interval_s;
  std::optional<WrittenNumber> restart_delay_s;
  std::optional<WrittenNumber> interference_slowdown;
  std::optional<IsolatedFtf> isolated_ftf;
  /// The engine's options for a cluster of `num_gpus` GPUs whose input has nodes of
  /// `input_gpus_per_node` GPUs: the set values over the engine's defaults. Throws InputError
  /// ("task", 0, "num_gpus", ...) when num_gpus is not a multiple of the node size, and as
  /// IntervalSimulationOptions::Validate.
  IntervalSimulationOptions Resolve(int num_gpus, int input_gpus_per_node) const;
  /// The engine's options on a cluster of node groups (docs/sia.md §5): the set values over the
  /// defaults, node_groups = `groups`. Throws InputError("task", 0, "gpus_per_node") when
  /// gpus_per_node is set (each GPU type has its node size), and as Validate.
  IntervalSimulationOptions ResolveNodeGroups(std::vector<IntervalNodeGroup> groups) const;
};

/// A field of the interval engine's options: it belongs to tasks whose policy runs on the
/// interval engine only, and is written in the task's JSON inside "policy_options", only when
/// set, as given — where these options were when every interval policy accepted them as options,
/// so that task ids did not change when they became the engine's (docs/sweeps.md §1).
constexpr ConfigField IntervalEngineField(ConfigField field) {
  field.encoding = Encoding::kWhenSet;
  field.applies = Applies::kIntervalEngineOnly;
  field.json_parent = "policy_options";
  return field;
}

/// The field list of the interval engine's options, for IntervalSimulationOptions (the engine's
/// values) and IntervalOptions (a task's); the defaults are IntervalSimulationOptions'.
template <typename O, typename V>
void VisitIntervalOptionsFields(O& options, V&& visit) {
  static const IntervalSimulationOptions kDefaults{};
  visit(IntervalEngineField({.key = "gpus_per_node",
                             .unit = "gpus",
                             .doc = "GPUs per node of the interval engine's cluster; num_gpus "
                                    "must be a multiple",
                             .range = WholeWithin(1, 9),
                             .default_doc = "on a trace, the catalogue's node size",
                             .default_number = static_cast<double>(kDefaults.gpus_per_node)}),
        options.gpus_per_node);
  visit(IntervalEngineField({.key = "interval_s",
                             .unit = "s",
                             .doc = "scheduling interval of the interval engine (the artifact's "
                                    "--interval)",
                             .range = Above(0),
                             .default_number = kDefaults.interval_s}),
        options.interval_s);
  visit(IntervalEngineField({.key = "restart_delay_s",
                             .unit = "s",
                             .doc = "time without progress after each (re)allocation; also the "
                                    "delay in Pollux's re-allocation factor",
                             .range = AtLeast(0),
                             .default_number = kDefaults.restart_delay_s}),
        options.restart_delay_s);
  visit(IntervalEngineField({.key = "interference",
                             .unit = "1",
                             .doc = "slowdown of distributed jobs sharing a node with another "
                                    "distributed job (the artifact's --interference)",
                             .range = Within(0, 1, /*max_open=*/true),
                             .default_number = kDefaults.interference_slowdown}),
        options.interference_slowdown);
  visit(IntervalEngineField({.key = "isolated_ftf",
                             .unit = "",
                             .doc = "Sia's finish-time fairness (ftf_rho_type_weighted): \"off\", "
                                    "or run each job alone on every GPU type with its fair share "
                                    "and weigh rho by the types' GPUs (\"paper\", Eq. 3) or the "
                                    "isolated times (\"artifact\"); docs/sia.md §12",
                             .default_doc = "\"off\""}),
        options.isolated_ftf);
}

/// Runs `workload` to completion. Per-job results are in workload order (JobResult::id = index;
/// workload and IntervalJobExtras::application = application; initial_batch_size /
/// requested_gpus = the CSV's batch_size / num_replicas; final_batch_size = last total batch;
/// exclusive_time_s = the job alone on its CSV configuration, used for ρ); one RoundResult per
/// interval (worker id = node · gpus_per_node + slot); SimulationResult::mean_contention_by_job.
/// Throws InputError for unknown applications or profile look-ups outside the data.
/// `budget.max_rounds` counts intervals.
SimulationResult SimulateIntervals(const PolluxWorkload& workload, PolluxApplications& apps,
                                   IntervalPolicy& policy, const IntervalSimulationOptions& options,
                                   const RoundObserver& observer = {},
                                   const RunBudget& budget = {});

/// A job's profile on a node group's GPU type; throws InputError naming the workload row.
using IntervalProfileLookup =
    std::function<const PolluxApplication&(const PolluxJobSpec& spec, const IntervalNodeGroup&)>;

/// As above on a cluster of node groups (options.Groups()), each job's profile per group from
/// `profiles`; each job's batch runs on the type of the group it holds. A policy that declares
/// its own round length (IntervalPolicy::RoundDurationS) runs in those rounds instead of
/// options.interval_s. Throws InputError also when the cluster has several groups and the policy
/// does not declare SupportsGpuTypes(), or when the policy's round length is not > 0.
SimulationResult SimulateIntervals(const PolluxWorkload& workload,
                                   const IntervalProfileLookup& profiles, IntervalPolicy& policy,
                                   const IntervalSimulationOptions& options,
                                   const RoundObserver& observer = {},
                                   const RunBudget& budget = {});

/// The interval engine behind the Simulation seam; owns its inputs (SimulateIntervals does the
/// work). The profiles are held by pointer so that a caller may keep a reference to them.
class IntervalSimulation final : public Simulation {
 public:
  IntervalSimulation(PolluxWorkload workload, std::unique_ptr<PolluxApplications> apps,
                     std::unique_ptr<IntervalPolicy> policy,
                     const IntervalSimulationOptions& options, const RunBudget& budget = {});
  /// A cluster of node groups (options.node_groups) with per-type profiles (docs/sia.md §1).
  IntervalSimulation(PolluxWorkload workload, std::unique_ptr<GpuTypeApplications> apps,
                     std::unique_ptr<IntervalPolicy> policy,
                     const IntervalSimulationOptions& options, const RunBudget& budget = {});
  /// Runs the workload; with options.isolated_ftf on, then each job alone on every GPU type with
  /// its fair share (IsolatedTimes, adaptsim/isolated_times.hpp) into SimulationResult::isolated,
  /// with policy statistics `isolated_runs` (simulations run) and `isolated_wall_time_s`. Throws
  /// InputError(field "isolated_ftf") when isolated_ftf is on and no policy factory was set.
  SimulationResult Run(const RoundObserver& observer) override;
  /// The factory of fresh policies like the one run, which the isolated runs need.
  void SetPolicyFactory(IntervalPolicyFactory make_policy) {
    make_policy_ = std::move(make_policy);
  }

 private:
  PolluxWorkload workload_;
  std::unique_ptr<PolluxApplications> apps_;
  std::unique_ptr<GpuTypeApplications> typed_apps_;
  std::unique_ptr<IntervalPolicy> policy_;
  IntervalSimulationOptions options_;
  RunBudget budget_;
  IntervalPolicyFactory make_policy_;
};

/// Seconds job `spec` needs alone on its CSV configuration (num_replicas packed gpus_per_node per
/// node, fixed batch_size), including one restart delay. NaN when outside the profiled domain.
double PolluxExclusiveTime(const PolluxJobSpec& spec, const PolluxApplication& app,
                           int gpus_per_node, double restart_delay_s);

}  // namespace adaptsim
