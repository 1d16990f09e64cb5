// A task's Simulation, one builder per engine: each loads the inputs its engine reads, builds the
// policy from the table (MakePolicy) and returns the configured engine. RunTask (run_task.cpp)
// picks the builder from PolicyInfo::engine.
#pragma once

#include <memory>

#include "adaptsim/input_cache.hpp"
#include "adaptsim/simulation.hpp"
#include "adaptsim/task.hpp"

namespace adaptsim {

/// Round engine: trace_path = a `.trace`; throughputs_path = a throughputs JSON or a catalogue
/// TOML (models::LoadThroughputSource); the policy runs in the Gavel mechanism when it is an
/// AllocationPolicy (MakeRoundScheduler, reading task.simulation). With `inputs`, the trace
/// (unless built from a production log) and the throughputs come from that cache (same bytes,
/// same result). Throws InputError for bad input.
std::unique_ptr<Simulation> MakeRoundSimulation(const TaskConfig& task, const RunBudget& budget,
                                                InputCache* inputs = nullptr);

/// RunTask / RunTaskCaught (task.hpp) reading the round engine's inputs through `inputs` (may be
/// null: read every file), as a sweep worker does for the many tasks it runs.
SimulationResult RunTask(const TaskConfig& task, const RunBudget& budget,
                         const RoundObserver& observer, InputCache* inputs);
SimulationResult RunTaskCaught(const TaskConfig& task, const RunBudget& budget,
                               const RoundObserver& observer, InputCache* inputs);

/// Interval engine (pollux, optimus, tiresias; docs/pollux.md). When throughputs_path is a
/// folder it is the Pollux profile folder (one sub-folder per application) and trace_path a
/// Pollux workload CSV; otherwise trace_path is a `.trace` and throughputs_path its catalogue or
/// measured table (job_mapping.hpp). The engine's options are task.interval resolved
/// over the engine's defaults (IntervalOptions::Resolve; gpus_per_node defaults to 4 on a
/// workload, the catalogue's node size on a trace); simulation.num_gpus = nodes × gpus_per_node
/// (must divide); budget.max_rounds caps the intervals. Throws InputError naming file, line and
/// field for bad input.
std::unique_ptr<Simulation> MakeIntervalSimulation(const TaskConfig& task, const RunBudget& budget);

/// The task's GPU count, as recorded (results' `num_gpus`) and used by the metrics: for a policy
/// of the interval engine on a cluster of GPU types the cluster's counts are nodes (docs/sia.md
/// §5), so the count is Σ nodes × the type's GPUs per node (SiaGpuTypeNodeShape); otherwise
/// task.simulation.num_gpus (also for an unknown policy or node type, which fail when the task
/// runs).
int TaskGpuCount(const TaskConfig& task);

}  // namespace adaptsim
