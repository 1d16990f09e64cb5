// RunPolluxTask: Pollux workload + profiles -> interval policy -> interval engine.
#include "adaptsim/pollux_task.hpp"

#include <cmath>
#include <filesystem>

#include "adaptsim/error.hpp"
#include "engine/interval_simulator.hpp"
#include "policies/interval_registry.hpp"

namespace adaptsim {

bool IsPolluxWorkload(const std::string& trace_path) {
  return trace_path.size() >= 4 && trace_path.compare(trace_path.size() - 4, 4, ".csv") == 0;
}

namespace {

double EngineNumber(const nlohmann::json& options, const char* key, double fallback) {
  auto it = options.find(key);
  if (it == options.end()) return fallback;
  if (!it->is_number()) throw InputError("policy_options", 0, key, "expected a number");
  return it->get<double>();
}

IntervalSimulationOptions EngineOptions(const TaskConfig& task) {
  IntervalSimulationOptions options;
  const nlohmann::json& o = task.policy_options;
  options.interval_s = EngineNumber(o, "interval_s", options.interval_s);
  options.restart_delay_s = EngineNumber(o, "restart_delay_s", options.restart_delay_s);
  options.interference_slowdown = EngineNumber(o, "interference", options.interference_slowdown);
  const double per_node = EngineNumber(o, "gpus_per_node", options.gpus_per_node);
  if (per_node != std::floor(per_node) || per_node < 1 || per_node > 9) {
    throw InputError("policy_options", 0, "gpus_per_node", "must be an integer in [1, 9]");
  }
  options.gpus_per_node = static_cast<int>(per_node);
  if (task.simulation.num_gpus % options.gpus_per_node != 0) {
    throw InputError(
        "task", 0, "num_gpus",
        "must be a multiple of gpus_per_node (" + std::to_string(options.gpus_per_node) + ")");
  }
  options.num_nodes = task.simulation.num_gpus / options.gpus_per_node;
  options.max_intervals = task.simulation.max_rounds;
  options.max_wall_time_s = task.simulation.max_wall_time_s;
  options.Validate();
  return options;
}

}  // namespace

SimulationResult RunPolluxTask(const TaskConfig& task, const RoundObserver& observer) {
  const IntervalSimulationOptions options = EngineOptions(task);
  if (!std::filesystem::is_directory(task.throughputs_path)) {
    throw InputError(task.throughputs_path, 0, "throughputs_path",
                     "expected the Pollux profile folder (one sub-folder per application)");
  }
  PolluxWorkload workload = ReadPolluxWorkload(task.trace_path);
  PolluxApplications apps(task.throughputs_path);
  std::unique_ptr<IntervalPolicy> policy =
      MakeIntervalPolicy(task.policy, task.policy_options, "policy_options", task.seed);
  return SimulateIntervals(workload, apps, *policy, options, observer);
}

}  // namespace adaptsim
