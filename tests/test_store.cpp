// Results file: every column written by WriteShard/WriteResults comes back unchanged; units are
// present.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/checksum.hpp"
#include "adaptsim/output_paths.hpp"
#include "adaptsim/result_fields.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_status.hpp"
#include "store/hdf5_io.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

/// A temporary file path removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::string& name)
      : path_((fs::temp_directory_path() /
               ("adaptsim_test_" + std::to_string(::getpid()) + "_" + name + ".h5"))
                  .string()) {
    fs::remove(path_);
  }
  ~TempFile() { fs::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TaskConfig SyntheticConfig() {
  TaskConfig config;
  config.trace_path = "/data/ü.trace";  // UTF-8 survives
  config.throughputs_path = "/data/t.json";
  config.policy = "gandiva_fair";
  config.seed = 42;
  config.simulation.num_gpus = 4;
  config.simulation.round_duration_s = 360;
  config.simulation.deadline_factor = 1.25;
  config.policy_options = {{"alpha", 0.5}};
  return config;
}

TaskRecord SyntheticRecord() {
  TaskRecord record = MakeTaskRecord(SyntheticConfig(), 5, SimulationResult{}, 2);
  SimulationResult& r = record.result;
  r.status = TaskStatus::kTimeout;
  r.message = "max_rounds reached";
  r.jobs = {{0, "ResNet-18", 1, 32, 64, 0.0, 1000.5, 1000.5, 800.25, 1.25, 1.5, 2,
             JobOutcome::kCompleted, RoundJobExtras{AdaptationMode::kAccordion, 9}},
            {1, "LM", 4, 16, 16, 10.0, 5000.0, 4990.0, 100.0, 49.9,
             std::numeric_limits<double>::infinity(), 0, JobOutcome::kDeadline,
             RoundJobExtras{AdaptationMode::kStatic, 40}},
            {2, "Transformer", 2, 8, 128, 20.0, 0.0, 0.0, 30.0, 0.0, 0.0, 0,
             JobOutcome::kUnfinished, RoundJobExtras{AdaptationMode::kGns, 0}}};
  r.rounds = {{0, 0.0, 120.0, 5, 2, {0, 1}, {{0}, {1, 2, 3, 4}}},
              {1, 120.0, 240.0, 0, 1, {}, {}},
              {2, 240.0, 355.5, 3, 3, {2, 0}, {{0, 1}, {2}}}};
  r.throughput_timeline = {{0, 1, 12.5, 32}, {1, 1, 3.25, 16}, {0, 3, 11.0, 64}};
  r.gpu_busy_time_s = {240.0, 120.0, 120.0, 0.5};
  r.lease_extensions = 7;
  r.lease_extension_opportunities = 9;
  r.summary = {5000.0, 2000.5, 1500.25, 1200.125, 4900.0, 1.1, 49.9, 0.33, 0.25,
               0.61,   77.7,   0.66,    3,        3,      1,   0,    0.95, 31.5};
  r.jobs[0].ftf_rho_type_weighted = 1.0625;
  r.jobs[1].ftf_rho_type_weighted = 31.5;
  r.gpu_types = {{"k80", 1, 0.5, 120.0 / 3600, 2.5}, {"v100", 3, 0.25, 360.5 / 3600, 0.75}};
  r.policy_statistics = {{"allocation_solves", 3.0}, {"solve_time_s", 0.125}};
  r.input_statistics = {{"rows_read", 82247}, {"selected", 3139}};
  r.wall_time_s = 0.75;
  return record;
}

// Field values of a record, in the order of its field list (adaptsim/result_fields.hpp).
using FieldValue = std::variant<std::int64_t, double, std::string>;
FieldValue Value(int v) {
  return std::int64_t{v};
}
FieldValue Value(double v) {
  return v;
}
FieldValue Value(const std::string& v) {
  return v;
}
FieldValue Value(AdaptationMode v) {
  return std::string(ToString(v));
}
FieldValue Value(JobOutcome v) {
  return std::string(ToString(v));
}

/// Every field of the field list of `R` is equal in `a` and `b` (exact, as the file stores it).
template <typename R, typename Visit>
void ExpectSameFields(const R& a, const R& b, Visit visit) {
  std::vector<std::pair<std::string, FieldValue>> fields_a, fields_b;
  visit(a, [&](const char* name, const char*, const auto& f) {
    fields_a.emplace_back(name, Value(f));
  });
  visit(b, [&](const char* name, const char*, const auto& f) {
    fields_b.emplace_back(name, Value(f));
  });
  ASSERT_EQ(fields_a.size(), fields_b.size());
  ASSERT_FALSE(fields_a.empty());
  for (std::size_t i = 0; i < fields_a.size(); ++i) {
    EXPECT_TRUE(fields_a[i].second == fields_b[i].second) << fields_a[i].first;
  }
}

void ExpectSameMetrics(const SummaryMetrics& a, const SummaryMetrics& b) {
  ExpectSameFields(a, b, [](const auto& m, auto&& v) { VisitMetricFields(m, v); });
}

void ExpectSameJob(const JobResult& a, const JobResult& b) {
  ExpectSameFields(a, b, [](const auto& j, auto&& v) { VisitJobFields(j, v); });
  ASSERT_EQ(a.extras.index(), b.extras.index()) << "job " << a.id;
  ExpectSameFields(a, b, [](const auto& j, auto&& v) { VisitJobExtrasFieldsOf(j, v); });
}

TEST(ResultsFileTest, SummaryRowRoundTrips) {
  TempFile file("summary");
  TaskRecord record = SyntheticRecord();
  WriteShard(file.path(), record, Provenance{{"adaptsim", "run"}, 1, "", ""});
  std::vector<SummaryRow> rows = ReadSummary(file.path());
  ASSERT_EQ(rows.size(), 1u);
  const SummaryRow& row = rows[0];
  EXPECT_EQ(row.task_id, record.task_id);
  EXPECT_EQ(row.task_index, 5);
  EXPECT_EQ(row.status, TaskStatus::kTimeout);
  EXPECT_EQ(row.message, "max_rounds reached");
  EXPECT_EQ(row.policy, "gandiva_fair");
  EXPECT_EQ(row.trace, "/data/ü.trace");
  EXPECT_EQ(row.throughputs, "/data/t.json");
  EXPECT_EQ(row.num_gpus, 4);
  EXPECT_EQ(row.cluster, "4");
  EXPECT_EQ(row.seed, 42u);
  EXPECT_EQ(row.round_duration_s, 360.0);
  EXPECT_EQ(row.deadline_factor, 1.25);
  ExpectSameMetrics(row.metrics, record.result.summary);
  EXPECT_EQ(row.wall_time_s, 0.75);
  EXPECT_EQ(row.rank, 2);
}

/// /tasks/<id> of `path` holds exactly `record`.
void ExpectStoredTaskEquals(const std::string& path, const TaskRecord& record) {
  StoredTask task = ReadTask(path, record.task_id);
  const SimulationResult& in = record.result;
  const SimulationResult& out = task.result;
  EXPECT_EQ(task.status, TaskStatus::kTimeout);
  EXPECT_EQ(task.message, "max_rounds reached");
  EXPECT_EQ(task.rank, 2);
  EXPECT_EQ(task.config_json, SyntheticConfig().ToJson().dump());
  ASSERT_EQ(out.jobs.size(), in.jobs.size());
  for (std::size_t i = 0; i < in.jobs.size(); ++i) ExpectSameJob(out.jobs[i], in.jobs[i]);
  ASSERT_EQ(out.rounds.size(), in.rounds.size());
  for (std::size_t i = 0; i < in.rounds.size(); ++i) {
    ExpectSameFields(out.rounds[i], in.rounds[i],
                     [](const auto& r, auto&& v) { VisitRoundFields(r, v); });
    EXPECT_EQ(out.rounds[i].running_job_ids, in.rounds[i].running_job_ids);
  }
  ASSERT_EQ(out.throughput_timeline.size(), in.throughput_timeline.size());
  for (std::size_t i = 0; i < in.throughput_timeline.size(); ++i) {
    ExpectSameFields(out.throughput_timeline[i], in.throughput_timeline[i],
                     [](const auto& s, auto&& v) { VisitThroughputFields(s, v); });
  }
  EXPECT_EQ(out.gpu_busy_time_s, in.gpu_busy_time_s);
  ASSERT_EQ(out.gpu_types.size(), in.gpu_types.size());
  for (std::size_t i = 0; i < in.gpu_types.size(); ++i) {
    ExpectSameFields(out.gpu_types[i], in.gpu_types[i],
                     [](const auto& t, auto&& v) { VisitGpuTypeFields(t, v); });
  }
  EXPECT_EQ(out.lease_extensions, 7);
  EXPECT_EQ(out.lease_extension_opportunities, 9);
  ExpectSameMetrics(out.summary, in.summary);
  EXPECT_EQ(out.policy_statistics, in.policy_statistics);
  EXPECT_EQ(out.input_statistics, in.input_statistics);
  EXPECT_EQ(out.wall_time_s, 0.75);
}

TEST(ResultsFileTest, TaskTablesRoundTrip) {
  TempFile file("task");
  TaskRecord record = SyntheticRecord();
  WriteShard(file.path(), record, Provenance{});
  ExpectStoredTaskEquals(file.path(), record);
}

// The interval engine's jobs carry their own extras (the application), stored in their own
// columns and read back as IntervalJobExtras.
TEST(ResultsFileTest, IntervalEngineExtrasRoundTrip) {
  TempFile file("interval");
  TaskRecord record = SyntheticRecord();
  const char* applications[] = {"cifar10", "ncf", "job-2"};
  for (std::size_t i = 0; i < record.result.jobs.size(); ++i) {
    record.result.jobs[i].extras = IntervalJobExtras{applications[i]};
  }
  WriteShard(file.path(), record, Provenance{});
  ExpectStoredTaskEquals(file.path(), record);
  const StoredTask task = ReadTask(file.path(), record.task_id);
  ASSERT_EQ(task.result.jobs.size(), 3u);
  const auto* extras = std::get_if<IntervalJobExtras>(&task.result.jobs[1].extras);
  ASSERT_NE(extras, nullptr);
  EXPECT_EQ(extras->application, "ncf");
  // No round-engine column in an interval task's jobs table.
  auto units = ReadColumnUnits(file.path(), "/tasks/" + record.task_id + "/jobs");
  EXPECT_EQ(units.count("rounds_run"), 0u);
  EXPECT_EQ(units.at("requested_gpus"), "gpus");
}

TEST(ResultsFileTest, JobsOfTwoEnginesInOneTaskAreRefused) {
  TempFile file("mixed");
  TaskRecord record = SyntheticRecord();
  record.result.jobs[1].extras = IntervalJobExtras{"ncf"};
  EXPECT_THROW(EncodeShard(record, Provenance{}), StoreError);
  EXPECT_THROW(WriteShard(file.path(), record, Provenance{}), StoreError);
  EXPECT_FALSE(fs::exists(file.path()));
}

/// Rewrites the results file at `path` into the layout of schema version 2: the jobs columns
/// `workload` and `requested_gpus` were `model` and `scale_factor`, the jobs group had no
/// `engine` attribute (docs/results-format.md).
void DowngradeToVersion2(const std::string& path, const std::string& task_id) {
  store::ErrorScope errors;
  store::Handle file = store::OpenFile(path, true);
  store::Handle meta = store::OpenGroup(file, "meta");
  store::WriteAttribute(meta, "schema_version", std::int64_t{2});
  store::Handle jobs = store::OpenGroup(file, "tasks/" + task_id + "/jobs");
  store::Check(H5Lmove(jobs, "workload", jobs, "model", H5P_DEFAULT, H5P_DEFAULT), "rename");
  store::Check(H5Lmove(jobs, "requested_gpus", jobs, "scale_factor", H5P_DEFAULT, H5P_DEFAULT),
               "rename");
  store::Check(H5Adelete(jobs, "engine"), "delete engine");
}

/// Removes from the results file at `path` what schema version 4 added (docs/results-format.md):
/// the /summary column `cluster`, the type-weighted ρ in /summary, the task's summary attributes
/// and its jobs table, the task's `gpu_types` table; and sets schema_version to `version`.
void RemoveVersion4Additions(const std::string& path, const std::string& task_id,
                             std::int64_t version) {
  store::ErrorScope errors;
  store::Handle file = store::OpenFile(path, true);
  store::Handle meta = store::OpenGroup(file, "meta");
  store::WriteAttribute(meta, "schema_version", version);
  for (const char* column :
       {"cluster", "mean_ftf_rho_type_weighted", "worst_ftf_rho_type_weighted"}) {
    store::Check(H5Ldelete(file, ("summary/" + std::string(column)).c_str(), H5P_DEFAULT), column);
  }
  const std::string task = "tasks/" + task_id;
  store::Check(H5Ldelete(file, (task + "/jobs/ftf_rho_type_weighted").c_str(), H5P_DEFAULT),
               "jobs column");
  store::Check(H5Ldelete(file, (task + "/gpu_types").c_str(), H5P_DEFAULT), "gpu_types");
  store::Handle summary = store::OpenGroup(file, task + "/summary");
  store::Check(H5Adelete(summary, "mean_ftf_rho_type_weighted"), "summary attribute");
  store::Check(H5Adelete(summary, "worst_ftf_rho_type_weighted"), "summary attribute");
}

/// `record` as a file of schema version 2 or 3 reads back: without what version 4 added.
TaskRecord WithoutVersion4Fields(TaskRecord record) {
  SimulationResult& r = record.result;
  r.summary.mean_ftf_rho_type_weighted = r.summary.worst_ftf_rho_type_weighted = 0.0;
  for (JobResult& job : r.jobs) job.ftf_rho_type_weighted = 0.0;
  r.gpu_types.clear();
  return record;
}

// A file of schema version 3 (before the cluster column, the type-weighted ρ and the GPU-type
// table) reads back without them, with the cluster of its GPU count, and merges into version 4.
TEST(ResultsFileTest, ReadsAndMergesSchemaVersion3) {
  TempFile old_file("version3");
  TaskRecord record = SyntheticRecord();
  WriteShard(old_file.path(), record, Provenance{});
  RemoveVersion4Additions(old_file.path(), record.task_id, 3);
  ASSERT_EQ(ReadMeta(old_file.path()).at("schema_version"), "3");
  const TaskRecord expected = WithoutVersion4Fields(record);
  ExpectStoredTaskEquals(old_file.path(), expected);
  const std::vector<SummaryRow> rows = ReadSummary(old_file.path());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].cluster, "4");
  ExpectSameMetrics(rows[0].metrics, expected.result.summary);
  TempFile merged("version3_merged");
  MergeOptions options;
  options.sources = {old_file.path()};
  EXPECT_EQ(MergeResults(OutputPaths(merged.path()), options), 1u);
  EXPECT_EQ(ReadMeta(merged.path()).at("schema_version"), std::to_string(kResultsSchemaVersion));
  ExpectStoredTaskEquals(merged.path(), expected);
  EXPECT_EQ(ReadSummary(merged.path()).at(0).cluster, "4");
}

