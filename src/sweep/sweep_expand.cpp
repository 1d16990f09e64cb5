// Sweep spec -> tasks: the cartesian product of the dimensions, and the expected cost of a task
// (docs/sweeps.md).
#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/sweep.hpp"
#include "adaptsim/task_fields.hpp"

namespace adaptsim {
namespace {

const std::string kProductionPrefix = "production.";

/// What one row of the dimensions sets, before the task's policy is known.
struct Row {
  std::map<std::string, nlohmann::json> options;  ///< policy -> its options
  nlohmann::json production;                      ///< the [production] keys given; null = none
  /// Values of fields that apply to interval-engine tasks only (set once the policy is known).
  std::vector<std::pair<std::string, nlohmann::json>> interval_only;
};

/// Sets `key` = `value` on `task` through the key's field (adaptsim/task_fields.hpp); policy
/// options are collected per policy, the `[production]` keys in `row.production`.
void Apply(const std::string& key, const nlohmann::json& value, TaskConfig& task, Row& row,
           const std::string& context) {
  if (key.rfind(kProductionPrefix, 0) == 0) {
    if (row.production.is_null()) row.production = nlohmann::json::object();
    row.production[key.substr(kProductionPrefix.size())] = value;
    return;
  }
  const bool field = WithTaskField(task, key, [&](const ConfigField& declared, auto& member) {
    if (declared.applies == Applies::kIntervalEngineOnly) {
      row.interval_only.emplace_back(key, value);
    } else {
      ReadFieldJson(declared, value, member, context, key);
    }
  });
  if (field) return;
  // "<policy>.<option>": the last dot, as a Python policy's name has dots of its own.
  std::size_t dot = key.rfind('.');
  if (dot == std::string::npos) throw InputError(context, 0, key, "unknown sweep key");
  nlohmann::json& table = row.options[key.substr(0, dot)];
  if (table.is_null()) table = nlohmann::json::object();
  table[key.substr(dot + 1)] = value;
}

/// Whether `policy` runs on the interval engine (looked up once per policy).
bool IsIntervalPolicy(const std::string& policy, std::map<std::string, bool>& engines) {
  auto it = engines.find(policy);
  if (it == engines.end()) {
    it = engines.emplace(policy, FindPolicy(policy).engine == EngineKind::kInterval).first;
  }
  return it->second;
}

std::string HashOf(const SweepSpec& spec, const std::string& path) {
  auto it = spec.file_hashes.find(path);
  return it != spec.file_hashes.end() ? it->second : std::string();
}

}  // namespace

std::vector<TaskConfig> ExpandSweep(const SweepSpec& spec) {
  std::map<std::string, bool> engines;  // policy -> runs on the interval engine
  std::vector<TaskConfig> tasks;
  std::set<std::string> ids;
  std::vector<std::size_t> position(spec.dimensions.size(), 0);
  for (const SweepDimension& d : spec.dimensions) {
    if (d.rows.empty()) return tasks;
  }
  while (true) {
    TaskConfig task;
    Row row;
    for (std::size_t i = 0; i < spec.dimensions.size(); ++i) {
      const SweepDimension& d = spec.dimensions[i];
      for (std::size_t k = 0; k < d.keys.size(); ++k) {
        Apply(d.keys[k], d.rows[position[i]][k], task, row, spec.spec_path);
      }
    }
    task.simulation.TakeGpuCountFromCluster();
    auto own = row.options.find(task.policy);
    if (own != row.options.end()) {
      // An interval engine option in the policy's table is the engine's, for this policy's tasks
      // (docs/sweeps.md §1): the field's, not an option the policy sees.
      for (const auto& [option, value] : own->second.items()) {
        if (FieldInPolicyOptions(option)) {
          row.interval_only.emplace_back(option, value);
        } else {
          task.policy_options[option] = value;
        }
      }
    }
    if (!row.production.is_null()) {  // the given keys over the defaults
      WithTaskField(task, kProductionPrefix.substr(0, kProductionPrefix.size() - 1),
                    [&](const ConfigField& declared, auto& member) {
                      ReadFieldJson(declared, WithDefaults(member, row.production), member,
                                    spec.spec_path, std::string(declared.key));
                    });
    }
    if (!row.interval_only.empty() && IsIntervalPolicy(task.policy, engines)) {
      for (const auto& entry : row.interval_only) {
        // Not a structured binding: clang 14 (the fuzz preset) cannot capture one in a lambda.
        const std::string& key = entry.first;
        const nlohmann::json& value = entry.second;
        WithTaskField(task, key, [&](const ConfigField& declared, auto& member) {
          ReadFieldJson(declared, value, member, spec.spec_path, key);
        });
      }
    }
    task.trace_hash = HashOf(spec, task.trace_path);
    task.throughputs_hash = HashOf(spec, task.throughputs_path);
    if (ids.insert(task.Id()).second) tasks.push_back(std::move(task));
    // Odometer: the last dimension turns fastest.
    std::size_t i = spec.dimensions.size();
    while (i > 0) {
      --i;
      if (++position[i] < spec.dimensions[i].rows.size()) break;
      position[i] = 0;
      if (i == 0) return tasks;
    }
    if (spec.dimensions.empty()) return tasks;
  }
}

std::string ProductionStatsKey(const TaskConfig& task) {
  if (!task.production) return "";
  nlohmann::json select = task.production->ToJson();
  for (const char* rule : {"model_seed", "mapping", "mode_mix", "accordion_min_duration_s"}) {
    select.erase(rule);  // the rule does not change which jobs the log selects
  }
  return task.trace_path + "\n" + select.dump() + "\n" + std::to_string(task.simulation.num_gpus);
}

double ExpectedCost(const SweepSpec& spec, const TaskConfig& task) {
  TraceStats stats;
  auto found = spec.trace_stats.find(task.trace_path);
  if (found != spec.trace_stats.end()) stats = found->second;
  if (task.production) {
    auto selected = spec.production_stats.find(ProductionStatsKey(task));
    stats = selected != spec.production_stats.end() ? selected->second : TraceStats{};
  }
  const SimulationOptions& sim = task.simulation;
  double makespan = std::max(stats.last_arrival_s, stats.gpu_seconds / std::max(1, sim.num_gpus));
  double rounds = std::max(1.0, makespan / sim.round_duration_s);
  auto weight = spec.policy_weights.find(task.policy);
  double w = weight != spec.policy_weights.end() ? weight->second : 1.0;
  return std::max(1, stats.num_jobs) * rounds * w;
}

}  // namespace adaptsim
