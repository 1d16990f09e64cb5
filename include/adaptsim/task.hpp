// A task: one full simulation of a sweep, identified by the content hash of its configuration.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "adaptsim/result.hpp"
#include "adaptsim/simulator.hpp"

namespace adaptsim {

struct TaskConfig {
  std::string trace_path;        ///< `.trace` file
  std::string throughputs_path;  ///< throughputs JSON
  std::string policy;            ///< registry name
  std::uint64_t seed = 0;        ///< keys the task's counter-based RNG streams
  SimulationOptions simulation;  ///< num_gpus, round length, deadline factor, limits
  nlohmann::json policy_options = nlohmann::json::object();

  /// Canonical JSON: every field that changes the result, keys sorted (nlohmann's object order).
  /// Excludes wall-clock limits, which do not change a finished result.
  nlohmann::json ToJson() const;
  /// Inverse of ToJson(); throws InputError(file=context) on missing/mistyped fields.
  static TaskConfig FromJson(const nlohmann::json& json, const std::string& context = "task");
  /// Content hash of ToJson().dump(): a name-based (SHA-1) UUID, 32 lowercase hex digits.
  /// Independent of key order in the sweep file.
  std::string Id() const;
};

/// Loads the inputs, builds the policy and simulates. Bad input throws InputError; the caller
/// decides whether that ends the program (CLI) or only the task (harness).
SimulationResult RunTask(const TaskConfig& task, const RoundObserver& observer = {});

}  // namespace adaptsim