TEST(ResultsFileTest, ReadsAndMergesSchemaVersion2) {
  TempFile old_file("version2");
  TaskRecord record = SyntheticRecord();
  WriteShard(old_file.path(), record, Provenance{});
  RemoveVersion4Additions(old_file.path(), record.task_id, 2);
  DowngradeToVersion2(old_file.path(), record.task_id);
  ASSERT_EQ(ReadMeta(old_file.path()).at("schema_version"), "2");
  record = WithoutVersion4Fields(record);
  ExpectStoredTaskEquals(old_file.path(), record);
  EXPECT_EQ(ReadSummary(old_file.path()).at(0).status, TaskStatus::kTimeout);
  // Merging rewrites it in the current layout.
  TempFile merged("version2_merged");
  MergeOptions options;
  options.sources = {old_file.path()};
  EXPECT_EQ(MergeResults(OutputPaths(merged.path()), options), 1u);
  EXPECT_EQ(ReadMeta(merged.path()).at("schema_version"), std::to_string(kResultsSchemaVersion));
  ExpectStoredTaskEquals(merged.path(), record);
}

TEST(ResultsFileTest, UnknownSchemaVersionIsAClearError) {
  TempFile file("version99");
  TaskRecord record = SyntheticRecord();
  WriteShard(file.path(), record, Provenance{});
  {
    store::ErrorScope errors;
    store::Handle handle = store::OpenFile(file.path(), true);
    store::Handle meta = store::OpenGroup(handle, "meta");
    store::WriteAttribute(meta, "schema_version", std::int64_t{99});
  }
  try {
    ReadTask(file.path(), record.task_id);
    FAIL() << "expected StoreError";
  } catch (const StoreError& error) {
    EXPECT_NE(std::string(error.what()).find("schema_version 99"), std::string::npos)
        << error.what();
  }
}

