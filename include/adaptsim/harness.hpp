// The sweep harness: an MPI self-scheduling task farm (HARNESS.md §C.1). Rank 0 expands the spec,
// hands one task at a time to idle workers, and is the only writer of the results file.
#pragma once

#include <string>
#include <vector>

#include "adaptsim/result.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/task.hpp"

namespace adaptsim {

/// `adaptsim sweep SPEC.toml --out FILE.h5 [--quiet] [--resume | --force]`.
struct SweepCommandOptions {
  std::string spec_path;
  std::string out_path;
  bool quiet = false;   ///< no per-task progress line on stderr
  bool resume = false;  ///< `out_path` exists: keep its tasks, run only those missing from it
  bool force = false;   ///< `out_path` exists: overwrite it (default: refuse, exit code 2)
  std::vector<std::string> argv;  ///< the command line, recorded in /meta
};

/// Runs a sweep. Initializes MPI (a Boost.MPI environment living for the duration of the call;
/// call at most once per process, from main's thread). With one rank, rank 0 runs the tasks
/// itself; with more, rank 0 only dispatches and writes. Returns the process exit code on every
/// rank: 0 when the sweep ran (tasks that failed are recorded with status "failed" and counted in
/// the report), 2 for bad input (spec errors, an existing output without --resume/--force),
/// 1 for other errors. Rank 0 prints errors as "adaptsim: error: ...", the per-task progress
/// (stderr) and the summary table (stdout).
int RunSweepCommand(const SweepCommandOptions& options);

/// Runs one task (adaptsim::RunTask) and never throws for bad input: InputError and other
/// std::exception become status "failed" with the message. Sets wall_time_s when RunTask did not.
SimulationResult RunTaskCaught(const TaskConfig& task);

/// The store's record of a task: fills task_id (config.Id()) and config_json (config.ToJson()).
TaskRecord MakeTaskRecord(const TaskConfig& config, int task_index, SimulationResult result,
                          int rank);

}  // namespace adaptsim
