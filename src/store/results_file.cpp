// Writing the results file (layout: docs/results-format.md).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "adaptsim/build_info.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/utc_timestamp.hpp"
#include "columns.hpp"
#include "hdf5_io.hpp"

#ifndef ADAPTSIM_VERSION
#define ADAPTSIM_VERSION "unknown"
#endif

namespace adaptsim {
namespace store {

void FromStored(const std::string& s, AdaptationMode& f) {
  auto mode = ParseAdaptationMode(s);
  if (!mode) Fail("unknown adaptation mode '" + s + "'");
  f = *mode;
}

void FromStored(const std::string& s, JobOutcome& f) {
  for (JobOutcome outcome : {JobOutcome::kCompleted, JobOutcome::kDeadline, JobOutcome::kFailed,
                             JobOutcome::kUnfinished}) {
    if (adaptsim::ToString(outcome) == s) {
      f = outcome;
      return;
    }
  }
  Fail("unknown job outcome '" + s + "'");
}

void FromStored(const std::string& s, TaskStatus& f) {
  try {
    f = ParseTaskStatus(s);
  } catch (const std::invalid_argument& error) {
    Fail(error.what());
  }
}

void WriteTable(hid_t group, const Table& table, bool extendible) {
  for (const Column& column : table) {
    WriteColumn(group, column.name, column.data, column.units, extendible);
  }
}

SummaryRow MakeSummaryRow(const TaskRecord& record) {
  const TaskKeys& keys = record.keys;
  SummaryRow row;
  row.task_id = record.task_id;
  row.task_index = record.task_index;
  row.status = record.result.status;
  row.message = record.result.message;
  row.policy = keys.policy;
  row.trace = keys.trace_path;
  row.throughputs = keys.throughputs_path;
  row.num_gpus = keys.num_gpus;
  row.cluster = keys.cluster;
  row.seed = keys.seed;
  row.round_duration_s = keys.round_duration_s;
  row.deadline_factor = keys.deadline_factor;
  row.policy_options = keys.policy_options.dump();
  row.metrics = record.result.summary;
  row.wall_time_s = record.result.wall_time_s;
  row.rank = record.rank;
  return row;
}

}  // namespace store

namespace {

using store::Handle;

std::string Hdf5Version() {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
}

std::string JoinArgs(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& arg : argv) line += (line.empty() ? "" : " ") + arg;
  return line;
}

void WriteMeta(hid_t file, const Provenance& provenance) {
  Handle meta = store::CreateGroup(file, "meta");
  store::WriteAttribute(meta, "schema_version", std::int64_t{kResultsSchemaVersion});
  store::WriteAttribute(meta, "adaptsim_version", std::string(ADAPTSIM_VERSION));
  store::WriteAttribute(meta, "git_sha", std::string(GitRevision()));
  store::WriteAttribute(meta, "created_utc", UtcTimestamp());
  store::WriteAttribute(meta, "rank_count", std::int64_t{provenance.rank_count});
  store::WriteAttribute(meta, "command_line", JoinArgs(provenance.argv));
  store::WriteAttribute(meta, "hdf5_version", Hdf5Version());
  store::WriteAttribute(meta, "sweep_name", provenance.sweep_name);
  store::WriteAttribute(meta, "spec_path", provenance.spec_path);
  store::WriteAttribute(meta, "detail", std::string(ToString(provenance.detail)));
}

/// One attribute per key of the canonical config JSON; objects and arrays as JSON text.
void WriteConfigAttributes(hid_t group, const TaskRecord& record) {
  const nlohmann::json& json = record.config_json;
  for (const auto& [key, value] : json.items()) {
    if (value.is_number_unsigned()) {
      store::WriteAttribute(group, key, value.get<std::uint64_t>());
    } else if (value.is_number_integer()) {
      store::WriteAttribute(group, key, value.get<std::int64_t>());
    } else if (value.is_number_float()) {
      store::WriteAttribute(group, key, value.get<double>());
    } else if (value.is_string()) {
      store::WriteAttribute(group, key, value.get<std::string>());
    } else if (value.is_boolean()) {
      store::WriteAttribute(group, key, std::int64_t{value.get<bool>() ? 1 : 0});
    } else {
      store::WriteAttribute(group, key, value.dump());
    }
  }
  store::WriteAttribute(group, "config_json", json.dump());
  store::WriteAttribute(group, "config_hash", record.task_id);
}

void WriteRounds(hid_t task_group, const std::vector<RoundResult>& rounds) {
  Handle group = store::CreateGroup(task_group, "rounds");
  store::WriteTable(group,
                    store::ToTable(rounds, [](const auto& r, auto&& v) { VisitRoundFields(r, v); }),
                    false);
  std::vector<std::int64_t> ids;
  std::vector<std::int64_t> offsets{0};
  for (const RoundResult& round : rounds) {
    ids.insert(ids.end(), round.running_job_ids.begin(), round.running_job_ids.end());
    offsets.push_back(static_cast<std::int64_t>(ids.size()));
  }
  store::WriteColumn(group, "running_job_ids", ids, "id", false);
  store::WriteColumn(group, "running_offsets", offsets, "count", false);
}

/// The jobs table: the engine-neutral columns, then the columns of the engine's extras, and
/// the engine's name in the group's `engine` attribute ("" when there are no jobs).
void WriteJobs(hid_t task_group, const std::vector<JobResult>& jobs) {
  Handle group = store::CreateGroup(task_group, "jobs");
  store::WriteTable(
      group, store::ToTable(jobs, [](const auto& j, auto&& v) { VisitJobFields(j, v); }), false);
  if (jobs.empty()) {
    store::WriteAttribute(group, "engine", std::string());
    return;
  }
  std::visit(
      [&](const auto& first) {
        using Extras = std::decay_t<decltype(first)>;
        std::vector<Extras> extras;
        extras.reserve(jobs.size());
        for (const JobResult& job : jobs) {
          const auto* e = std::get_if<Extras>(&job.extras);
          if (e == nullptr) store::Fail("the jobs of one task hold the extras of two engines");
          extras.push_back(*e);
        }
        store::WriteAttribute(group, "engine", std::string(Extras::kEngine));
        store::WriteTable(
            group,
            store::ToTable(extras, [](const auto& e, auto&& v) { VisitJobExtrasFields(e, v); }),
            false);
      },
      jobs.front().extras);
}

/// The tables of `result` that `detail` keeps (ResultDetail).
void WriteResultTables(hid_t task_group, const SimulationResult& result, ResultDetail detail) {
  if (detail < ResultDetail::kPerJob) return;
  WriteJobs(task_group, result.jobs);
  if (detail < ResultDetail::kFull) return;
  WriteRounds(task_group, result.rounds);
  Handle timeline = store::CreateGroup(task_group, "throughput_timeline");
  store::WriteTable(timeline,
                    store::ToTable(result.throughput_timeline,
                                   [](const auto& s, auto&& v) { VisitThroughputFields(s, v); }),
                    false);
  store::WriteColumn(task_group, "gpu_busy_time_s", result.gpu_busy_time_s, "s", false);
}

/// The per-GPU-type table, at every detail level (a row per type of the cluster; none for a
/// failed task or the interval engine).
void WriteGpuTypes(hid_t task_group, const std::vector<GpuTypeResult>& gpu_types) {
  Handle group = store::CreateGroup(task_group, "gpu_types");
  store::WriteTable(
      group, store::ToTable(gpu_types, [](const auto& t, auto&& v) { VisitGpuTypeFields(t, v); }),
      false);
}

void WriteSummaryAttributes(hid_t task_group, const SimulationResult& result) {
  Handle summary = store::CreateGroup(task_group, "summary");
  VisitMetricFields(result.summary, [&](const char* name, const char*, const auto& field) {
    store::WriteAttribute(summary, name, store::ToStored(field));
  });
  store::WriteAttribute(summary, "lease_extensions", result.lease_extensions);
  store::WriteAttribute(summary, "lease_extension_opportunities",
                        result.lease_extension_opportunities);
  Handle statistics = store::CreateGroup(task_group, "policy_statistics");
  for (const auto& [name, value] : result.policy_statistics) {
    store::WriteAttribute(statistics, name, value);
  }
  if (result.input_statistics.empty()) return;  // only tasks with counts (production logs)
  Handle input = store::CreateGroup(task_group, "input_statistics");
  for (const auto& [name, value] : result.input_statistics) {
    store::WriteAttribute(input, name, value);
  }
}

void WriteTask(hid_t tasks, const TaskRecord& record) {
  Handle group = store::CreateGroup(tasks, record.task_id);
  WriteConfigAttributes(group, record);
  store::WriteAttribute(group, "task_index", std::int64_t{record.task_index});
  store::WriteAttribute(group, "status", store::ToStored(record.result.status));
  store::WriteAttribute(group, "message", record.result.message);
  store::WriteAttribute(group, "rank", std::int64_t{record.rank});
  store::WriteAttribute(group, "wall_time_s", record.result.wall_time_s);
  store::WriteAttribute(group, "detail", std::string(ToString(record.detail)));
  WriteResultTables(group, record.result, record.detail);
  WriteGpuTypes(group, record.result.gpu_types);
  WriteSummaryAttributes(group, record.result);
}

store::Table SummaryTable(const std::vector<SummaryRow>& rows) {
  return store::ToTable(rows, [](const auto& r, auto&& v) { VisitSummaryColumns(r, v); });
}

}  // namespace

}  // namespace adaptsim