TEST(TaskStatusTest, NamesRoundTripAndUnknownNamesThrow) {
  for (TaskStatus status : kTaskStatuses) {
    EXPECT_EQ(ParseTaskStatus(ToString(status)), status);
  }
  EXPECT_EQ(ToString(TaskStatus::kCancelled), "cancelled");
  try {
    ParseTaskStatus("pending");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("'pending'"), std::string::npos) << what;
    EXPECT_NE(what.find("cancelled"), std::string::npos) << what;
  }
}

/// The line of `path` that starts with `prefix` ("" when none).
std::string LineStartingWith(const std::string& path, const std::string& prefix) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

// The documented status values are the enum's: the /summary `status` row of the results format
// and the list in the sweeps guide name every TaskStatus.
TEST(TaskStatusTest, DocsListEveryValue) {
  const std::string docs = std::string(ADAPTSIM_SOURCE_DIR) + "/docs/";
  const std::string summary_row = LineStartingWith(docs + "results-format.md", "| `status` |");
  const std::string sweeps_line =
      LineStartingWith(docs + "sweeps.md", "(`include/adaptsim/task_status.hpp`)");
  ASSERT_FALSE(summary_row.empty());
  ASSERT_FALSE(sweeps_line.empty());
  for (TaskStatus status : kTaskStatuses) {
    const std::string name = "`" + std::string(ToString(status)) + "`";
    EXPECT_NE(summary_row.find(name), std::string::npos) << name << " in " << summary_row;
    EXPECT_NE(sweeps_line.find(name), std::string::npos) << name << " in " << sweeps_line;
  }
}

