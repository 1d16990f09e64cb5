// The interval engine's tasks (docs/pollux.md): a Pollux workload with its profile folder, or a
// Shockwave trace with a catalogue (adaptsim/job_mapping.hpp, trace job -> interval job), run by
// any interval-engine policy (pollux, optimus, tiresias; sia, gavel_tj and themis_tj on 4-GPU
// nodes, docs/sia.md §9).
#include <cmath>
#include <filesystem>
#include <variant>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/engine_tasks.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/gpu_type_profiles.hpp"
#include "adaptsim/interval_simulator.hpp"
#include "adaptsim/job_mapping.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/trace.hpp"
#include "production_task.hpp"

namespace adaptsim {

namespace {

std::unique_ptr<IntervalPolicy> MakeIntervalPolicy(const TaskConfig& task) {
  PolicyInstance policy = MakePolicy(task.policy, task.policy_options, "policy_options", task.seed);
  auto* interval = std::get_if<std::unique_ptr<IntervalPolicy>>(&policy);
  ADAPTSIM_CHECK(interval != nullptr);  // the table's engine and the policy's interface agree
  return std::move(*interval);
}

/// The interval simulation of `task` with the factory of fresh policies its isolated runs need
/// (IntervalSimulation::SetPolicyFactory; docs/sia.md §12).
std::unique_ptr<IntervalSimulation> WithPolicyFactory(
    std::unique_ptr<IntervalSimulation> simulation, const TaskConfig& task) {
  simulation->SetPolicyFactory([task] { return MakeIntervalPolicy(task); });
  return simulation;
}

/// A Pollux-format workload on a cluster of node groups (docs/sia.md §5): the task's cluster
/// names GPU types and nodes of each ("aws=6,rtx=3,dgx-ext=2"), GPUs per node from the Sia
/// artifact's node sizes; the profile folder holds placements-<type>.csv per application; the
/// engine charges the Sia artifact's per-model restart delays and slowdown calibration.
std::unique_ptr<Simulation> MakeNodeGroupSimulation(const TaskConfig& task,
                                                    const RunBudget& budget) {
  if (task.production) {
    throw InputError("task", 0, "cluster",
                     "a cluster of GPU types runs a workload CSV, not a production log");
  }
  std::vector<IntervalNodeGroup> groups;
  for (const GpuTypeCount& type : task.simulation.cluster->types()) {
    const GpuTypeNodeShape shape = SiaGpuTypeNodeShape(type.name, "task", 0, "cluster");
    groups.push_back({type.name, type.count, shape.gpus_per_node, 0, shape.max_physical_nodes});
  }
  IntervalSimulationOptions options = task.interval.ResolveNodeGroups(std::move(groups));
  options.restart_delay_s_by_application = SiaRestartDelays();
  options.slowdown_by_application = SiaSlowdowns();
  options.restart_on_node_move = false;  // the Sia artifact's reallocate (job.py:524-542)
  auto apps = std::make_unique<GpuTypeApplications>(task.throughputs_path);
  PolluxWorkload workload = ReadPolluxWorkload(task.trace_path);
  std::vector<std::string> types;
  for (const IntervalNodeGroup& group : options.node_groups) types.push_back(group.gpu_type);
  CheckWorkloadAgainstGpuTypes(workload, *apps, types);
  return WithPolicyFactory(
      std::make_unique<IntervalSimulation>(std::move(workload), std::move(apps),
                                           MakeIntervalPolicy(task), options, budget),
      task);
}

/// A Pollux workload CSV and its profile folder.
std::unique_ptr<Simulation> MakePolluxWorkloadSimulation(const TaskConfig& task,
                                                         const RunBudget& budget) {
  const IntervalSimulationOptions options =
      task.interval.Resolve(task.simulation.num_gpus, IntervalSimulationOptions{}.gpus_per_node);
  auto apps = std::make_unique<PolluxApplications>(task.throughputs_path);
  // A production log becomes a workload by the artifact's rule (docs/production.md).
  std::map<std::string, std::int64_t> statistics;
  PolluxWorkload workload = task.production ? BuildTaskPolluxWorkload(task, *apps, statistics)
                                            : ReadPolluxWorkload(task.trace_path);
  CheckWorkloadAgainstProfiles(workload, *apps);
  auto simulation = WithPolicyFactory(
      std::make_unique<IntervalSimulation>(std::move(workload), std::move(apps),
                                           MakeIntervalPolicy(task), options, budget),
      task);
  if (statistics.empty()) return simulation;
  return WithInputStatistics(std::move(simulation), std::move(statistics));
}

/// Pollux on a Shockwave trace (adaptsim/job_mapping.hpp, trace job -> interval job): the catalogue
/// model is the truth, the cluster has the catalogue's node size unless the options say otherwise.
/// Per-job results name the trace's models (each job's synthetic application stays in
/// IntervalJobExtras), ρ against Shockwave's T_excl.
class PolluxTraceSimulation final : public Simulation {
 public:
  PolluxTraceSimulation(const TaskConfig& task, const RunBudget& budget, Trace trace)
      : trace_(std::move(trace)) {
    const Catalogue catalogue = LoadPolluxTraceCatalogue(task.throughputs_path);
    const IntervalSimulationOptions options =
        task.interval.Resolve(task.simulation.num_gpus, catalogue.gpus_per_node);
    auto apps = std::make_unique<PolluxApplications>("");
    // A measured table (not a .toml catalogue) also gives T_excl, as in the round engine.
    std::unique_ptr<ThroughputSource> table;
    const std::string& path = task.throughputs_path;
    if (!models::IsCataloguePath(path)) {
      table = models::LoadThroughputSource(path);
    }
    PolluxTraceInputs inputs = BuildPolluxTraceInputs(trace_, catalogue, *apps, table.get());
    exclusive_time_s_ = std::move(inputs.exclusive_time_s);
    engine_ = WithPolicyFactory(
        std::make_unique<IntervalSimulation>(std::move(inputs.workload), std::move(apps),
                                             MakeIntervalPolicy(task), options, budget),
        task);
  }

