// The sweep harness: an MPI self-scheduling task farm (docs/sweeps.md §3). Rank 0 expands the spec,
// hands one task at a time to idle workers, logs every shard and is the only writer of the
// manifest and the merged results file (workers that share its folder write their own shards).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/result.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/task.hpp"

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

/// The store's record of a task: fills task_id (config.Id()) and config_json (config.ToJson()).
TaskRecord MakeTaskRecord(const TaskConfig& config, int task_index, SimulationResult result,
                          int rank);
/// The same without config_json, for a task whose id is known (`task_id` = config.Id()) and whose
/// result is already encoded in a shard: what a sweep's rank 0 needs to log and report it.
TaskRecord MakeEncodedTaskRecord(const TaskConfig& config, std::string task_id, int task_index,
                                 SimulationResult result, int rank);

/// The shard files of a sweep's shard folder (`OUT.shards`) in the order they were written, as
/// its manifest records it (a task rerun into a newer shard is then taken from that one when
/// the list is merged, MergeOptions::sources). A shard that fails the resume's check (SHA-256
/// of its bytes against the manifest; readable, when it has no manifest lines) is left out and,
/// with `skipped`, described there (path, reason, the ids of its tasks); nothing is moved.
/// Throws StoreError when the folder cannot be read.
std::vector<std::string> ShardFiles(const std::string& folder,
                                    std::vector<std::string>* skipped = nullptr);

/// MergeResults(out, options), then `<out>.sha256`: the SHA-256 of the merged file as `sha256sum`
/// prints it. A sweep resuming on `out` compares the file with it before any byte reaches HDF5
/// and ignores a file that does not match (docs/sweeps.md §4.2). Returns the number of tasks
/// stored. Throws StoreError (e.g. disk full) and InputError as MergeResults does, and
/// StoreError naming a source that has a checksum file it does not match (before any is read).
std::size_t MergeResultsWithChecksum(const std::string& out, const MergeOptions& options);

}  // namespace adaptsim