// The MPI farm's path: a worker encodes the shard in memory, rank 0 stores the bytes.
TEST(ResultsFileTest, ShardImageIsTheSameShardAsWriteShard) {
  TempFile direct("shard_direct");
  TempFile image("shard_image");
  TaskRecord record = SyntheticRecord();
  Provenance provenance{{"adaptsim", "sweep", "s.toml"}, 3, "sweep_name", "s.toml"};
  WriteShard(direct.path(), record, provenance);
  std::vector<unsigned char> bytes = EncodeShard(record, provenance);
  ASSERT_GT(bytes.size(), 1000u);
  WriteShardImage(image.path(), bytes);
  ExpectStoredTaskEquals(image.path(), record);
  std::vector<SummaryRow> a = ReadSummary(direct.path());
  std::vector<SummaryRow> b = ReadSummary(image.path());
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].task_id, a[0].task_id);
  EXPECT_EQ(b[0].policy_options, a[0].policy_options);
  ExpectSameMetrics(b[0].metrics, a[0].metrics);
  std::map<std::string, std::string> meta_a = ReadMeta(direct.path());
  std::map<std::string, std::string> meta_b = ReadMeta(image.path());
  meta_a.erase("created_utc");
  meta_b.erase("created_utc");
  EXPECT_EQ(meta_b, meta_a);
  EXPECT_EQ(meta_b.at("rank_count"), "3");
  // Both merge into one file like any shards.
  TempFile merged("shard_merged");
  MergeOptions options;
  options.sources = {direct.path(), image.path()};
  EXPECT_EQ(MergeResults(OutputPaths(merged.path()), options), 1u);
  ExpectStoredTaskEquals(merged.path(), record);
}

