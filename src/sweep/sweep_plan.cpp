#include "sweep_plan.hpp"

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <set>

#include "adaptsim/checksum.hpp"
#include "adaptsim/engine_tasks.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/sweep.hpp"
#include "adaptsim/task_fields.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

/// What is stored of a finished task.
using Stored = ShardDirectory::Stored;

/// Every task in an existing --out (an ok task there holds at least /meta@detail, MergeResults);
/// empty (and `readable` false) when it cannot be read.
std::map<std::string, Stored> ReadOldOut(const OutputPaths& out, bool& readable) {
  std::map<std::string, Stored> done;
  readable = false;
  const std::string& path = out.results();
  if (!fs::exists(path)) return done;
  try {
    // A file that does not match the checksum the sweep recorded is not handed to HDF5, which
    // may crash on corrupted bytes (docs/reliability.md, "Not fixed in adaptsim: libhdf5").
    const ChecksumCheck check = CheckChecksumFile(out);
    if (check.recorded && !check.matches) {
      std::fprintf(stderr, "adaptsim: warning: ignoring %s: %s; tasks not in a shard run again\n",
                   path.c_str(), check.problem.c_str());
      return done;
    }
    SummaryWithDetail read = ReadSummaryWithDetail(path);
    for (const SummaryRow& row : read.rows) done[row.task_id] = {row.status, read.detail};
    readable = true;
  } catch (const StoreError& error) {
    std::fprintf(stderr, "adaptsim: warning: ignoring unreadable %s (%s); shards are used\n",
                 path.c_str(), error.what());
  }
  return done;
}

void Order(SweepPlan& plan, DispatchOrder order) {
  auto by_cost = [&](bool longest) {
    std::stable_sort(plan.pending.begin(), plan.pending.end(), [&](int a, int b) {
      return longest ? plan.tasks[a].cost > plan.tasks[b].cost
                     : plan.tasks[a].cost < plan.tasks[b].cost;
    });
  };
  if (order == DispatchOrder::kLongestFirst) by_cost(true);
  if (order == DispatchOrder::kShortestFirst) by_cost(false);
}

/// One warning per task of each corrupt shard, naming the shard and the task.
void ReportCorrupt(const SweepPlan& plan, const std::vector<CorruptShard>& corrupt, bool dry_run) {
  std::set<int> pending(plan.pending.begin(), plan.pending.end());
  for (const CorruptShard& shard : corrupt) {
    std::string moved = dry_run ? std::string("left in place (--dry-run)")
                                : "moved to '" + shard.path + ".corrupt'";
    std::vector<CorruptShard::Task> held_tasks = shard.tasks;
    if (held_tasks.empty()) {
      // No manifest lines and unreadable: a shard of one task is named by its id, a batch by a
      // hash of its tasks' ids, which names none of them.
      const std::string name = fs::path(shard.path).stem().string();
      for (const PlannedTask& t : plan.tasks) {
        if (t.id == name) held_tasks.push_back({name, -1});
      }
    }
    if (held_tasks.empty()) {
      std::fprintf(stderr,
                   "adaptsim: warning: shard '%s' is corrupt: %s; %s; the tasks it held are "
                   "not finished\n",
                   shard.path.c_str(), shard.reason.c_str(), moved.c_str());
    }
    for (const CorruptShard::Task& held : held_tasks) {
      std::string task = "a task not in this spec (id " + held.id + ", task_index " +
                         std::to_string(held.task_index) + " in its manifest)";
      std::string fate = "its task is not in this spec";
      for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
        const PlannedTask& t = plan.tasks[i];
        if (t.id != held.id) continue;
        task = "task " + std::to_string(i) + " (id " + t.id + ", policy " + t.config.policy + ", " +
               std::to_string(TaskGpuCount(t.config)) + " GPUs, seed " +
               std::to_string(t.config.seed) + ")";
        if (pending.count(static_cast<int>(i)) > 0) {
          fate = dry_run ? "its task would run again" : "its task runs again";
        } else {
          fate = "its task keeps an older stored result (" +
                 std::string(t.state ? ToString(*t.state) : "none") + ")";
        }
      }
      std::fprintf(stderr, "adaptsim: warning: shard '%s' of %s is corrupt: %s; %s; %s\n",
                   shard.path.c_str(), task.c_str(), shard.reason.c_str(), moved.c_str(),
                   fate.c_str());
    }
  }
}

}  // namespace

