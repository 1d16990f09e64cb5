// The HDF5 results file: one file per sweep (or `adaptsim run --out`), written by a single process.
// Layout, units and a pandas snippet: docs/results-format.md. Only src/store/ includes HDF5
// headers; HDF5 failures surface here as StoreError.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/output_paths.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/result_detail.hpp"
#include "adaptsim/result_fields.hpp"
#include "adaptsim/task_key_fields.hpp"

namespace adaptsim {

/// Version of the layout in docs/results-format.md, stored as /meta@schema_version.
inline constexpr int kResultsSchemaVersion = 6;
/// The oldest version ReadTask (and so MergeResults) still reads (docs/results-format.md lists
/// what changed).
inline constexpr int kOldestReadableSchemaVersion = 2;

/// An HDF5 call failed (cannot create/open the file, not an adaptsim results file, disk full).
/// `what()` names the file and the failing operation.
class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What the caller knows about the run; the store adds adaptsim version, git sha, HDF5 version,
/// creation time (UTC, ISO 8601) and schema version to /meta itself.
struct Provenance {
  std::vector<std::string> argv;  ///< the command line, argv[0] included
  int rank_count = 1;             ///< MPI ranks of the run (1 for `adaptsim run`)
  std::string sweep_name;         ///< spec `name`, "" for `adaptsim run`
  std::string spec_path;          ///< sweep spec file, "" for `adaptsim run`
  /// Detail the writer asks for (/meta@detail; a merge may record less, see MergeResults).
  ResultDetail detail = ResultDetail::kFull;
};

/// The configuration fields /summary shows next to the metrics (the whole configuration is
/// TaskRecord::config_json). Filled from the task's configuration by MakeTaskRecord.
struct TaskKeys {
  std::string policy;            ///< registry name
  std::string trace_path;        ///< trace or workload file
  std::string throughputs_path;  ///< throughputs JSON, catalogue TOML or Pollux profile folder
  int num_gpus = 0;
  /// The cluster's canonical text (Cluster::ToString: "32" for 32 GPUs of the default type,
  /// "k80=8,p100=8,v100=16" for a mixed cluster)
  std::string cluster;
  std::uint64_t seed = 0;
  double round_duration_s = 0.0;
  double deadline_factor = 0.0;
  nlohmann::json policy_options = nlohmann::json::object();
};

/// One finished (or failed) task as stored in /tasks/<task_id> and one /summary row.
/// The store only reads fields: `task_id`, `keys` and `config_json` are computed by the caller
/// (MakeTaskRecord, include/adaptsim/task.hpp), so that src/store depends on the core types only.
struct TaskRecord {
  std::string task_id;  ///< content hash of the task's configuration (TaskConfig::Id())
  int task_index = 0;   ///< position in the sweep's expansion order (0 for `adaptsim run`)
  TaskKeys keys;
  nlohmann::json config_json;  ///< the task's whole configuration (TaskConfig::ToJson())
  SimulationResult result;
  int rank = 0;  ///< MPI rank that simulated the task (informational, not part of the result)
  /// Which of `result`'s tables are stored (the others are not written even when filled).
  ResultDetail detail = ResultDetail::kFull;
};

/// One row of /summary (all columns of docs/results-format.md).
struct SummaryRow {
  std::string task_id;
  int task_index = 0;
  TaskStatus status = TaskStatus::kOk;  ///< stored as its name (ToString)
  std::string message;
  std::string policy;
  std::string trace;
  std::string throughputs;
  int num_gpus = 0;
  /// TaskKeys::cluster; read from a file of schema_version < 4 as num_gpus in decimal
  std::string cluster;
  std::uint64_t seed = 0;
  double round_duration_s = 0.0;
  double deadline_factor = 0.0;
  std::string policy_options;  ///< the task's policy options as canonical JSON text ("{}")
  SummaryMetrics metrics;
  double wall_time_s = 0.0;
  int rank = 0;
};

/// Calls `visit(name, units, field)` for every column of a /summary row, in file order: the
/// task's identity and configuration, the summary metrics (VisitMetricFields), the wall time and
/// the rank. The one list of the columns, which the results file's writer and readers and the
/// Python module's summary() follow. `R` may be const (writing) or not (reading).
template <typename R, typename V>
void VisitSummaryColumns(R& row, V&& visit) {
  visit("task_id", "", row.task_id);
  visit("task_index", "id", row.task_index);
  visit("status", "", row.status);
  visit("message", "", row.message);
  // The configuration fields take key and unit from their declaration (task_key_fields.hpp); its
  // keys are string literals, so .data() is a C string.
  const auto column = [&](const ConfigField& field, auto& member) {
    visit(field.key.data(), field.unit.data(), member);
  };
  column(kPolicyField, row.policy);
  visit("trace", "", row.trace);
  visit("throughputs", "", row.throughputs);
  column(kNumGpusField, row.num_gpus);
  column(kClusterField, row.cluster);
  column(kSeedField, row.seed);
  column(kRoundDurationField, row.round_duration_s);
  column(kDeadlineFactorField, row.deadline_factor);
  column(kPolicyOptionsField, row.policy_options);
  VisitMetricFields(row.metrics, visit);
  visit("wall_time_s", "s", row.wall_time_s);
  visit("rank", "id", row.rank);
}

/// A task read back from /tasks/<task_id>.
struct StoredTask {
  std::string task_id;
  TaskStatus status = TaskStatus::kOk;
  std::string message;
  std::string config_json;  ///< canonical JSON of the configuration (TaskConfig::ToJson().dump())
  int rank = 0;
  /// The stored detail (/tasks/<id>@detail; files of schema 2 have none: kFull). Tables above it
  /// come back empty.
  ResultDetail detail = ResultDetail::kFull;
  /// Jobs, rounds (worker ids are not stored and come back empty), throughput timeline,
  /// gpu_busy_time_s, summary metrics, lease counters, policy statistics and wall time.
  SimulationResult result;
};

/// Writes `record` as a one-task results file at `path`, crash-safely: it is written under
/// TemporaryPath(path), fsync'd, then renamed over `path` (rename(2) atomically replaces the
/// target, http://huge-man-linux.net/man2/rename.html), so `path` is either absent or complete
/// even after kill -9 or a node failure (the folder is not synced: after a node failure a just
/// renamed shard may be absent, and a sweep reruns its task). Throws StoreError.
void WriteShard(const std::string& path, const TaskRecord& record, const Provenance& provenance);

/// The bytes of the one-task results file WriteShard would write (built in memory with HDF5's
/// core driver): lets an MPI worker encode its result so that it (or rank 0) just stores bytes
/// (WriteShardImage). Throws StoreError.
std::vector<unsigned char> EncodeShard(const TaskRecord& record, const Provenance& provenance);
/// The same for several tasks in one file (a sweep worker's finished batch): /summary has one
/// row per record in the given order, /tasks one group each, /meta@detail the lowest of their
/// details. Throws StoreError (also for no records).
std::vector<unsigned char> EncodeShard(std::span<const TaskRecord> records,
                                       const Provenance& provenance);
/// Stores a file image from EncodeShard (or any bytes: the sweep's checksum file) at `path`,
/// crash-safely as WriteShard does. Throws StoreError.
void WriteShardImage(const std::string& path, const std::vector<unsigned char>& image);

/// Writes `record` as the one-task results file `out.results()` (`adaptsim run --out`) the way a
/// sweep publishes its merged file: EncodeShard's image under `out.temporary()`, fsync'd, renamed
/// over `out.results()`, and the folder synced so that the rename survives a node failure.
/// Throws StoreError naming the path and the system's error text (nothing is left behind).
void WriteResults(const OutputPaths& out, const TaskRecord& record, const Provenance& provenance);

/// What MergeResults writes.
struct MergeOptions {
  /// Results files (shards or merged files). A task id found in several sources is taken from
  /// the last one (so pass older files first).
  std::vector<std::string> sources;
  /// When non-empty: write only these task ids, with these task_index values (a sweep's own
  /// tasks); otherwise every task of every source with its stored task_index.
  std::map<std::string, int> select;
  /// /meta of the merged file. Its `detail` caps what is written: each task is stored at the
  /// lower of its stored detail and this one, and /meta@detail is the lowest detail of any `ok`
  /// task written (or provenance.detail when there is none), so that "every ok task holds at
  /// least /meta@detail" is true of every merged file.
  Provenance provenance;
  std::map<std::string, double> statistics;  ///< extra numeric /meta attributes (run statistics)
};

/// Writes one results file `out.results()` holding the chosen tasks (/tasks groups read back
/// and rewritten, /summary rows sorted by task_index), crash-safely (under `out.temporary()`,
/// fsync, rename, folder synced). Unreadable sources throw StoreError. Returns the number of
/// tasks written.
std::size_t MergeResults(const OutputPaths& out, const MergeOptions& options);

/// Re-opens a merged file and checks that it holds every id of `task_ids`, both as a /summary
/// row and as a /tasks group. Returns the ids missing (empty: verified). Throws StoreError when
/// the file cannot be read.
std::vector<std::string> MissingTasks(const std::string& path,
                                      const std::set<std::string>& task_ids);

/// All /summary rows in file order (completion order; sort by task_index for sweep order).
std::vector<SummaryRow> ReadSummary(const std::string& path);
/// The /summary rows of a results file or shard with its /meta@detail.
struct SummaryWithDetail {
  ResultDetail detail = ResultDetail::kFull;
  std::vector<SummaryRow> rows;  ///< as ReadSummary
};
/// ReadFileDetail and ReadSummary of `path` through one opening of the file (resume reads every
/// shard without manifest lines this way). Throws StoreError.
SummaryWithDetail ReadSummaryWithDetail(const std::string& path);
/// The stored task `task_id`. Throws StoreError when it is absent or the file's schema_version is
/// outside [kOldestReadableSchemaVersion, kResultsSchemaVersion].
StoredTask ReadTask(const std::string& path, const std::string& task_id);
/// /meta@detail of a results file (kFull for files written before detail levels existed).
/// Throws StoreError.
ResultDetail ReadFileDetail(const std::string& path);
/// /meta attributes rendered as strings (numbers in decimal).
std::map<std::string, std::string> ReadMeta(const std::string& path);
/// Column name -> `units` attribute of every dataset in `group` (e.g. "/summary",
/// "/tasks/<id>/jobs"); columns without a units attribute (strings) are absent.
std::map<std::string, std::string> ReadColumnUnits(const std::string& path,
                                                   const std::string& group);

}  // namespace adaptsim
