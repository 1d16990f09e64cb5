// The round engine's options and their field list (adaptsim/config_field.hpp): what the round loop
// (adaptsim/simulator.hpp) and the Gavel mechanism that runs an allocation policy in it
// (MakeRoundScheduler, adaptsim/gavel.hpp) read. Part of the policy interface because both
// sides read it; header-only.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "adaptsim/cluster.hpp"
#include "adaptsim/config_field.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/task_key_fields.hpp"

namespace adaptsim {

/// Where the next round starts after the cluster went idle and the clock jumped to the next
/// arrival (docs/mechanism.md §5.2 step 2, quirk Q4).
enum class IdleRoundStart {
  kReference,  ///< the reference: the round start is not advanced, so the first round after an
               ///< idle gap "executes" for the whole gap (restart overhead, deadline)
  kArrival,    ///< the round starts at the arrival the clock jumped to
};

/// The stored names of IdleRoundStart (a ChoiceEnum, adaptsim/config_field.hpp).
constexpr std::array<std::pair<IdleRoundStart, std::string_view>, 2> EnumChoices(IdleRoundStart) {
  return {{{IdleRoundStart::kReference, "reference"}, {IdleRoundStart::kArrival, "arrival"}}};
}

/// "reference" / "arrival".
inline const char* IdleRoundStartName(IdleRoundStart value) {
  return value == IdleRoundStart::kArrival ? "arrival" : "reference";
}

/// Inverse of IdleRoundStartName; throws InputError(field="idle_round_start") otherwise.
inline IdleRoundStart ParseIdleRoundStart(const std::string& name) {
  for (const auto& [value, text] : EnumChoices(IdleRoundStart{})) {
    if (text == name) return value;
  }
  throw InputError("simulation options", 0, "idle_round_start",
                   "expected " + ChoiceList<IdleRoundStart>() + ", got \"" + name + "\"");
}

/// Knobs of the mechanism; defaults reproduce the shipped reference (`tacc_32gpus`). Declared
/// field by field in VisitSimulationOptionsFields below.
struct SimulationOptions {
  int num_gpus = 32;                 ///< G, one GPU per server; the cluster's GPU count (all types)
  double round_duration_s = 120.0;   ///< T_r (`--time_per_iteration`)
  double restart_overhead_s = 20.0;  ///< lost progress of a (re)started full round (§5.2)
  double restart_slack_s = 5.0;      ///< overhead only if exec > T_r - slack (Q5)
  double deadline_factor = 1.5;      ///< force-complete when run time > int(f·int(T_excl)) (§8.3)
  double allocation_reset_interval_s = 1000.0;  ///< Gavel reset gate (§7.4)
  int max_failed_attempts = 5;                  ///< zero-step micro-tasks before removal (§8.2)
  /// Round start after an idle gap (Q4); kArrival for logs whose cluster is often idle
  /// (docs/production.md "Mechanism options for logs").
  IdleRoundStart idle_round_start = IdleRoundStart::kReference;
  /// The GPU types of the cluster and their counts (docs/mechanism.md §12); unset = num_gpus GPUs
  /// of Cluster::kDefaultGpuType. When set, num_gpus is its GPU count (TakeGpuCountFromCluster).
  std::optional<Cluster> cluster;