TEST(ResultsFileTest, EveryNumericColumnHasUnits) {
  TempFile file("units");
  TaskRecord record = SyntheticRecord();
  WriteShard(file.path(), record, Provenance{});
  auto summary = ReadColumnUnits(file.path(), "/summary");
  EXPECT_EQ(summary.size(), 29u);  // 36 columns, 7 of them strings
  EXPECT_EQ(summary["makespan_s"], "s");
  EXPECT_EQ(summary["mean_contention"], "count");
  EXPECT_EQ(summary["max_contention"], "count");
  EXPECT_EQ(summary["gpu_hours_per_job"], "GPU-h");
  EXPECT_EQ(summary["unfair_fraction_type_weighted"], "1");
  EXPECT_EQ(summary["utilization"], "1");
  EXPECT_EQ(summary["num_gpus"], "gpus");
  EXPECT_EQ(summary.count("policy"), 0u);
  std::string task = "/tasks/" + record.task_id;
  auto jobs = ReadColumnUnits(file.path(), task + "/jobs");
  EXPECT_EQ(jobs.size(), 13u);  // 16 columns (14 neutral, 2 round-engine), 3 of them strings
  EXPECT_EQ(jobs["jct_s"], "s");
  EXPECT_EQ(jobs["final_batch_size"], "samples");
  EXPECT_EQ(ReadColumnUnits(file.path(), task + "/rounds").size(), 7u);
  EXPECT_EQ(ReadColumnUnits(file.path(), task + "/throughput_timeline")["steps_per_s"], "steps/s");
  EXPECT_EQ(ReadColumnUnits(file.path(), task)["gpu_busy_time_s"], "s");
  auto gpu_types = ReadColumnUnits(file.path(), task + "/gpu_types");
  EXPECT_EQ(gpu_types.size(), 4u);  // 5 columns, gpu_type a string
  EXPECT_EQ(gpu_types["busy_gpu_hours"], "GPU-h");
}