namespace adaptsim {
namespace {

using store::Handle;

std::string SystemError() {
  return std::strerror(errno);
}

/// fsync(2) of a file or directory; a failure is an error for files, ignored for directories
/// (some filesystems refuse to fsync a directory).
void SyncPath(const std::string& path, bool directory) {
  int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) {
    if (directory) return;
    throw StoreError("cannot open '" + path + "' to sync it: " + SystemError());
  }
  int status = ::fsync(fd);
  std::string failure = status != 0 ? SystemError() : "";
  ::close(fd);
  if (status != 0 && !directory) throw StoreError("fsync of '" + path + "' failed: " + failure);
}

/// Syncs `tmp` and renames it to `path`: `path` is then absent or complete. With `sync_folder`
/// the folder is synced too, so that the rename itself survives a node failure.
void Publish(const std::string& tmp, const std::string& path, bool sync_folder) {
  SyncPath(tmp, false);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string failure = SystemError();
    std::remove(tmp.c_str());
    throw StoreError("cannot rename '" + tmp + "' to '" + path + "': " + failure);
  }
  if (!sync_folder) return;
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  SyncPath(parent.empty() ? "." : parent.string(), true);
}

/// Writes `image` under `tmp` and publishes it as `path` (Publish).
void WriteImage(const std::string& tmp, const std::string& path,
                const std::vector<unsigned char>& image, bool sync_folder) {
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw StoreError("cannot create '" + tmp + "': " + SystemError());
  std::size_t written = 0;
  std::string failure;
  while (written < image.size()) {
    ssize_t n = ::write(fd, image.data() + written, image.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failure = n < 0 ? SystemError() : "nothing written";
      break;
    }
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (written != image.size()) {
    std::remove(tmp.c_str());
    throw StoreError("cannot write '" + tmp + "' (" + std::to_string(written) + " of " +
                     std::to_string(image.size()) + " bytes written): " + failure);
  }
  Publish(tmp, path, sync_folder);
}

/// Source files MergeResults keeps open at once (a shard is read once; a merged file many times).
constexpr std::size_t kMaxOpenSources = 64;

struct Chosen {
  std::size_t source = 0;
  SummaryRow row;
};

}  // namespace