void SweepCommandOptions::Validate() const {
  if (!(task_timeout_s >= 0)) throw InputError("command line", 0, "--task-timeout", "must be >= 0");
  if (task_timeout_rounds < 0) {
    throw InputError("command line", 0, "--task-timeout-rounds", "must be >= 0");
  }
  if (!(grace_s >= 0)) throw InputError("command line", 0, "--grace", "must be >= 0");
  if (!(shard_interval_s >= 0)) {
    throw InputError("command line", 0, "--shard-interval", "must be >= 0");
  }
}

SweepPlan MakePlan(const SweepCommandOptions& options, int rank_count) {
  options.Validate();
  SweepSpec spec = LoadSweepSpec(options.spec_path);
  SweepPlan plan{OutputPaths(options.out_path)};
  plan.out.CheckTarget();
  if (!options.dry_run) plan.lock = std::make_shared<OutputLock>(plan.out);
  plan.name = spec.name;
  plan.detail = options.detail.value_or(spec.detail.value_or(kDefaultSweepDetail));
  plan.provenance = Provenance{options.argv, rank_count, spec.name, options.spec_path, plan.detail};
  if (options.force && !options.dry_run) {
    plan.shards.RemoveAll();
    fs::remove(plan.out.results());
    fs::remove(plan.out.checksum());
  }
  if (!options.dry_run) plan.shards.Open();  // a folder that takes no file fails before any task
  std::vector<CorruptShard> corrupt = plan.shards.Verify(/*quarantine=*/!options.dry_run);
  std::map<std::string, Stored> done = ReadOldOut(plan.out, plan.merge_old_out);
  for (const auto& [id, stored] : plan.shards.Newest()) done[id] = stored;  // shards are newer
  plan.budget = RunBudget{options.task_timeout_rounds, options.task_timeout_s};
  for (TaskConfig& config : ExpandSweep(spec)) {
    PlannedTask task{config, config.Id(), ExpectedCost(spec, config), std::nullopt};
    auto it = done.find(task.id);
    if (it != done.end()) task.state = it->second.status;
    // An ok task stored with less detail than asked for reruns (its result is the same, its
    // tables were not kept); one with more detail is cut down to the asked level by the merge.
    bool too_little = task.state == TaskStatus::kOk && it->second.detail < plan.detail;
    bool rerun =
        too_little || (options.retry_failed && task.state && *task.state != TaskStatus::kOk);
    if (!task.state || rerun) plan.pending.push_back(static_cast<int>(plan.tasks.size()));
    plan.tasks.push_back(std::move(task));
  }
  Order(plan, options.order);
  ReportCorrupt(plan, corrupt, options.dry_run);
  return plan;
}

namespace {

/// A note when the sweep has several seeds and policies that ignore them: their tasks differ
/// only in the task id (docs/sweeps.md §1, "Seeds").
void PrintSeedNote(const SweepPlan& plan, std::FILE* out) {
  std::set<std::uint64_t> seeds;
  std::set<std::string> unseeded;
  for (const PlannedTask& t : plan.tasks) {
    seeds.insert(t.config.seed);
    if (!FindPolicy(t.config.policy, "policy").uses_seed) unseeded.insert(t.config.policy);
  }
  if (seeds.size() < 2 || unseeded.empty()) return;
  std::string names;
  for (const std::string& name : unseeded) names += (names.empty() ? "" : ", ") + name;
  std::fprintf(out,
               "note: %zu seeds, but %s draw%s no random numbers (nor does the engine): on a "
               "fixed trace their tasks for different seeds differ only in the task id; vary the "
               "trace (or generate one per seed) to sample (docs/sweeps.md §1)\n",
               seeds.size(), names.c_str(), unseeded.size() == 1 ? "s" : "");
}

}  // namespace

