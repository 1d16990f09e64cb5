// RunTask: inputs -> policy -> simulation, for one task (no MPI here).
#include "adaptsim/pollux_task.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "engine/gavel_mechanism.hpp"
#include "harness/pollux_trace_workload.hpp"
#include "models/catalogue_throughput.hpp"
#include "policies/interval_registry.hpp"

namespace adaptsim {

SimulationResult RunTask(const TaskConfig& task, const RoundObserver& observer) {
  task.simulation.Validate();
  // Pollux workloads (.csv) run in the interval engine (docs/pollux.md).
  if (IsPolluxWorkload(task.trace_path)) return RunPolluxTask(task, observer);
  // pollux (optimus, tiresias) on a Shockwave trace: the interval engine with a catalogue model.
  if (IsIntervalPolicy(task.policy)) return RunPolluxTraceTask(task, observer);
  Trace trace = ReadTrace(task.trace_path);
  // A ".toml" path is a fitted catalogue (data/catalog/v100.toml), anything else a measured table.
  std::unique_ptr<ThroughputSource> throughputs =
      models::LoadThroughputSource(task.throughputs_path);
  std::unique_ptr<RoundScheduler> scheduler = MakeRoundScheduler(
      MakePolicy(task.policy, task.policy_options, "policy_options"), task.simulation);
  return Simulate(trace, *throughputs, *scheduler, task.simulation, observer);
}

}  // namespace adaptsim
