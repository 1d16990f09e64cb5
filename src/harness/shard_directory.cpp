#include "shard_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "adaptsim/utc_timestamp.hpp"
#include "checksum.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

constexpr char kManifest[] = "manifest.jsonl";

/// A shard's file name: 32 hex digits + ".h5".
bool IsShardName(const std::string& name) {
  if (name.size() != 35 || name.substr(32) != ".h5") return false;
  return name.find_first_not_of("0123456789abcdef") == 32;
}

std::string SystemError() {
  return std::strerror(errno);
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
  // The folder must take new files (a read-only file system or folder fails here, before any
  // task runs, rather than when the first result arrives).
  std::string path = (fs::path(dir_) / kManifest).string();
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw StoreError("cannot write in '" + dir_ + "': " + SystemError());
  ::close(fd);
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
    std::string name = entry.path().filename().string();
    if (IsShardName(name) && rejected_.count(name.substr(0, 32)) == 0) {
      paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::map<std::string, ShardDirectory::ManifestEntry> ShardDirectory::ReadManifest() const {
  std::map<std::string, ManifestEntry> logged;
  std::ifstream manifest(fs::path(dir_) / kManifest);
  std::string line;
  while (std::getline(manifest, line)) {
    nlohmann::json json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!json.is_object() || !json.contains("id") || !json["id"].is_string()) continue;
    ManifestEntry entry;
    try {
      if (json.contains("status")) {
        entry.status = ParseTaskStatus(json["status"].get<std::string>());
      }
      if (json.contains("detail")) {
        entry.detail =
            ParseResultDetail(json["detail"].get<std::string>()).value_or(ResultDetail::kFull);
      }
      if (json.contains("sha256")) entry.sha256 = json["sha256"].get<std::string>();
      if (json.contains("task_index")) entry.task_index = json["task_index"].get<int>();
    } catch (const std::exception&) {
      continue;  // a line this version cannot read: the shard itself is read instead
    }
    logged[json["id"].get<std::string>()] = entry;  // last wins
  }
  return logged;
}

std::vector<CorruptShard> ShardDirectory::Verify(bool quarantine) {
  std::map<std::string, ManifestEntry> logged = ReadManifest();
  std::vector<CorruptShard> corrupt;
  for (const std::string& path : ShardPaths()) {
    std::string id = fs::path(path).stem().string();
    auto it = logged.find(id);
    CorruptShard bad{id, path, "", it != logged.end() ? it->second.task_index : -1};
    if (it != logged.end() && !it->second.sha256.empty()) {
      std::string actual = FileSha256Hex(path);
      if (actual != it->second.sha256) {
        std::error_code error;
        bad.reason = "its SHA-256 is " + actual + ", the manifest recorded " + it->second.sha256 +
                     " (" + std::to_string(fs::file_size(path, error)) +
                     " bytes on disk: truncated or altered)";
      }
    } else {
      try {  // no checksum to compare: the shard must at least read as a one-task results file
        if (ReadSummary(path).size() != 1) bad.reason = "it does not hold exactly one task";
        ReadFileDetail(path);
      } catch (const StoreError& error) {
        bad.reason = std::string("it cannot be read (") + error.what() + ")";
      }
    }
    if (bad.reason.empty()) continue;
    rejected_.insert(id);
    if (quarantine) {
      std::string moved = path + ".corrupt";
      if (std::rename(path.c_str(), moved.c_str()) != 0) {
        throw StoreError("cannot rename corrupt shard '" + path + "': " + SystemError());
      }
    }
    corrupt.push_back(std::move(bad));
  }
  return corrupt;
}

std::map<std::string, TaskStatus> ShardDirectory::Finished() const {
  std::map<std::string, ManifestEntry> logged = ReadManifest();
  std::map<std::string, TaskStatus> finished;
  for (const std::string& path : ShardPaths()) {
    std::string id = fs::path(path).stem().string();
    auto it = logged.find(id);
    if (it != logged.end() && it->second.status) {
      finished[id] = *it->second.status;
    } else {
      std::vector<SummaryRow> rows = ReadSummary(path);
      if (rows.size() == 1) finished[id] = rows[0].status;
    }
  }
  return finished;
}

std::map<std::string, ResultDetail> ShardDirectory::Details() const {
  std::map<std::string, ManifestEntry> logged = ReadManifest();
  std::map<std::string, ResultDetail> details;
  for (const std::string& path : ShardPaths()) {
    std::string id = fs::path(path).stem().string();
    auto it = logged.find(id);
    details[id] = it != logged.end() ? it->second.detail : ReadFileDetail(path);
  }
  return details;
}

void ShardDirectory::Write(const TaskRecord& record, const Provenance& provenance) {
  WriteImage(record, EncodeShard(record, provenance));
}

void ShardDirectory::WriteImage(const TaskRecord& record, const std::vector<unsigned char>& image) {
  WriteShardImage((fs::path(dir_) / (record.task_id + ".h5")).string(), image);
  AppendManifest(record, Sha256Hex(image.data(), image.size()));
}

void ShardDirectory::AppendManifest(const TaskRecord& record, const std::string& sha256) {
  nlohmann::json entry = {{"id", record.task_id},
                          {"status", ToString(record.result.status)},
                          {"task_index", record.task_index},
                          {"rank", record.rank},
                          {"wall_time_s", record.result.wall_time_s},
                          {"detail", ToString(record.detail)},
                          {"sha256", sha256},
                          {"finished_utc", UtcTimestamp()}};
  std::string text = entry.dump() + "\n";
  std::string path = (fs::path(dir_) / kManifest).string();
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw StoreError("cannot open '" + path + "': " + SystemError());
  struct stat before {};
  ::fstat(fd, &before);
  // No fsync: the manifest is an index. A line lost in a node failure is recovered from the
  // shard itself (Finished() reads shards without a line), so only the shard is synced.
  ssize_t written = ::write(fd, text.data(), text.size());
  std::string failure = written < 0 ? SystemError() : "short write (disk full?)";
  if (written != static_cast<ssize_t>(text.size())) {
    // A torn line would swallow the next one appended after it: cut it off again.
    if (::ftruncate(fd, before.st_size) != 0) failure += "; the manifest keeps a torn last line";
    ::close(fd);
    throw StoreError("cannot append to '" + path + "': " + failure);
  }
  ::close(fd);
}

}  // namespace adaptsim
