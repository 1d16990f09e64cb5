// Reading the results file back (tests, resume, comparisons).
#include <string_view>
#include <type_traits>
#include <variant>

#include "adaptsim/store.hpp"
#include "columns.hpp"
#include "hdf5_io.hpp"

namespace adaptsim {
namespace {

using store::Handle;

std::string StringAttribute(hid_t object, const std::string& name) {
  return store::ToString(store::ReadAttribute(object, name));
}

std::int64_t IntegerAttribute(hid_t object, const std::string& name) {
  auto value = store::ReadAttribute(object, name);
  if (const auto* v = std::get_if<std::int64_t>(&value)) return *v;
  store::Fail("attribute " + name + " is not a signed integer");
}

/// Reads the attribute into `field` (int64 for integers, double for reals).
template <typename T>
void ReadNumberAttribute(hid_t object, const std::string& name, T& field) {
  auto value = store::ReadAttribute(object, name);
  using S = decltype(store::ToStored(field));
  const auto* v = std::get_if<S>(&value);
  if (v == nullptr) store::Fail("attribute " + name + " has an unexpected type");
  store::FromStored(*v, field);
}

/// Column `name` of `group` as a vector of T; StoreError when it holds another element type.
template <typename T>
std::vector<T> TypedColumn(hid_t group, const std::string& name) {
  store::ColumnData column = store::ReadColumn(group, name);
  auto* values = std::get_if<std::vector<T>>(&column);
  if (values == nullptr) store::Fail("column " + name + " has an unexpected type");
  return std::move(*values);
}

std::vector<RoundResult> ReadRounds(hid_t task_group) {
  Handle group = store::OpenGroup(task_group, "rounds");
  auto rounds =
      store::ReadTable<RoundResult>(group, [](auto& r, auto&& v) { VisitRoundFields(r, v); });
  auto ids = TypedColumn<std::int64_t>(group, "running_job_ids");
  auto offsets = TypedColumn<std::int64_t>(group, "running_offsets");
  if (offsets.size() != rounds.size() + 1) store::Fail("running_offsets has the wrong length");
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    if (offsets[r] < 0 || offsets[r] > offsets[r + 1] ||
        offsets[r + 1] > static_cast<std::int64_t>(ids.size())) {
      store::Fail("running_offsets is not a valid CSR index");
    }
    rounds[r].running_job_ids.assign(ids.begin() + offsets[r], ids.begin() + offsets[r + 1]);
  }
  return rounds;
}

/// Version 2's name of a job column ("model" and "scale_factor" before they became "workload" and
/// "requested_gpus"; docs/results-format.md).
const char* Version2JobColumn(const char* name) {
  const std::string_view column = name;
  if (column == "workload") return "model";
  if (column == "requested_gpus") return "scale_factor";
  return name;
}

/// The jobs table of schema version 2, which did not record the engine: its mode and rounds_run
/// columns become RoundJobExtras (an interval-engine task of version 2 reads back with default
/// round extras; its workload column holds the application).
std::vector<JobResult> ReadVersion2Jobs(hid_t group) {
  std::vector<JobResult> jobs = store::ReadTable<JobResult>(group, [](auto& j, auto&& v) {
    auto renamed = [&](const char* name, const char* units, auto& field) {
      v(Version2JobColumn(name), units, field);
    };
    VisitJobFields(j, store::ColumnsOfVersion(2, renamed));
  });
  std::vector<RoundJobExtras> extras = store::ReadTable<RoundJobExtras>(
      group, [](auto& e, auto&& v) { VisitJobExtrasFields(e, v); });
  if (extras.size() != jobs.size()) store::Fail("jobs: columns of unequal length");
  for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i].extras = extras[i];
  return jobs;
}

/// The jobs table (WriteJobs in results_file.cpp): neutral columns, then the extras of the
/// engine named by the group's `engine` attribute.
std::vector<JobResult> ReadJobs(hid_t task_group, std::int64_t schema_version) {
  Handle group = store::OpenGroup(task_group, "jobs");
  if (schema_version == 2) return ReadVersion2Jobs(group);
  std::vector<JobResult> jobs = store::ReadTable<JobResult>(group, [&](auto& j, auto&& v) {
    VisitJobFields(j, store::ColumnsOfVersion(schema_version, v));
  });
  if (jobs.empty()) return jobs;
  const std::string engine = StringAttribute(group, "engine");
  JobExtras kind;
  if (!MakeJobExtras(engine, kind)) store::Fail("jobs: unknown engine '" + engine + "'");
  std::visit(
      [&](const auto& probe) {
        using Extras = std::decay_t<decltype(probe)>;
        std::vector<Extras> extras =
            store::ReadTable<Extras>(group, [](auto& e, auto&& v) { VisitJobExtrasFields(e, v); });
        if (extras.size() != jobs.size()) store::Fail("jobs: columns of unequal length");
        for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i].extras = extras[i];
      },
      kind);
  return jobs;
}