TEST(ResultsFileTest, MetaRecordsProvenance) {
  TempFile file("meta");
  MergeOptions no_tasks;
  no_tasks.provenance = Provenance{{"adaptsim", "sweep", "x.toml"}, 3, "smoke", "x.toml"};
  EXPECT_EQ(MergeResults(OutputPaths(file.path()), no_tasks), 0u);
  auto meta = ReadMeta(file.path());
  EXPECT_EQ(meta["schema_version"], std::to_string(kResultsSchemaVersion));
  EXPECT_EQ(meta["rank_count"], "3");
  EXPECT_EQ(meta["command_line"], "adaptsim sweep x.toml");
  EXPECT_EQ(meta["sweep_name"], "smoke");
  EXPECT_FALSE(meta["adaptsim_version"].empty());
  EXPECT_FALSE(meta["git_sha"].empty());
  EXPECT_EQ(meta["hdf5_version"].rfind("1.", 0), 0u);
  EXPECT_EQ(meta["created_utc"].size(), 20u);  // 2025-01-01T00:00:00Z
  EXPECT_TRUE(ReadSummary(file.path()).empty());
}

TEST(ResultsFileTest, AFailedTaskWithEmptyTablesRoundTripsBesideAnOkTask) {
  TempFile file("failed");
  TaskRecord first = SyntheticRecord();
  TaskConfig failed_config = SyntheticConfig();
  failed_config.seed = 43;
  TaskRecord failed = MakeTaskRecord(failed_config, 1, SimulationResult{}, 0);  // empty tables
  failed.result.status = TaskStatus::kFailed;
  failed.result.message = "trace.trace:3: field 'model': unknown";
  const std::vector<TaskRecord> records = {first, failed};
  WriteShardImage(file.path(), EncodeShard(records, Provenance{}));
  std::vector<SummaryRow> rows = ReadSummary(file.path());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].task_id, first.task_id);
  EXPECT_EQ(rows[1].status, TaskStatus::kFailed);
  StoredTask task = ReadTask(file.path(), failed.task_id);
  EXPECT_EQ(task.message, failed.result.message);
  EXPECT_TRUE(task.result.jobs.empty());
  EXPECT_TRUE(task.result.rounds.empty());
  ExpectStoredTaskEquals(file.path(), first);
}

