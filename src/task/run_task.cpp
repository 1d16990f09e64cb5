// RunTask: inputs -> policy -> simulation -> metrics, for one task (no MPI here).
#include <chrono>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/engine_tasks.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/gavel.hpp"
#include "adaptsim/metrics.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/result_fields.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "production_task.hpp"

namespace adaptsim {

std::unique_ptr<Simulation> MakeRoundSimulation(const TaskConfig& task, const RunBudget& budget,
                                                InputCache* inputs) {
  // A ".toml" path is a fitted catalogue (data/catalog/v100.toml), anything else a measured table
  // (the isolated entries of every GPU type of the cluster; docs/mechanism.md §12).
  const Cluster cluster = task.simulation.GpuCluster();
  ClusterThroughputs throughputs =
      inputs != nullptr ? inputs->Throughputs(task.throughputs_path, cluster)
                        : models::LoadClusterThroughputs(task.throughputs_path, cluster);
  // A production log becomes a trace by the seeded rule (docs/production.md).
  Trace trace;
  std::map<std::string, std::int64_t> statistics;
  if (task.production) {
    ProductionTrace built = BuildTaskProductionTrace(task, throughputs.reference());
    statistics = InputStatisticsOf(built);
    trace = std::move(built.trace);
  } else {
    trace = inputs != nullptr ? inputs->ReadTrace(task.trace_path) : ReadTrace(task.trace_path);
  }
  // The Gavel mechanism reads the round length and reset gate the engine runs with, and the
  // task's seed (the GPU-type shuffle).
  std::unique_ptr<RoundScheduler> scheduler =
      MakeRoundScheduler(MakePolicy(task.policy, task.policy_options, "policy_options", task.seed),
                         task.simulation, task.seed);
  auto simulation = std::make_unique<RoundSimulation>(
      std::move(trace), std::move(throughputs), std::move(scheduler), task.simulation, budget);
  if (statistics.empty()) return simulation;
  return WithInputStatistics(std::move(simulation), std::move(statistics));
}

SimulationResult RunTask(const TaskConfig& task, const RoundObserver& observer) {
  return RunTask(task, RunBudget{}, observer, nullptr);
}

SimulationResult RunTask(const TaskConfig& task, const RunBudget& budget,
                         const RoundObserver& observer) {
  return RunTask(task, budget, observer, nullptr);
}

SimulationResult RunTask(const TaskConfig& task, const RunBudget& budget,
                         const RoundObserver& observer, InputCache* inputs) {
  task.simulation.Validate();
  budget.Validate();
  CheckEngineFields(task, "policy_options");
  // The policy table says which engine runs the policy (docs/architecture.md).
  const PolicyInfo& policy = FindPolicy(task.policy, "policy_options");
  SimulationResult result;
  try {
    std::unique_ptr<Simulation> simulation = policy.engine == EngineKind::kInterval
                                                 ? MakeIntervalSimulation(task, budget)
                                                 : MakeRoundSimulation(task, budget, inputs);
    result = simulation->Run(observer);
  } catch (const PolicyError& error) {
    // The engines name the method and the round; the policy's name is the task's.
    if (error.policy().empty()) throw error.Named(task.policy);
    throw;
  }
  // On the interval engine a cluster's counts are nodes of each type (docs/sia.md §5).
  ComputeMetrics(result, TaskGpuCount(task));
  // A run the engine could not finish (no job can be scheduled) has no metrics.
  if (result.status == TaskStatus::kFailed) result.summary = AbsentMetrics();
  return result;
}

SimulationResult RunTaskCaught(const TaskConfig& task, const RunBudget& budget,
                               const RoundObserver& observer) {
  return RunTaskCaught(task, budget, observer, nullptr);
}

SimulationResult RunTaskCaught(const TaskConfig& task, const RunBudget& budget,
                               const RoundObserver& observer, InputCache* inputs) {
  const auto start = std::chrono::steady_clock::now();
  SimulationResult result;
  auto fail = [&](TaskStatus status, const std::string& message) {
    result = SimulationResult{};
    result.status = status;
    result.message = message;
    result.summary = AbsentMetrics();
  };
  try {
    result = RunTask(task, budget, observer, inputs);
  } catch (const TaskCancelled& error) {
    fail(TaskStatus::kCancelled, error.what());
  } catch (const InputError& error) {
    fail(TaskStatus::kFailed, error.what());
  } catch (const std::exception& error) {
    fail(TaskStatus::kFailed, std::string("internal error: ") + error.what());
  }
  // The whole task: reading its trace and throughputs, building the policy, simulating.
  result.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

TaskRecord MakeTaskRecord(const TaskConfig& config, int task_index, SimulationResult result,
                          int rank) {
  TaskRecord record =
      MakeEncodedTaskRecord(config, config.Id(), task_index, std::move(result), rank);
  record.config_json = config.ToJson();
  return record;
}

TaskRecord MakeEncodedTaskRecord(const TaskConfig& config, std::string task_id, int task_index,
                                 SimulationResult result, int rank) {
  TaskRecord record;
  record.task_id = std::move(task_id);
  record.task_index = task_index;
  // The policy options as stored (ToJson): with the interval engine's options, which /summary has
  // always shown there.
  record.keys = {config.policy,
                 config.trace_path,
                 config.throughputs_path,
                 TaskGpuCount(config),
                 config.simulation.GpuCluster().ToString(),
                 config.seed,
                 config.simulation.round_duration_s,
                 config.simulation.deadline_factor,
                 config.ToJson().at(std::string(kPolicyOptionsKey))};
  record.result = std::move(result);
  record.rank = rank;
  return record;
}

}  // namespace adaptsim