/// /meta@schema_version of `file`. Throws StoreError for a version this build cannot read.
std::int64_t SchemaVersion(hid_t file, const std::string& path) {
  Handle meta = store::OpenGroup(file, "meta");
  const std::int64_t version = IntegerAttribute(meta, "schema_version");
  if (version < kOldestReadableSchemaVersion || version > kResultsSchemaVersion) {
    throw StoreError("'" + path + "' has schema_version " + std::to_string(version) +
                     "; this adaptsim reads versions " +
                     std::to_string(kOldestReadableSchemaVersion) + " to " +
                     std::to_string(kResultsSchemaVersion));
  }
  return version;
}

/// The tables `detail` says are stored; the others stay empty.
void ReadResultTables(hid_t task_group, std::int64_t schema_version, SimulationResult& result,
                      ResultDetail detail) {
  if (detail < ResultDetail::kPerJob) return;
  result.jobs = ReadJobs(task_group, schema_version);
  if (detail < ResultDetail::kFull) return;
  result.rounds = ReadRounds(task_group);
  Handle timeline = store::OpenGroup(task_group, "throughput_timeline");
  result.throughput_timeline = store::ReadTable<ThroughputSample>(
      timeline, [](auto& s, auto&& v) { VisitThroughputFields(s, v); });
  result.gpu_busy_time_s = TypedColumn<double>(task_group, "gpu_busy_time_s");
}

/// The per-GPU-type table (schema_version 4 on; older files have none: empty).
std::vector<GpuTypeResult> ReadGpuTypes(hid_t task_group, std::int64_t schema_version) {
  if (schema_version < 4) return {};
  Handle group = store::OpenGroup(task_group, "gpu_types");
  return store::ReadTable<GpuTypeResult>(group,
                                         [](auto& t, auto&& v) { VisitGpuTypeFields(t, v); });
}

void ReadSummaryAttributes(hid_t task_group, std::int64_t schema_version,
                           SimulationResult& result) {
  Handle summary = store::OpenGroup(task_group, "summary");
  auto read = [&](const char* name, const char*, auto& field) {
    ReadNumberAttribute(summary, name, field);
  };
  VisitMetricFields(result.summary, store::ColumnsOfVersion(schema_version, read));
  ReadNumberAttribute(summary, "lease_extensions", result.lease_extensions);
  ReadNumberAttribute(summary, "lease_extension_opportunities",
                      result.lease_extension_opportunities);
  Handle statistics = store::OpenGroup(task_group, "policy_statistics");
  for (const auto& name : store::AttributeNames(statistics)) {
    ReadNumberAttribute(statistics, name, result.policy_statistics[name]);
  }
  if (!store::Exists(task_group, "input_statistics")) return;  // written only when non-empty
  Handle input = store::OpenGroup(task_group, "input_statistics");
  for (const auto& name : store::AttributeNames(input)) {
    ReadNumberAttribute(input, name, result.input_statistics[name]);
  }
}

/// The detail attribute of a task group or /meta; absent (schema 2 files) means kFull.
ResultDetail DetailAttribute(hid_t object, const std::string& where) {
  if (!store::HasAttribute(object, "detail")) return ResultDetail::kFull;
  std::string text = StringAttribute(object, "detail");
  std::optional<ResultDetail> detail = ParseResultDetail(text);
  if (!detail) store::Fail(where + ": unknown detail '" + text + "'");
  return *detail;
}

/// The /summary rows of an open results file (`path` names it in errors). Rows of a file older
/// than version 4 get the cluster of their GPU count.
std::vector<SummaryRow> SummaryRows(hid_t file, const std::string& path) {
  const std::int64_t schema_version = SchemaVersion(file, path);
  Handle summary = store::OpenGroup(file, "summary");
  std::vector<SummaryRow> rows = store::ReadTable<SummaryRow>(summary, [&](auto& r, auto&& v) {
    VisitSummaryColumns(r, store::ColumnsOfVersion(schema_version, v));
  });
  if (schema_version < 4) {
    for (SummaryRow& row : rows) row.cluster = std::to_string(row.num_gpus);
  }
  return rows;
}

