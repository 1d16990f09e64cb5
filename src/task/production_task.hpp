// The inputs of a task whose trace is a production job log (TaskConfig::production;
// docs/production.md): the log read for the task's cluster, the simulated trace or Pollux workload
// built from it, and the counts that go into the result's input statistics.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/production_trace.hpp"
#include "adaptsim/simulation.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/throughput.hpp"

namespace adaptsim {

/// A production task's trace for the round engine (and Pollux on a catalogue): the log read with
/// cluster_gpus = num_gpus, turned into jobs by the rule with the models of `throughputs` (a
/// catalogue's workload models, else the built-in catalogue). Throws InputError (file, line,
/// field of the log; options) — see ReadProductionLog and BuildProductionTrace.
ProductionTrace BuildTaskProductionTrace(const TaskConfig& task,
                                         const ThroughputSource& throughputs);

/// A production task's Pollux workload (interval engine with a profile folder): the log read with
/// cluster_gpus = num_gpus and BuildPolluxWorkloadFromLog with the model seed. `statistics`
/// receives the input statistics.
PolluxWorkload BuildTaskPolluxWorkload(const TaskConfig& task, PolluxApplications& applications,
                                       std::map<std::string, std::int64_t>& statistics);

/// The input statistics of a production trace (ProductionInputStatistics).
std::map<std::string, std::int64_t> InputStatisticsOf(const ProductionTrace& trace);

/// `simulation` whose results carry `statistics` as SimulationResult::input_statistics.
std::unique_ptr<Simulation> WithInputStatistics(std::unique_ptr<Simulation> simulation,
                                                std::map<std::string, std::int64_t> statistics);

}  // namespace adaptsim
