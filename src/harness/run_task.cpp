// RunTask: inputs -> policy -> simulation, for one task (no MPI here).
#include "adaptsim/registry.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "engine/gavel_mechanism.hpp"

namespace adaptsim {

SimulationResult RunTask(const TaskConfig& task, const RoundObserver& observer) {
  task.simulation.Validate();
  Trace trace = ReadTrace(task.trace_path);
  ThroughputTable throughputs = ThroughputTable::ReadJson(task.throughputs_path);
  std::unique_ptr<RoundScheduler> scheduler = MakeRoundScheduler(
      MakePolicy(task.policy, task.policy_options, "policy_options"), task.simulation);
  return Simulate(trace, throughputs, *scheduler, task.simulation, observer);
}

}  // namespace adaptsim
