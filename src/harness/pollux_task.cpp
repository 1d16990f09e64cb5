// RunPolluxTask: Pollux workload + profiles -> interval policy -> interval engine.
#include "adaptsim/pollux_task.hpp"

#include <cmath>
#include <filesystem>

#include "adaptsim/error.hpp"
#include "adaptsim/metrics.hpp"
#include "adaptsim/trace.hpp"
#include "engine/interval_simulator.hpp"
#include "harness/pollux_trace_workload.hpp"
#include "models/catalogue_throughput.hpp"
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

IntervalSimulationOptions EngineOptions(const TaskConfig& task, int default_gpus_per_node) {
  IntervalSimulationOptions options;
  options.gpus_per_node = default_gpus_per_node;
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
  const IntervalSimulationOptions options =
      EngineOptions(task, IntervalSimulationOptions{}.gpus_per_node);
  if (!std::filesystem::is_directory(task.throughputs_path)) {
    throw InputError(task.throughputs_path, 0, "throughputs_path",
                     "expected the Pollux profile folder (one sub-folder per application)");
  }
  PolluxWorkload workload = ReadPolluxWorkload(task.trace_path);
  PolluxApplications apps(task.throughputs_path);
  CheckWorkloadAgainstProfiles(workload, apps);
  std::unique_ptr<IntervalPolicy> policy =
      MakeIntervalPolicy(task.policy, task.policy_options, "policy_options", task.seed);
  return SimulateIntervals(workload, apps, *policy, options, observer);
}

// Pollux on a Shockwave trace (pollux_trace_workload.hpp): the catalogue model is the truth, the
// cluster has the catalogue's node size unless the options say otherwise.
SimulationResult RunPolluxTraceTask(const TaskConfig& task, const RoundObserver& observer) {
  const Trace trace = ReadTrace(task.trace_path);
  const Catalogue catalogue = LoadPolluxTraceCatalogue(task.throughputs_path);
  const IntervalSimulationOptions options = EngineOptions(task, catalogue.gpus_per_node);
  PolluxApplications apps("");
  // A measured table (not a .toml catalogue) also gives T_excl, as in the round engine.
  std::unique_ptr<ThroughputSource> table;
  const std::string& path = task.throughputs_path;
  if (path.size() < 5 || path.compare(path.size() - 5, 5, ".toml") != 0) {
    table = models::LoadThroughputSource(path);
  }
  const PolluxTraceInputs inputs = BuildPolluxTraceInputs(trace, catalogue, apps, table.get());
  std::unique_ptr<IntervalPolicy> policy =
      MakeIntervalPolicy(task.policy, task.policy_options, "policy_options", task.seed);
  SimulationResult result = SimulateIntervals(inputs.workload, apps, *policy, options, observer);
  // Report like the round engine: the trace's model names, ρ against Shockwave's T_excl.
  for (JobResult& job : result.jobs) {
    job.model = trace.jobs[job.id].model;
    job.mode = trace.jobs[job.id].mode;
    job.exclusive_time_s = inputs.exclusive_time_s[job.id];
  }
  result.summary.worst_ftf_rho = SummaryMetrics{}.worst_ftf_rho;
  ComputeMetrics(result, options.num_nodes * options.gpus_per_node);
  return result;
}

}  // namespace adaptsim
