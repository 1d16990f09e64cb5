#include "adaptsim/shard_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "adaptsim/checksum.hpp"
#include "adaptsim/content_hash.hpp"
#include "adaptsim/output_paths.hpp"
#include "adaptsim/utc_timestamp.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

/// A shard's file name: 32 hex digits + ".h5".
bool IsShardName(const std::string& name) {
  if (name.size() != 35 || name.substr(32) != ".h5") return false;
  return name.find_first_not_of("0123456789abcdef") == 32;
}

/// The name (without ".h5") of the shard holding the tasks `ids`, in the order stored.
std::string ShardName(const std::vector<std::string>& ids) {
  if (ids.size() == 1) return ids.front();
  std::string joined;
  for (const std::string& id : ids) joined += id + "\n";
  return BytesContentHash(joined);
}

std::string SystemError() {
  return std::strerror(errno);
}

}  // namespace

ShardDirectory::ShardDirectory(std::string folder) : dir_(std::move(folder)) {}

std::vector<std::string> ShardFiles(const std::string& folder, std::vector<std::string>* skipped) {
  ShardDirectory shards(folder);
  for (const CorruptShard& shard : shards.Verify(/*quarantine=*/false)) {
    if (skipped == nullptr) continue;
    std::string tasks;
    for (const CorruptShard::Task& task : shard.tasks) {
      tasks += (tasks.empty() ? "" : ", ") + task.id;
    }
    skipped->push_back("'" + shard.path + "' (" + shard.reason +
                       "; tasks: " + (tasks.empty() ? std::string("not known") : tasks) + ")");
  }
  return shards.ShardPaths();
}

void ShardDirectory::Open() {
  std::error_code error;
  fs::create_directories(dir_, error);
  if (error) throw StoreError("cannot create '" + dir_ + "': " + error.message());
  for (const auto& entry : fs::directory_iterator(dir_)) {
    if (IsTemporaryName(entry.path().filename().string())) {
      fs::remove(entry.path(), error);
    }
  }
  // The folder must take new files (a read-only file system or folder fails here, before any
  // task runs, rather than when the first result arrives).
  const std::string path = ShardManifestPath(dir_);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw StoreError("cannot write in '" + dir_ + "': " + SystemError());
  ::close(fd);
}

void ShardDirectory::RemoveAll() {
  std::error_code error;
  fs::remove_all(dir_, error);
  if (error) throw StoreError("cannot remove '" + dir_ + "': " + error.message());
}

