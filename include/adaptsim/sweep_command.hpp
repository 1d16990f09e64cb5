// `adaptsim sweep`: an MPI self-scheduling task farm (docs/sweeps.md §3). Rank 0 expands the spec,
// hands one task at a time to idle workers, logs every shard and is the only writer of the
// manifest and the merged results file (workers that share its folder write their own shards).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/result_detail.hpp"

namespace adaptsim {

/// Order in which pending tasks are handed out.
enum class DispatchOrder {
  kLongestFirst,   ///< largest ExpectedCost first (default; minimises the sweep's makespan)
  kShortestFirst,  ///< smallest first (early results, as Gavel's run_sweep_continuous.py)
  kSpec,           ///< expansion order
};

/// `adaptsim sweep SPEC.toml --out FILE.h5 [options]` (docs/sweeps.md).
struct SweepCommandOptions {
  std::string spec_path;
  std::string out_path;
  bool quiet = false;         ///< no progress output on stderr
  bool resume_flag = false;   ///< `--resume`: accepted, no effect (resuming is the default)
  bool force = false;         ///< discard earlier results (shards and --out) and start over
  bool retry_failed = false;  ///< also rerun tasks recorded as failed or timeout
  bool dry_run = false;       ///< list tasks (id, expected cost, state) and exit; runs nothing
  double task_timeout_s = 0;  ///< wall-clock budget per task, 0 = none (status timeout)
  std::int64_t task_timeout_rounds = 0;  ///< simulated-round budget per task, 0 = none
  double grace_s = 60;  ///< after SIGTERM/SIGUSR1: how long running tasks may finish
  DispatchOrder order = DispatchOrder::kLongestFirst;
  /// `--detail`: what is stored per task; unset = the spec's `detail`, else kDefaultSweepDetail
  /// (sweep.hpp). A task stored with less detail than this and status ok is rerun.
  std::optional<ResultDetail> detail;
  /// `--keep-shards`: keep OUT.shards/ after the merged file was verified (default: delete it).
  bool keep_shards = false;
  /// `--shard-interval`: results a rank finishes within this many seconds of the first are
  /// stored together as one shard (a worker also sends them when its queue runs empty or the
  /// sweep stops). 0 stores every task as its own shard. Only how results are grouped on disk
  /// depends on it, never what they are (docs/sweeps.md §3).
  double shard_interval_s = 0.25;
  std::vector<std::string> argv;  ///< the command line, recorded in /meta

  /// Throws InputError for negative budgets, grace or shard interval.
  void Validate() const;
};

/// Runs a sweep. Initializes MPI (a Boost.MPI environment living for the duration of the call;
/// call at most once per process, from main's thread). With one rank, rank 0 runs the tasks
/// itself; with more, rank 0 only dispatches and writes. Every result is written as a shard
/// (`<out>.shards/<task id>.h5`, crash-safe) and logged in `<out>.shards/manifest.jsonl`; at the
/// end (also after a signal) rank 0 merges the sweep's tasks into `--out`. Re-running the same
/// command resumes: tasks whose shard exists are skipped. Returns the process exit code on every
/// rank: 0 when the sweep ran or was stopped by SIGTERM/SIGUSR1 (failed tasks are recorded with
/// status "failed"), 2 for bad input (spec errors), 1 for other errors.
int RunSweepCommand(const SweepCommandOptions& options);
}  // namespace adaptsim
