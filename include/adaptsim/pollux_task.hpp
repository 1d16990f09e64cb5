// Running a task on a Pollux workload (docs/pollux.md §4): the interval engine with pollux, optimus
// or tiresias. RunTask dispatches here for `.csv` workloads (IsPolluxWorkload).
//
// Task fields used: trace_path = the workload CSV; throughputs_path = the profile folder holding
// one sub-folder per application (`shared/data/pollux/traces`); policy; seed (Pollux GA stream);
// simulation.num_gpus = nodes × gpus_per_node (must divide); simulation.max_rounds -> max
// intervals; simulation.max_wall_time_s. Engine keys read from policy_options (all three
// policies accept them): interval_s (60), restart_delay_s (30), interference (0, the slowdown of
// distributed jobs sharing a node), gpus_per_node (4). Other Shockwave-engine fields (round
// length, restart overhead, deadline factor) are ignored.
#pragma once

#include <string>

#include "adaptsim/result.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/task.hpp"

namespace adaptsim {

/// True when `trace_path` names a Pollux workload: it ends in ".csv".
bool IsPolluxWorkload(const std::string& trace_path);

/// Loads the workload and the profiles, builds the policy and runs the interval engine. Bad input
/// (missing or malformed files, unknown application, bad option, a look-up outside the profiled
/// data) throws InputError naming file, line and field.
SimulationResult RunPolluxTask(const TaskConfig& task, const RoundObserver& observer = {});

}  // namespace adaptsim