std::vector<unsigned char> EncodeShard(std::span<const TaskRecord> records,
                                       const Provenance& provenance) {
  if (records.empty()) throw StoreError("a shard holds at least one task");
  store::ErrorScope errors;
  // The core driver keeps the file in memory; the name only identifies it inside this process.
  Handle file = store::CreateFile(records.front().task_id + ".h5", /*in_memory=*/true);
  Provenance shard_provenance = provenance;
  shard_provenance.detail = records.front().detail;  // a shard's /meta@detail is its tasks'
  std::vector<SummaryRow> rows;
  for (const TaskRecord& record : records) {
    shard_provenance.detail = std::min(shard_provenance.detail, record.detail);
    rows.push_back(store::MakeSummaryRow(record));
  }
  WriteMeta(file, shard_provenance);
  Handle summary = store::CreateGroup(file, "summary");
  store::WriteTable(summary, SummaryTable(rows), true);
  Handle tasks = store::CreateGroup(file, "tasks");
  for (const TaskRecord& record : records) WriteTask(tasks, record);
  return store::FileImage(file);
}

std::vector<unsigned char> EncodeShard(const TaskRecord& record, const Provenance& provenance) {
  return EncodeShard(std::span<const TaskRecord>(&record, 1), provenance);
}

void WriteShardImage(const std::string& path, const std::vector<unsigned char>& image) {
  // No folder sync: a shard whose rename is lost in a node failure is simply absent, and a sweep
  // reruns its task on resume. One fsync per shard instead of two.
  WriteImage(TemporaryPath(path), path, image, /*sync_folder=*/false);
}

void WriteResults(const OutputPaths& out, const TaskRecord& record, const Provenance& provenance) {
  WriteImage(out.temporary(), out.results(), EncodeShard(record, provenance),
             /*sync_folder=*/true);
}

