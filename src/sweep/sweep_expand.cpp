// Sweep spec -> tasks: the cartesian product of the dimensions, and the expected cost of a task
// (docs/sweeps.md).
#include <algorithm>
#include <map>
#include <set>

#include "adaptsim/error.hpp"
#include "adaptsim/sweep.hpp"

namespace adaptsim {
namespace {

const std::string kProductionPrefix = "production.";

/// Sets `key` = `value` on `task`; policy options are collected per policy in `options`, the
/// `[production]` keys under "production" (ProductionSource's JSON keys).
void Apply(const std::string& key, const nlohmann::json& value, TaskConfig& task,
           std::map<std::string, nlohmann::json>& options) {
  SimulationOptions& sim = task.simulation;
  if (key.rfind(kProductionPrefix, 0) == 0) {
    nlohmann::json& production = options["production"];
    if (production.is_null()) production = ProductionSource{}.ToJson();  // the defaults
    production[key.substr(kProductionPrefix.size())] = value;
  } else if (key == "traces") {
    task.trace_path = value.get<std::string>();
  } else if (key == "throughputs") {
    task.throughputs_path = value.get<std::string>();
  } else if (key == "policies") {
    task.policy = value.get<std::string>();
  } else if (key == "num_gpus") {
    sim.num_gpus = value.get<int>();
  } else if (key == "seeds") {
    task.seed = value.get<std::uint64_t>();
  } else if (key == "round_duration_s") {
    sim.round_duration_s = value.get<double>();
  } else if (key == "deadline_factor") {
    sim.deadline_factor = value.get<double>();
  } else if (key == "restart_overhead_s") {
    sim.restart_overhead_s = value.get<double>();
  } else if (key == "restart_slack_s") {
    sim.restart_slack_s = value.get<double>();
  } else if (key == "allocation_reset_interval_s") {
    sim.allocation_reset_interval_s = value.get<double>();
  } else if (key == "max_failed_attempts") {
    sim.max_failed_attempts = value.get<int>();
  } else if (key == "idle_round_start") {
    sim.idle_round_start = ParseIdleRoundStart(value.get<std::string>());
  } else {
    // "<policy>.<option>": the last dot, as a Python policy's name has dots of its own.
    std::size_t dot = key.rfind('.');
    if (dot == std::string::npos) throw InputError("sweep", 0, key, "unknown sweep key");
    nlohmann::json& table = options[key.substr(0, dot)];
    if (table.is_null()) table = nlohmann::json::object();
    table[key.substr(dot + 1)] = value;
  }
}

std::string HashOf(const SweepSpec& spec, const std::string& path) {
  auto it = spec.file_hashes.find(path);
  return it != spec.file_hashes.end() ? it->second : std::string();
}

}  // namespace

std::vector<TaskConfig> ExpandSweep(const SweepSpec& spec) {
  std::vector<TaskConfig> tasks;
  std::set<std::string> ids;
  std::vector<std::size_t> position(spec.dimensions.size(), 0);
  for (const SweepDimension& d : spec.dimensions) {
    if (d.rows.empty()) return tasks;
  }
  while (true) {
    TaskConfig task;
    std::map<std::string, nlohmann::json> options;
    for (std::size_t i = 0; i < spec.dimensions.size(); ++i) {
      const SweepDimension& d = spec.dimensions[i];
      for (std::size_t k = 0; k < d.keys.size(); ++k) {
        Apply(d.keys[k], d.rows[position[i]][k], task, options);
      }
    }
    auto own = options.find(task.policy);
    if (own != options.end()) task.policy_options = own->second;
    auto production = options.find("production");  // no policy is named "production"
    if (production != options.end()) {
      task.production = ProductionSource::FromJson(production->second, spec.spec_path);
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