  /// The cluster the round engine runs on: `cluster`, or num_gpus GPUs of the default type.
  Cluster GpuCluster() const { return cluster ? *cluster : Cluster::Homogeneous(num_gpus); }
  /// num_gpus = the cluster's GPU count when `cluster` is set (a task that gives the cluster gives
  /// no num_gpus: ConfigField::instead_of); the default type alone is no cluster (num_gpus GPUs
  /// of it), so `cluster` is then reset.
  void TakeGpuCountFromCluster() {
    if (cluster) num_gpus = cluster->num_gpus();
    if (!NamesGpuTypes()) cluster.reset();
  }
  /// Whether `cluster` says more than num_gpus: several GPU types, or one other than the default.
  bool NamesGpuTypes() const { return NamesGpuTypes(cluster); }
  static bool NamesGpuTypes(const std::optional<Cluster>& cluster) {
    return cluster && !(cluster->homogeneous() && cluster->name(0) == Cluster::kDefaultGpuType);
  }
  /// Throws InputError("simulation options", 0, field, ...) when a value is outside its declared
  /// range, restart_overhead_s >= round_duration_s, or num_gpus is not the cluster's GPU count.
  void Validate() const;
};

/// A cluster field's value: the text Cluster::Parse reads ("v100=16,p100=8,k80=8", the
/// reference's "16:8:8" or "N"); throws InputError(context, 0, label, ...) naming the bad part.
inline void ReadFieldJson(const ConfigField& /*field*/, const nlohmann::json& value,
                          Cluster& member, const std::string& context, const std::string& label) {
  if (!value.is_string()) {
    throw InputError(context, 0, label,
                     "expected a string such as \"v100=16,p100=8,k80=8\", got " + value.dump());
  }
  member = Cluster::Parse(value.get<std::string>(), context, 0, label);
}

/// The canonical text (Cluster::ToString: types in worker-id order, "k80=8,p100=8,v100=16"). A
/// cluster of the default type alone is written as no cluster (null): it is num_gpus GPUs of
/// that type, and keeps the task id of a task that gives num_gpus.
inline nlohmann::json WriteFieldJson(const std::optional<Cluster>& member) {
  if (!SimulationOptions::NamesGpuTypes(member)) return nullptr;
  return member->ToString();
}

/// The field list of SimulationOptions, in sweep-expansion order (the fields /summary shows are
/// declared in adaptsim/task_key_fields.hpp). Every task carries these fields
/// (the interval engine reads num_gpus only; its tasks' ids have always included the rest).
template <typename O, typename V>
void VisitSimulationOptionsFields(O& options, V&& visit) {
  visit(kNumGpusField, options.num_gpus);
  visit(kClusterField, options.cluster);
  visit(kRoundDurationField, options.round_duration_s);
  visit(kDeadlineFactorField, options.deadline_factor);
  visit(ConfigField{.key = "restart_overhead_s",
                    .unit = "s",
                    .doc = "progress lost by a (re)started full round (docs/mechanism.md §5.2); "
                           "below round_duration_s",
                    .range = AtLeast(0)},
        options.restart_overhead_s);
  visit(ConfigField{.key = "restart_slack_s",
                    .unit = "s",
                    .doc = "the overhead applies only when a micro-task runs longer than T_r - "
                           "slack (docs/mechanism.md, quirk Q5)",
                    .range = AtLeast(0)},
        options.restart_slack_s);
  visit(
      ConfigField{.key = "allocation_reset_interval_s",
                  .unit = "s",
                  .doc = "Gavel's reset gate of the allocation re-solves (docs/mechanism.md §7.4)",
                  .range = AtLeast(0)},
      options.allocation_reset_interval_s);
  visit(ConfigField{.key = "max_failed_attempts",
                    .unit = "count",
                    .doc = "zero-step micro-tasks before a job is removed (docs/mechanism.md §8.2)",
                    .range = WholeWithin(1, 1 << 30)},
        options.max_failed_attempts);
  visit(ConfigField{.key = "idle_round_start",
                    .unit = "",
                    .doc = "round start after an idle gap: reference (kept stale, as the reference "
                           "simulator) or arrival (docs/production.md)",
                    .encoding = Encoding::kUnlessDefault},
        options.idle_round_start);
}

inline void SimulationOptions::Validate() const {
  const std::string context = "simulation options";
  VisitSimulationOptionsFields(*this, [&](const ConfigField& field, const auto& value) {
    CheckFieldRange(field, value, context);
  });
  if (restart_overhead_s >= round_duration_s) {
    throw InputError(context, 0, "restart_overhead_s", "must be below round_duration_s");
  }
  if (cluster && cluster->num_gpus() != num_gpus) {
    throw InputError(context, 0, "cluster",
                     "has " + std::to_string(cluster->num_gpus()) + " GPUs, but num_gpus is " +
                         std::to_string(num_gpus) + " (give one of them)");
  }
}

}  // namespace adaptsim