std::vector<ShardDirectory::Line> ShardDirectory::ReadManifest() const {
  std::vector<Line> lines;
  std::ifstream manifest(ShardManifestPath(dir_));
  std::string text;
  while (std::getline(manifest, text)) {
    nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!json.is_object() || !json["id"].is_string()) continue;
    Line line;
    try {
      line.id = json["id"].get<std::string>();
      line.shard = json["shard"].is_string() ? json["shard"].get<std::string>()
                                             : line.id;  // lines written before batches
      if (json["status"].is_string()) {
        line.status = ParseTaskStatus(json["status"].get<std::string>());
      }
      if (json["detail"].is_string()) {
        line.detail =
            ParseResultDetail(json["detail"].get<std::string>()).value_or(ResultDetail::kFull);
      }
      if (json.contains("sha256")) line.sha256 = json["sha256"].get<std::string>();
      if (json.contains("task_index")) line.task_index = json["task_index"].get<int>();
    } catch (const std::exception&) {
      continue;  // a line this version cannot read: the shard itself is read instead
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::set<std::string> ShardDirectory::ShardsOnDisk() const {
  std::set<std::string> names;
  if (!fs::is_directory(dir_)) return names;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    std::string name = entry.path().filename().string();
    if (IsShardName(name) && rejected_.count(name.substr(0, 32)) == 0) {
      names.insert(name.substr(0, 32));
    }
  }
  return names;
}

std::vector<CorruptShard> ShardDirectory::Verify(bool quarantine) {
  struct Logged {
    std::vector<CorruptShard::Task> tasks;
    std::string sha256;  // of the shard's last write
  };
  std::map<std::string, Logged> logged;
  for (const Line& line : ReadManifest()) {
    Logged& shard = logged[line.shard];
    auto same = [&](const CorruptShard::Task& task) { return task.id == line.id; };
    auto it = std::find_if(shard.tasks.begin(), shard.tasks.end(), same);
    if (it == shard.tasks.end()) {
      shard.tasks.push_back({line.id, line.task_index});
    } else {
      it->task_index = line.task_index;
    }
    shard.sha256 = line.sha256;
  }
  std::vector<CorruptShard> corrupt;
  for (const std::string& name : ShardsOnDisk()) {
    const std::string path = (fs::path(dir_) / (name + ".h5")).string();
    auto it = logged.find(name);
    CorruptShard bad{path, "", {}};
    if (it != logged.end()) bad.tasks = it->second.tasks;
    if (it != logged.end() && !it->second.sha256.empty()) {
      std::string actual = FileSha256Hex(path);
      if (actual != it->second.sha256) {
        std::error_code error;
        bad.reason = "its SHA-256 is " + actual + ", the manifest recorded " + it->second.sha256 +
                     " (" + std::to_string(fs::file_size(path, error)) +
                     " bytes on disk: truncated or altered)";
      }
    } else {
      // No checksum to compare: the shard must at least read as a results file holding the
      // tasks its name stands for.
      try {
        std::vector<SummaryRow> rows = ReadSummaryWithDetail(path).rows;
        std::vector<std::string> ids;
        for (const SummaryRow& row : rows) ids.push_back(row.task_id);
        if (ids.empty() || ShardName(ids) != name) {
          bad.reason = "it does not hold the tasks its name stands for";
        }
        if (it == logged.end()) {
          for (const SummaryRow& row : rows) bad.tasks.push_back({row.task_id, -1});
        }
      } catch (const StoreError& error) {
        bad.reason = std::string("it cannot be read (") + error.what() + ")";
      }
    }
    if (bad.reason.empty()) continue;
    rejected_.insert(name);
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

std::map<std::string, ShardDirectory::Stored> ShardDirectory::Index(
    std::vector<std::string>* shard_paths) const {
  const std::set<std::string> on_disk = ShardsOnDisk();
  std::map<std::string, Stored> index;
  std::map<std::string, std::size_t> last_line;  // shard -> its last line: the write order
  std::size_t number = 0;
  for (const Line& line : ReadManifest()) {
    ++number;
    if (on_disk.count(line.shard) == 0) continue;  // lost or rejected with its shard: reruns
    if (!line.status) continue;                    // the shard itself is read below
    index[line.id] = {*line.status, line.detail};  // last wins
    last_line[line.shard] = number;
  }
  std::vector<std::string> order;
  for (const auto& [shard, line] : last_line) order.push_back(shard);
  std::sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
    return last_line.at(a) < last_line.at(b);
  });
  for (const std::string& shard : on_disk) {  // no manifest line: written last, read it
    if (last_line.count(shard) > 0) continue;
    std::string path = (fs::path(dir_) / (shard + ".h5")).string();
    SummaryWithDetail read = ReadSummaryWithDetail(path);
    for (const SummaryRow& row : read.rows) index[row.task_id] = {row.status, read.detail};
    order.push_back(shard);
  }
  if (shard_paths != nullptr) {
    shard_paths->clear();
    for (const std::string& shard : order) {
      shard_paths->push_back((fs::path(dir_) / (shard + ".h5")).string());
    }
  }
  return index;
}

std::vector<std::string> ShardDirectory::ShardPaths() const {
  std::vector<std::string> paths;
  Index(&paths);
  return paths;
}

std::map<std::string, ShardDirectory::Stored> ShardDirectory::Newest() const {
  return Index();
}

std::map<std::string, TaskStatus> ShardDirectory::Finished() const {
  std::map<std::string, TaskStatus> finished;
  for (const auto& [id, stored] : Index()) finished[id] = stored.status;
  return finished;
}

std::map<std::string, ResultDetail> ShardDirectory::Details() const {
  std::map<std::string, ResultDetail> details;
  for (const auto& [id, stored] : Index()) details[id] = stored.detail;
  return details;
}

void ShardDirectory::Write(const std::vector<TaskRecord>& records, const Provenance& provenance,
                           const std::vector<unsigned char>& image) {
  if (records.empty()) return;
  std::vector<std::string> ids;
  for (const TaskRecord& record : records) ids.push_back(record.task_id);
  std::vector<unsigned char> encoded;
  if (image.empty()) encoded = EncodeShard(records, provenance);
  const StoredShard stored = StoreImage(dir_, ids, image.empty() ? encoded : image);
  AppendManifest(records, stored.name, stored.sha256);
}

ShardDirectory::StoredShard ShardDirectory::StoreImage(const std::string& dir,
                                                       const std::vector<std::string>& ids,
                                                       const std::vector<unsigned char>& image) {
  StoredShard stored{ShardName(ids), Sha256Hex(image.data(), image.size())};
  WriteShardImage((fs::path(dir) / (stored.name + ".h5")).string(), image);
  return stored;
}

void ShardDirectory::Adopt(const std::vector<TaskRecord>& records, const StoredShard& shard) {
  if (records.empty()) return;
  const fs::path path = fs::path(dir_) / (shard.name + ".h5");
  std::error_code error;
  if (!IsShardName(path.filename().string()) || !fs::is_regular_file(path, error)) {
    throw StoreError("a worker's shard '" + path.string() +
                     "' is not in the shard folder (does every rank see the same file system?)");
  }
  AppendManifest(records, shard.name, shard.sha256);
}

void ShardDirectory::AppendManifest(const std::vector<TaskRecord>& records,
                                    const std::string& shard, const std::string& sha256) {
  rejected_.erase(shard);  // written again under a name Verify rejected: the new file counts
  std::string text;
  const std::string now = UtcTimestamp();
  for (const TaskRecord& record : records) {
    nlohmann::json entry = {{"id", record.task_id},
                            {"status", ToString(record.result.status)},
                            {"task_index", record.task_index},
                            {"rank", record.rank},
                            {"wall_time_s", record.result.wall_time_s},
                            {"detail", ToString(record.detail)},
                            {"sha256", sha256},
                            {"finished_utc", now},
                            {"shard", shard}};
    text += entry.dump() + "\n";
  }
  const std::string path = ShardManifestPath(dir_);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw StoreError("cannot open '" + path + "': " + SystemError());
  struct stat before {};
  ::fstat(fd, &before);
  // No fsync: the manifest is an index. Lines lost in a node failure are recovered from the
  // shard itself (Index() reads shards without lines), so only the shard is synced.
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