/// /meta@detail of the open results file at `path`.
ResultDetail FileDetail(hid_t file, const std::string& path) {
  Handle meta = store::OpenGroup(file, "meta");
  return DetailAttribute(meta, path + " /meta");
}

}  // namespace

std::vector<SummaryRow> ReadSummary(const std::string& path) {
  store::ErrorScope errors;
  return SummaryRows(store::OpenFile(path, false), path);
}

SummaryWithDetail ReadSummaryWithDetail(const std::string& path) {
  store::ErrorScope errors;
  Handle file = store::OpenFile(path, false);
  SummaryWithDetail read;
  read.detail = FileDetail(file, path);
  read.rows = SummaryRows(file, path);
  return read;
}

namespace store {

StoredTask ReadStoredTask(hid_t file, const std::string& path, const std::string& task_id) {
  const std::int64_t schema_version = SchemaVersion(file, path);
  Handle tasks = store::OpenGroup(file, "tasks");
  if (!store::Exists(tasks, task_id)) {
    throw StoreError("'" + path + "' has no task " + task_id);
  }
  Handle group = store::OpenGroup(tasks, task_id);
  StoredTask task;
  task.task_id = task_id;
  store::FromStored(StringAttribute(group, "status"), task.status);
  task.message = StringAttribute(group, "message");
  task.config_json = StringAttribute(group, "config_json");
  task.rank = static_cast<int>(IntegerAttribute(group, "rank"));
  task.detail = DetailAttribute(group, "task " + task_id);
  task.result.status = task.status;
  task.result.message = task.message;
  ReadNumberAttribute(group, "wall_time_s", task.result.wall_time_s);
  ReadResultTables(group, schema_version, task.result, task.detail);
  task.result.gpu_types = ReadGpuTypes(group, schema_version);
  ReadSummaryAttributes(group, schema_version, task.result);
  return task;
}

}  // namespace store

StoredTask ReadTask(const std::string& path, const std::string& task_id) {
  store::ErrorScope errors;
  Handle file = store::OpenFile(path, false);
  return store::ReadStoredTask(file, path, task_id);
}

ResultDetail ReadFileDetail(const std::string& path) {
  store::ErrorScope errors;
  return FileDetail(store::OpenFile(path, false), path);
}

std::vector<std::string> MissingTasks(const std::string& path,
                                      const std::set<std::string>& task_ids) {
  std::set<std::string> in_summary;
  for (SummaryRow& row : ReadSummary(path)) in_summary.insert(std::move(row.task_id));
  store::ErrorScope errors;
  Handle file = store::OpenFile(path, false);
  Handle tasks = store::OpenGroup(file, "tasks");
  std::vector<std::string> groups = store::ChildNames(tasks);
  std::set<std::string> in_tasks(groups.begin(), groups.end());
  std::vector<std::string> missing;
  for (const std::string& id : task_ids) {
    if (in_summary.count(id) == 0 || in_tasks.count(id) == 0) missing.push_back(id);
  }
  return missing;
}

std::map<std::string, std::string> ReadMeta(const std::string& path) {
  store::ErrorScope errors;
  Handle file = store::OpenFile(path, false);
  Handle meta = store::OpenGroup(file, "meta");
  std::map<std::string, std::string> values;
  for (const auto& name : store::AttributeNames(meta)) values[name] = StringAttribute(meta, name);
  return values;
}

std::map<std::string, std::string> ReadColumnUnits(const std::string& path,
                                                   const std::string& group) {
  store::ErrorScope errors;
  Handle file = store::OpenFile(path, false);
  Handle table = store::OpenGroup(file, group);
  std::map<std::string, std::string> units;
  for (const auto& name : store::ChildNames(table)) {
    H5O_info_t info{};
    store::Check(H5Oget_info_by_name2(table, name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT),
                 "inspect " + name);
    if (info.type != H5O_TYPE_DATASET) continue;
    Handle dataset(H5Dopen2(table, name.c_str(), H5P_DEFAULT), H5Dclose, "open " + name);
    if (store::HasAttribute(dataset, "units")) units[name] = StringAttribute(dataset, "units");
  }
  return units;
}

}  // namespace adaptsim
