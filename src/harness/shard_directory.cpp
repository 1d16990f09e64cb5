#include "shard_directory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "adaptsim/harness.hpp"
#include "adaptsim/utc_timestamp.hpp"
#include "content_hash.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

constexpr char kManifest[] = "manifest.jsonl";

/// A shard's file name: 32 hex digits + ".h5".
bool IsShardName(const std::string& name) {
  if (name.size() != 35 || name.substr(32) != ".h5") return false;
  return name.find_first_not_of("0123456789abcdef") == 32;
}

/// The name (without ".h5") of the shard holding `records`.
std::string ShardName(const std::vector<TaskRecord>& records) {
  if (records.size() == 1) return records.front().task_id;
  std::string ids;
  for (const TaskRecord& record : records) ids += record.task_id + "\n";
  return BytesContentHash(ids);
}

}  // namespace

ShardDirectory::ShardDirectory(const std::string& out_path) : dir_(out_path + ".shards") {}

ShardDirectory ShardDirectory::InFolder(const std::string& folder) {
  ShardDirectory shards("");
  shards.dir_ = folder;
  return shards;
}

std::vector<std::string> ShardFiles(const std::string& folder) {
  return ShardDirectory::InFolder(folder).ShardPaths();
}

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

std::map<std::string, ShardDirectory::Stored> ShardDirectory::Index(
    std::vector<std::string>* shard_paths) const {
  std::set<std::string> on_disk;  // shard names
  if (fs::is_directory(dir_)) {
    for (const auto& entry : fs::directory_iterator(dir_)) {
      std::string name = entry.path().filename().string();
      if (IsShardName(name)) on_disk.insert(name.substr(0, 32));
    }
  }
  std::map<std::string, Stored> index;
  std::vector<std::string> order;  // shards with manifest lines, in the order they were written
  std::set<std::string> listed;
  std::ifstream manifest(fs::path(dir_) / kManifest);
  std::string line;
  while (std::getline(manifest, line)) {
    nlohmann::json entry = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!entry.is_object() || !entry["id"].is_string() || !entry["status"].is_string()) continue;
    const std::string id = entry["id"].get<std::string>();
    const std::string shard = entry.contains("shard") && entry["shard"].is_string()
                                  ? entry["shard"].get<std::string>()
                                  : id;       // lines written before batches
    if (on_disk.count(shard) == 0) continue;  // lost with its shard: the task reruns
    Stored stored;
    try {
      stored.status = ParseTaskStatus(entry["status"].get<std::string>());
    } catch (const std::invalid_argument&) {
      continue;  // a line this version cannot read: the shard itself is read below
    }
    std::optional<ResultDetail> detail;  // lines written before detail levels: full
    if (entry["detail"].is_string()) detail = ParseResultDetail(entry["detail"].get<std::string>());
    stored.detail = detail.value_or(ResultDetail::kFull);
    index[id] = stored;  // last wins
    if (listed.insert(shard).second) order.push_back(shard);
  }
  for (const std::string& shard : on_disk) {  // no manifest line: written last, read it
    if (listed.count(shard) > 0) continue;
    std::string path = (fs::path(dir_) / (shard + ".h5")).string();
    ResultDetail detail = ReadFileDetail(path);
    for (const SummaryRow& row : ReadSummary(path)) index[row.task_id] = {row.status, detail};
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
  const std::string name = ShardName(records);
  const std::string path = (fs::path(dir_) / (name + ".h5")).string();
  WriteShardImage(path, image.empty() ? EncodeShard(records, provenance) : image);
  AppendManifest(records, name);
}

void ShardDirectory::AppendManifest(const std::vector<TaskRecord>& records,
                                    const std::string& shard) {
  std::string text;
  const std::string now = UtcTimestamp();
  for (const TaskRecord& record : records) {
    nlohmann::json entry = {{"id", record.task_id},
                            {"status", ToString(record.result.status)},
                            {"task_index", record.task_index},
                            {"rank", record.rank},
                            {"wall_time_s", record.result.wall_time_s},
                            {"detail", ToString(record.detail)},
                            {"finished_utc", now},
                            {"shard", shard}};
    text += entry.dump() + "\n";
  }
  std::string path = (fs::path(dir_) / kManifest).string();
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) throw StoreError("cannot open '" + path + "'");
  // No fsync: the manifest is an index. Lines lost in a node failure are recovered from the
  // shard itself (Index() reads shards without lines), so only the shard is synced.
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok) throw StoreError("cannot append to '" + path + "'");
}

}  // namespace adaptsim