void PrintDryRun(const SweepPlan& plan, std::FILE* out) {
  std::fprintf(out, "%5s  %-32s  %-18s %5s %5s %12s  %-8s %s\n", "index", "task_id", "policy",
               "gpus", "seed", "cost", "state", "trace / options");
  double total = 0, pending = 0;
  std::vector<bool> is_pending(plan.tasks.size(), false);
  for (int i : plan.pending) is_pending[i] = true;
  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    const PlannedTask& t = plan.tasks[i];
    total += t.cost;
    if (is_pending[i]) pending += t.cost;
    std::string state = t.state ? std::string(ToString(*t.state)) : "pending";
    if (is_pending[i] && t.state) state += "*";
    std::string production;  // appended piecewise: GCC 12 warns (-Wrestrict) on "[" + s + "] "
    if (t.config.production) {
      production.append("[").append(ProductionLabel(*t.config.production)).append("] ");
    }
    // As stored (and in /summary): with the interval engine's options.
    const nlohmann::json options = t.config.ToJson().at(std::string(kPolicyOptionsKey));
    const std::string options_text = options.empty() ? "" : options.dump();
    std::fprintf(out, "%5zu  %-32s  %-18s %5d %5llu %12.0f  %-8s %s %s%s\n", i, t.id.c_str(),
                 t.config.policy.c_str(), TaskGpuCount(t.config),
                 static_cast<unsigned long long>(t.config.seed), t.cost, state.c_str(),
                 fs::path(t.config.trace_path).filename().c_str(), production.c_str(),
                 options_text.c_str());
  }
  std::fprintf(out, "%zu tasks, %zu to run (* = rerun); expected cost %.0f of %.0f; detail %s\n",
               plan.tasks.size(), plan.pending.size(), pending, total,
               std::string(ToString(plan.detail)).c_str());
  PrintSeedNote(plan, out);
}

std::size_t MergeSweep(const SweepPlan& plan, const std::map<std::string, double>& statistics) {
  MergeOptions merge;
  if (plan.merge_old_out) merge.sources.push_back(plan.out.results());
  for (const std::string& path : plan.shards.ShardPaths()) merge.sources.push_back(path);
  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    merge.select[plan.tasks[i].id] = static_cast<int>(i);
  }
  merge.provenance = plan.provenance;
  merge.statistics = statistics;
  return MergeResultsWithChecksum(plan.out, merge);
}

bool FinishShards(SweepPlan& plan, bool keep, bool quiet) {
  ShardDirectory& shards = plan.shards;
  std::set<std::string> ids;  // every task in a shard
  std::vector<std::string> missing;
  std::string failure;
  try {
    for (const auto& [id, status] : shards.Finished()) ids.insert(id);
    missing = MissingTasks(plan.out.results(), ids);
  } catch (const StoreError& error) {
    failure = error.what();
  }
  if (failure.empty() && !missing.empty()) {
    failure = std::to_string(missing.size()) + " of " + std::to_string(ids.size()) +
              " task(s) of the shards are not in it (first " + missing.front() +
              "; a shard of a task not in this spec is never merged)";
  }
  if (!failure.empty()) {
    std::fprintf(stderr, "adaptsim: warning: %s not verified: %s; keeping %s\n",
                 plan.out.results().c_str(), failure.c_str(), shards.dir().c_str());
    return false;
  }
  if (keep) return true;
  shards.RemoveAll();
  if (!quiet) {
    std::fprintf(stderr, "adaptsim: %s verified (%zu task(s) of the shards in it); removed %s\n",
                 plan.out.results().c_str(), ids.size(), shards.dir().c_str());
  }
  return true;
}

}  // namespace adaptsim