  SimulationResult Run(const RoundObserver& observer) override {
    SimulationResult result = engine_->Run(observer);
    for (JobResult& job : result.jobs) {
      job.workload = trace_.jobs[job.id].model;
      job.exclusive_time_s = exclusive_time_s_[job.id];
    }
    return result;
  }

 private:
  Trace trace_;
  std::vector<double> exclusive_time_s_;
  std::unique_ptr<IntervalSimulation> engine_;
};

}  // namespace

int TaskGpuCount(const TaskConfig& task) {
  if (!task.simulation.NamesGpuTypes()) return task.simulation.num_gpus;
  try {
    if (FindPolicy(task.policy, "policy_options").engine != EngineKind::kInterval) {
      return task.simulation.num_gpus;
    }
    int gpus = 0;
    for (const GpuTypeCount& type : task.simulation.cluster->types()) {
      gpus += type.count * SiaGpuTypeNodeShape(type.name, "task", 0, "cluster").gpus_per_node;
    }
    return gpus;
  } catch (const InputError&) {
    // An unknown policy or node type: the task fails with that error when it runs.
    return task.simulation.num_gpus;
  }
}

std::unique_ptr<Simulation> MakeIntervalSimulation(const TaskConfig& task,
                                                   const RunBudget& budget) {
  // The profile folder of the Pollux artifact holds one sub-folder per application; any other
  // throughputs input is a catalogue or measured table for a Shockwave trace.
  if (task.simulation.NamesGpuTypes()) {
    if (!std::filesystem::is_directory(task.throughputs_path)) {
      throw InputError("task", 0, "cluster",
                       "a cluster of GPU types on the interval engine needs a profile folder with "
                       "placements-<type>.csv per application (e.g. sia/traces), got '" +
                           task.throughputs_path + "'");
    }
    return MakeNodeGroupSimulation(task, budget);
  }
  if (std::filesystem::is_directory(task.throughputs_path)) {
    return MakePolluxWorkloadSimulation(task, budget);
  }
  if (!task.production) {
    return std::make_unique<PolluxTraceSimulation>(task, budget, ReadTrace(task.trace_path));
  }
  // The same simulated trace as the round engine builds from the log with these throughputs.
  ProductionTrace built =
      BuildTaskProductionTrace(task, *models::LoadThroughputSource(task.throughputs_path));
  std::map<std::string, std::int64_t> statistics = InputStatisticsOf(built);
  return WithInputStatistics(
      std::make_unique<PolluxTraceSimulation>(task, budget, std::move(built.trace)),
      std::move(statistics));
}

}  // namespace adaptsim
