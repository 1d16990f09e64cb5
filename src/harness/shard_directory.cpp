#include "shard_directory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "adaptsim/utc_timestamp.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

constexpr char kManifest[] = "manifest.jsonl";

/// A shard's file name: 32 hex digits + ".h5".
bool IsShardName(const std::string& name) {
  if (name.size() != 35 || name.substr(32) != ".h5") return false;
  return name.find_first_not_of("0123456789abcdef") == 32;
}

}  // namespace

ShardDirectory::ShardDirectory(const std::string& out_path) : dir_(out_path + ".shards") {}

void ShardDirectory::Open() {
  std::error_code error;
  fs::create_directories(dir_, error);
  if (error) throw StoreError("cannot create '" + dir_ + "': " + error.message());
  for (const auto& entry : fs::directory_iterator(dir_)) {
    if (entry.path().filename().string().find(".tmp.") != std::string::npos) {
      fs::remove(entry.path(), error);
    }
  }
}

void ShardDirectory::RemoveAll() {
  std::error_code error;
  fs::remove_all(dir_, error);
  if (error) throw StoreError("cannot remove '" + dir_ + "': " + error.message());
}

std::vector<std::string> ShardDirectory::ShardPaths() const {
  std::vector<std::string> paths;
  if (!fs::is_directory(dir_)) return paths;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    if (IsShardName(entry.path().filename().string())) paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::map<std::string, TaskStatus> ShardDirectory::Finished() const {
  std::map<std::string, TaskStatus> logged;
  std::ifstream manifest(fs::path(dir_) / kManifest);
  std::string line;
  while (std::getline(manifest, line)) {
    nlohmann::json entry = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!entry.is_object() || !entry["id"].is_string() || !entry["status"].is_string()) continue;
    try {
      logged[entry["id"].get<std::string>()] =
          ParseTaskStatus(entry["status"].get<std::string>());  // last wins
    } catch (const std::invalid_argument&) {
      continue;  // a line this version cannot read: the shard itself is read below
    }
  }
  std::map<std::string, TaskStatus> finished;
  for (const std::string& path : ShardPaths()) {
    std::string id = fs::path(path).stem().string();
    auto it = logged.find(id);
    if (it != logged.end()) {
      finished[id] = it->second;
    } else {
      std::vector<SummaryRow> rows = ReadSummary(path);
      if (rows.size() == 1) finished[id] = rows[0].status;
    }
  }
  return finished;
}

std::map<std::string, ResultDetail> ShardDirectory::Details() const {
  std::map<std::string, ResultDetail> logged;
  std::ifstream manifest(fs::path(dir_) / kManifest);
  std::string line;
  while (std::getline(manifest, line)) {
    nlohmann::json entry = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!entry.is_object() || !entry["id"].is_string()) continue;
    std::optional<ResultDetail> detail;  // lines written before detail levels: full
    if (entry.contains("detail")) {
      if (!entry["detail"].is_string()) continue;  // a line this version cannot read: see below
      detail = ParseResultDetail(entry["detail"].get<std::string>());
    }
    logged[entry["id"].get<std::string>()] = detail.value_or(ResultDetail::kFull);  // last wins
  }
  std::map<std::string, ResultDetail> details;
  for (const std::string& path : ShardPaths()) {
    std::string id = fs::path(path).stem().string();
    auto it = logged.find(id);
    details[id] = it != logged.end() ? it->second : ReadFileDetail(path);
  }
  return details;
}

void ShardDirectory::Write(const TaskRecord& record, const Provenance& provenance) {
  WriteShard((fs::path(dir_) / (record.task_id + ".h5")).string(), record, provenance);
  AppendManifest(record);
}

void ShardDirectory::WriteImage(const TaskRecord& record, const std::vector<unsigned char>& image) {
  WriteShardImage((fs::path(dir_) / (record.task_id + ".h5")).string(), image);
  AppendManifest(record);
}

void ShardDirectory::AppendManifest(const TaskRecord& record) {
  nlohmann::json entry = {{"id", record.task_id},
                          {"status", ToString(record.result.status)},
                          {"task_index", record.task_index},
                          {"rank", record.rank},
                          {"wall_time_s", record.result.wall_time_s},
                          {"detail", ToString(record.detail)},
                          {"finished_utc", UtcTimestamp()}};
  std::string text = entry.dump() + "\n";
  std::string path = (fs::path(dir_) / kManifest).string();
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) throw StoreError("cannot open '" + path + "'");
  // No fsync: the manifest is an index. A line lost in a node failure is recovered from the
  // shard itself (Finished() reads shards without a line), so only the shard is synced.
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok) throw StoreError("cannot append to '" + path + "'");
}

}  // namespace adaptsim