/// `adaptsim run --out`: the file is published whole (no temporary left), with its checksum file
/// as a sweep's merged file has, and a second write replaces both.
TEST(ResultsFileTest, WriteResultsWithChecksumPublishesTheFileAndItsChecksum) {
  TempFile file("run_out");
  const OutputPaths out(file.path());
  TaskRecord record = SyntheticRecord();
  WriteResultsWithChecksum(out, record, Provenance{{"adaptsim", "run"}, 1, "", ""});
  ExpectStoredTaskEquals(out.results(), record);
  EXPECT_EQ(ReadMeta(out.results()).at("command_line"), "adaptsim run");
  EXPECT_FALSE(fs::exists(out.temporary()));
  std::string digest, name;
  std::ifstream(out.checksum()) >> digest >> name;
  EXPECT_EQ(digest, FileSha256Hex(out.results()));
  EXPECT_EQ(name, fs::path(out.results()).filename().string());
  EXPECT_TRUE(CheckChecksumFile(out).matches);
  TaskConfig other_config = SyntheticConfig();
  other_config.seed = 44;
  TaskRecord other = MakeTaskRecord(other_config, 0, SimulationResult{}, 0);
  WriteResultsWithChecksum(out, other, Provenance{});
  ASSERT_EQ(ReadSummary(out.results()).size(), 1u);
  EXPECT_EQ(ReadSummary(out.results()).at(0).task_id, other.task_id);
  EXPECT_TRUE(CheckChecksumFile(out).matches);
  EXPECT_NE(FileSha256Hex(out.results()), digest);
  fs::remove(out.checksum());
}

TEST(ResultsFileTest, ErrorsAreStoreErrors) {
  TempFile file("not_hdf5");
  std::ofstream(file.path()) << "plain text";
  EXPECT_THROW(ReadSummary(file.path()), StoreError);
  EXPECT_THROW(ReadSummary(file.path() + ".missing"), StoreError);
  EXPECT_THROW(WriteShard("/nonexistent-dir/x.h5", SyntheticRecord(), Provenance{}), StoreError);
  EXPECT_THROW(WriteResultsWithChecksum(OutputPaths("/nonexistent-dir/x.h5"), SyntheticRecord(),
                                        Provenance{}),
               StoreError);
  TempFile empty("no_task");
  MergeResults(OutputPaths(empty.path()), MergeOptions{});
  EXPECT_THROW(ReadTask(empty.path(), "0123"), StoreError);
}

}  // namespace
}  // namespace adaptsim
