// A task: one full simulation of a sweep, identified by the content hash of its configuration.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "adaptsim/interval_simulator.hpp"
#include "adaptsim/production_source.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/store.hpp"

namespace adaptsim {

/// One task's configuration: everything its result depends on. Its fields are declared once, with
/// their keys, units, docs, ranges and names as sweep axes, `adaptsim run` flags and `adaptsim.run`
/// keywords, in VisitTaskConfigFields (adaptsim/task_fields.hpp), which drives ToJson/FromJson,
/// the sweep spec, the command line and the Python module (docs/architecture.md, "Task
/// configuration"). The run's budget (RunBudget) is not part of it.
struct TaskConfig {
  std::string trace_path;        ///< `.trace` file, Pollux workload CSV or production log
  std::string throughputs_path;  ///< throughputs JSON, catalogue TOML or Pollux profile folder
  /// FileContentHash of trace_path / throughputs_path; "" = not computed (then the path itself
  /// identifies the input). ExpandSweep and `adaptsim run` fill them.
  std::string trace_hash;
  std::string throughputs_hash;
  std::string policy;            ///< registry name
  std::uint64_t seed = 0;        ///< keys the task's counter-based RNG streams
  SimulationOptions simulation;  ///< num_gpus and the round engine's options
  /// The interval engine's options (tasks of interval-engine policies only); unset = the engine's
  /// defaults. Written in ToJson() inside "policy_options" (adaptsim/task_fields.hpp).
  IntervalOptions interval;
  /// The policy's own options (a JSON object, PolicyInfo::options).
  nlohmann::json policy_options = nlohmann::json::object();
  /// Set when trace_path is a production job log (Philly or ITP, docs/production.md): how to read
  /// it and turn its jobs into simulated ones. In ToJson() as key "production" only when set, so
  /// the ids of other tasks do not change.
  std::optional<ProductionSource> production;

  /// Canonical JSON of the whole configuration (what workers receive and /tasks stores), keys
  /// sorted (nlohmann's object order), each field encoded as its declaration says
  /// (ConfigField::encoding, json_parent). Includes paths and content hashes.
  nlohmann::json ToJson() const;
  /// The part of ToJson() that identifies the result (docs/sweeps.md §4.1): ToJson() without a
  /// path whose content hash is set (ConfigField::identified_by) — so the same configuration has
  /// the same id wherever the data lives — plus the code hash of a scheme policy.
  nlohmann::json IdentityJson() const;
  /// Inverse of ToJson(); throws InputError(file=context, field=key) on missing, mistyped or
  /// out-of-range fields and unknown keys. Fields written only sometimes (hashes, production,
  /// idle_round_start, the interval engine's options) are optional; "max_rounds", which files
  /// written before the run budget left the configuration hold, is accepted and ignored.
  static TaskConfig FromJson(const nlohmann::json& json, const std::string& context = "task");
  /// Content hash of IdentityJson().dump(): a name-based (SHA-1) UUID, 32 lowercase hex digits.
  /// Independent of key order in the sweep file and of where the input files live.
  std::string Id() const;
};

/// Sets trace_hash and throughputs_hash from the files or folders (a throughputs value that is
/// neither, e.g. a catalogue name, keeps an empty hash). Throws InputError for an
/// unreadable trace.
void FillContentHashes(TaskConfig& task);

/// Builds the task's Simulation on the engine its policy names in the policy table
/// (PolicyInfo::engine: the round engine or the interval engine), runs it within `budget`, and
/// computes the summary metrics once (ComputeMetrics). Bad input throws InputError (also interval
/// engine options set for a policy of the round engine); the caller decides whether that ends the
/// program (CLI) or only the task (sweep).
SimulationResult RunTask(const TaskConfig& task, const RunBudget& budget,
                         const RoundObserver& observer = {});
/// RunTask without a budget.
SimulationResult RunTask(const TaskConfig& task, const RoundObserver& observer = {});

/// Thrown by a RoundObserver to abandon a task (signal grace time over); RunTaskCaught turns it
/// into status "cancelled", which is never stored.
struct TaskCancelled : std::exception {
  const char* what() const noexcept override { return "task cancelled"; }
};

/// Runs one task (RunTask) and never throws: InputError and other std::exception become status
/// "failed" with the message, TaskCancelled becomes "cancelled". Sets wall_time_s to the whole
/// task (reading inputs, building the policy, simulating).
SimulationResult RunTaskCaught(const TaskConfig& task, const RunBudget& budget = {},
                               const RoundObserver& observer = {});

/// The store's record of a task: fills task_id (config.Id()) and config_json (config.ToJson()).
TaskRecord MakeTaskRecord(const TaskConfig& config, int task_index, SimulationResult result,
                          int rank);
/// The same without config_json, for a task whose id is known (`task_id` = config.Id()) and whose
/// result is already encoded in a shard: what a sweep's rank 0 needs to log and report it.
TaskRecord MakeEncodedTaskRecord(const TaskConfig& config, std::string task_id, int task_index,
                                 SimulationResult result, int rank);

}  // namespace adaptsim
