// What rank 0 prepares before dispatching (spec -> tasks -> what is still to run, in which
// order) and how it ends a sweep (merging shards into --out). No MPI here.
#pragma once

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/output_lock.hpp"
#include "adaptsim/output_paths.hpp"
#include "adaptsim/shard_directory.hpp"
#include "adaptsim/sweep.hpp"
#include "adaptsim/sweep_command.hpp"

namespace adaptsim {

struct PlannedTask {
  TaskConfig config;
  std::string id;                   ///< config.Id()
  double cost = 0;                  ///< ExpectedCost
  std::optional<TaskStatus> state;  ///< the stored status; none when the task never ran (an ok
                                    ///< task stored with less than the plan's detail is pending)
};

struct SweepPlan {
  explicit SweepPlan(const OutputPaths& out_paths) : out(out_paths), shards(out.shards()) {}

  OutputPaths out;        ///< --out and every path derived from it
  ShardDirectory shards;  ///< `out.shards()`: where the results of this run are stored
  std::string name;
  std::vector<PlannedTask> tasks;  ///< expansion order; the position is the task_index
  RunBudget budget;                ///< --task-timeout, --task-timeout-rounds: every task's
  std::vector<int> pending;        ///< indices into `tasks` to run now, in dispatch order
  Provenance provenance;
  ResultDetail detail = kDefaultSweepDetail;  ///< --detail, else the spec's, else the default
  /// --out existed and was readable: its tasks count as finished and it is a merge source.
  bool merge_old_out = false;
  /// The lock on --out, held while the plan lives (none for --dry-run).
  std::shared_ptr<OutputLock> lock;
};

/// Validates options and spec; unless --dry-run, locks --out (OutputLock: another sweep on it is
/// refused), applies --force (deletes --out and its shards) and checks that the shard folder
/// takes files. Then verifies the shards (ShardDirectory::Verify: a corrupt one is reported on
/// stderr task by task, set aside and all its tasks planned again), reads what is finished (shards,
/// then an existing --out) and orders the rest. Throws InputError for bad input (also an --out
/// folder that cannot be written), StoreError for unreadable shard folders, std::runtime_error when
/// another sweep holds the lock.
SweepPlan MakePlan(const SweepCommandOptions& options, int rank_count);

/// `--dry-run`: one line per task (index, id, policy, gpus, seed, cost, state, trace, options)
/// and totals.
void PrintDryRun(const SweepPlan& plan, std::FILE* out);

/// Merges the sweep's finished tasks (old --out first, then plan.shards) into --out with
/// `statistics` in /meta, and writes its checksum file. Returns the number of tasks in the file.
std::size_t MergeSweep(const SweepPlan& plan, const std::map<std::string, double>& statistics);

/// After MergeSweep: re-opens --out and checks that every shard's task is in it (summary row and
/// task group). Verified and not `keep`: deletes the shard folder. Not verified: keeps it and
/// prints why on stderr (never loses a result). Returns whether --out was verified.
bool FinishShards(SweepPlan& plan, bool keep, bool quiet);

}  // namespace adaptsim
