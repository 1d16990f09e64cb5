// The field list of a task's configuration (TaskConfig), declared once (adaptsim/config_field.hpp;
// docs/architecture.md, "Task configuration"). VisitTaskConfigFields calls `visit(field, member)`
// for every field, in sweep-expansion order (outermost first); `T` may be const (reading fields)
// or not (filling them). It drives
//   * TaskConfig::ToJson / FromJson / IdentityJson: the canonical JSON and the task id
//     (src/task/task.cpp),
//   * the sweep spec's keys, their validation, their default expansion order, and the expansion
//     (src/sweep/sweep_spec.cpp, sweep_expand.cpp; docs/sweeps.md §1),
//   * the flags of `adaptsim run` and their --help text (src/app/run_command.cpp),
//   * the keyword arguments of the Python `adaptsim.run` and its docstring (python/src/module.cpp,
//     TaskConfigFromArguments),
// so a field added to an options struct's list reaches all of them; its docs are
// docs/sweeps.md §1, docs/python.md and docs/results-format.md (a test checks that they name it).
#pragma once

#include <concepts>
#include <optional>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "adaptsim/config_field.hpp"
#include "adaptsim/interval_simulator.hpp"
#include "adaptsim/production_source.hpp"
#include "adaptsim/simulation_options.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_key_fields.hpp"

namespace adaptsim {

/// The key of the policy-options field: "<policy>.<option>" sweep keys, `--policy-option`, the
/// remaining keywords of adaptsim.run.
inline constexpr std::string_view kPolicyOptionsKey = kPolicyOptionsField.key;

template <typename T, typename V>
requires std::same_as<std::remove_const_t<T>, TaskConfig>
void VisitTaskConfigFields(T& task, V&& visit) {
  // The [production] keys expand with the traces they select from (outermost).
  visit(
      ConfigField{.key = "production",
                  .unit = "",
                  .doc = "a production job log's selection and model rule, a table of the options "
                         "of docs/production.md (\"Running a log\"); trace_path is then the log",
                  .encoding = Encoding::kWhenSet,
                  .flag = kNotExposed},
      task.production);
  visit(ConfigField{.key = "trace_path",
                    .unit = "",
                    .doc = "job trace (.trace), Pollux workload CSV, or production job log",
                    .axis = "traces",
                    .flag = "--trace",
                    .kwarg = "trace",
                    .text = TextKind::kFile,
                    .required = true,
                    .identified_by = "trace_hash"},
        task.trace_path);
  visit(ConfigField{.key = "throughputs_path",
                    .unit = "",
                    .doc = "throughputs JSON, catalogue TOML, or Pollux profile folder",
                    .axis = "throughputs",
                    .flag = "--throughputs",
                    .kwarg = "throughputs",
                    .text = TextKind::kFileOrFolder,
                    .required = true,
                    .identified_by = "throughputs_hash"},
        task.throughputs_path);
  visit(kPolicyField, task.policy);
  VisitSimulationOptionsFields(task.simulation, visit);
  visit(kPolicyOptionsField, task.policy_options);
  VisitIntervalOptionsFields(task.interval, visit);  // inside policy_options: visited after it
  visit(kSeedField, task.seed);
  visit(ConfigField{.key = "trace_hash",
                    .unit = "",
                    .doc = "content hash of the trace (FileContentHash); \"\" = its path names it",
                    .encoding = Encoding::kOptional,
                    .axis = kNotExposed,
                    .flag = kNotExposed,
                    .kwarg = kNotExposed},
        task.trace_hash);
  visit(ConfigField{.key = "throughputs_hash",
                    .unit = "",
                    .doc = "content hash of the throughputs (FileContentHash); \"\" = its path "
                           "names it",
                    .encoding = Encoding::kOptional,
                    .axis = kNotExposed,
                    .flag = kNotExposed,
                    .kwarg = kNotExposed},
        task.throughputs_hash);
}

// The value conversions of the task's own field types (the plain ones are in config_field.hpp).

/// The policy options: a JSON object.
void ReadFieldJson(const ConfigField& field, const nlohmann::json& value, nlohmann::json& member,
                   const std::string& context, const std::string& label);
nlohmann::json WriteFieldJson(const nlohmann::json& member);

/// A production source: ProductionSource::FromJson (every key; a bad one is named
/// "production.<key>").
void ReadFieldJson(const ConfigField& field, const nlohmann::json& value, ProductionSource& member,
                   const std::string& context, const std::string& label);
nlohmann::json WriteFieldJson(const ProductionSource& member);

/// A value a user gives for `member` (a sweep's keys, adaptsim.run's keywords), completed to what
/// ReadFieldJson reads: a production source's given keys over its defaults (ProductionSource{});
/// any other value as it is.
template <typename M>
nlohmann::json WithDefaults(const M& /*member*/, const nlohmann::json& value) {
  return value;
}
nlohmann::json WithDefaults(const std::optional<ProductionSource>& member,
                            const nlohmann::json& value);

/// The field whose sweep key (AxisName) is `axis`, passed to `f(field, member)` on `task`;
/// false when no field has that key.
template <typename T, typename F>
bool WithTaskField(T& task, std::string_view axis, F&& f) {
  bool found = false;
  VisitTaskConfigFields(task, [&](const ConfigField& field, auto& member) {
    if (!found && AxisName(field) == axis) {
      found = true;
      f(field, member);
    }
  });
  return found;
}

/// How the arguments of TaskConfigFromArguments name the fields.
enum class ArgumentNames {
  kKeyword,  ///< Python keywords (KwargName), JSON values; other keys are policy options
  kFlag,     ///< `adaptsim run` flags (FlagName), command-line text (a number is parsed); the
             ///< flag "--policy-option" holds its KEY=VALUE texts (a JSON array of strings), each
             ///< VALUE read as JSON with Python's True/False/None as true/false/null
             ///< (docs/python.md §4)
};

/// A task from named arguments (the Python `adaptsim.run`, `adaptsim run`, benchmarks): each
/// argument naming a field sets it (ReadFieldJson; a JSON null = the default); a path field is made
/// absolute and must exist (a file, or for TextKind::kFileOrFolder a folder). Content hashes are
/// filled (FillContentHashes); a field given instead of another (ConfigField::instead_of)
/// determines it (SimulationOptions::TakeGpuCountFromCluster). Throws InputError(context, 0,
/// name, ...) for a bad value, a missing required field (ConfigField::required) that no other
/// field was given instead of, a field given together with the one it stands in for, an unknown
/// flag, a policy option that is a field written
/// inside the policy options (FieldInPolicyOptions: named by its own flag or keyword), and the
/// interval engine's options for a policy of the round engine (CheckEngineFields).
TaskConfig TaskConfigFromArguments(const nlohmann::json& arguments, ArgumentNames names,
                                   const std::string& context);

/// Refuses a task that sets a field of the interval engine (Applies::kIntervalEngineOnly) when its
/// policy runs on the round engine: InputError(context, 0, key, ...).
void CheckEngineFields(const TaskConfig& task, const std::string& context);

/// The field that may be given in place of the required field `key` (ConfigField::instead_of:
/// `cluster` for `num_gpus`); nullopt when there is none.
std::optional<ConfigField> FieldInsteadOf(std::string_view key);

/// The field written inside the policy options under `option` (the interval engine's, which were
/// policy options once), for messages that point a user from the old spelling to the new one;
/// nullopt for a genuine policy option.
std::optional<ConfigField> FieldInPolicyOptions(std::string_view option);

}  // namespace adaptsim