void WriteShard(const std::string& path, const TaskRecord& record, const Provenance& provenance) {
  WriteShardImage(path, EncodeShard(record, provenance));
}

std::size_t MergeResults(const OutputPaths& out, const MergeOptions& options) {
  std::map<std::string, Chosen> chosen;
  for (std::size_t s = 0; s < options.sources.size(); ++s) {
    for (SummaryRow& row : ReadSummary(options.sources[s])) {
      if (!options.select.empty()) {
        auto it = options.select.find(row.task_id);
        if (it == options.select.end()) continue;
        row.task_index = it->second;
      }
      std::string id = row.task_id;
      chosen[id] = Chosen{s, std::move(row)};
    }
  }
  std::vector<const Chosen*> order;
  for (const auto& [id, c] : chosen) order.push_back(&c);
  std::stable_sort(order.begin(), order.end(), [](const Chosen* a, const Chosen* b) {
    return a->row.task_index < b->row.task_index;
  });
  const std::string tmp = out.temporary();
  store::ErrorScope errors;
  Handle file;
  try {
    file = store::CreateFile(tmp);
    {  // every object of `file` is closed at the end of this block, before the file itself
      Handle tasks = store::CreateGroup(file, "tasks");
      ResultDetail lowest_ok = options.provenance.detail;
      std::vector<SummaryRow> rows;
      // Tasks are read and rewritten rather than H5Ocopy'd: H5Ocopy of groups with many
      // variable-length string attributes (dense attribute storage) crashes in HDF5 1.10.8.
      // Each source is opened once and kept open while its tasks are copied (a merged --out
      // holds thousands), so the merge stays linear in the number of tasks.
      // Least recently used sources are closed first: the tasks of one shard (a worker's batch)
      // are mostly neighbours in task_index order.
      std::map<std::size_t, std::pair<Handle, std::size_t>> open_sources;  // source -> file, use
      std::size_t uses = 0;
      for (const Chosen* c : order) {
        const std::string& source = options.sources[c->source];
        auto it = open_sources.find(c->source);
        if (it == open_sources.end()) {
          if (open_sources.size() >= kMaxOpenSources) {
            open_sources.erase(std::min_element(
                open_sources.begin(), open_sources.end(),
                [](const auto& a, const auto& b) { return a.second.second < b.second.second; }));
          }
          it = open_sources.emplace(c->source, std::pair(store::OpenFile(source, false), 0)).first;
        }
        it->second.second = ++uses;
        StoredTask stored = store::ReadStoredTask(it->second.first, source, c->row.task_id);
        TaskRecord record;
        record.task_id = stored.task_id;
        record.task_index = c->row.task_index;
        record.config_json =
            nlohmann::json::parse(stored.config_json, nullptr, /*allow_exceptions=*/false);
        if (record.config_json.is_discarded()) {
          throw StoreError("'" + source + "': task " + stored.task_id +
                           ": config_json is not JSON");
        }
        record.result = std::move(stored.result);
        record.rank = stored.rank;
        record.detail = std::min(stored.detail, options.provenance.detail);
        if (stored.status == TaskStatus::kOk) lowest_ok = std::min(lowest_ok, record.detail);
        WriteTask(tasks, record);
      }
      Provenance provenance = options.provenance;
      provenance.detail = lowest_ok;
      WriteMeta(file, provenance);
      {
        Handle meta = store::OpenGroup(file, "meta");
        for (const auto& [name, value] : options.statistics)
          store::WriteAttribute(meta, name, value);
      }
      for (const Chosen* c : order) rows.push_back(c->row);
      Handle summary = store::CreateGroup(file, "summary");
      store::WriteTable(summary, SummaryTable(rows), true);
      store::Check(H5Fflush(file, H5F_SCOPE_GLOBAL), "flush " + tmp);
    }
    // A failure to write (full disk, file-size limit) may surface only here: the file is never
    // published unless its close succeeded. On failure the caller ends the process with status 1
    // (DiscardFile).
    file.CloseChecked("close " + tmp);
  } catch (const StoreError& error) {
    store::DiscardFile(file);
    std::remove(tmp.c_str());
    throw StoreError("cannot write results file '" + out.results() + "' (temporary '" + tmp +
                     "'): " + error.what());
  } catch (...) {
    store::DiscardFile(file);
    std::remove(tmp.c_str());
    throw;
  }
  Publish(tmp, out.results(), /*sync_folder=*/true);
  return order.size();
}

}  // namespace adaptsim
