// Crash-safe result storage of a sweep (docs/sweeps.md §4): one HDF5 shard per finished task,
// `<out>.shards/<task id>.h5`, written under a temporary name, fsync'd and renamed (store.hpp
// WriteShard), plus an append-only log `<out>.shards/manifest.jsonl` (one JSON object per line:
// id, status, task_index, rank, wall_time_s, detail, finished_utc). A shard file is the proof that
// a task finished; the manifest is the fast index used on resume (a shard without a manifest line
// — kill -9 between rename and append — is read instead; a torn last line is ignored).
// Only rank 0 uses this class. No MPI here.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "adaptsim/store.hpp"

namespace adaptsim {

class ShardDirectory {
 public:
  /// `out_path` is the sweep's --out; the folder is `<out_path>.shards`.
  explicit ShardDirectory(const std::string& out_path);

  /// Creates the folder if needed and deletes temporary files left by a killed run.
  void Open();
  /// Deletes the folder and everything in it.
  void RemoveAll();
  /// task id -> status of every complete shard. Throws StoreError for an unreadable shard
  /// without a manifest line.
  std::map<std::string, TaskStatus> Finished() const;
  /// task id -> stored detail of every complete shard (manifest lines without `detail`: kFull).
  /// Throws StoreError for an unreadable shard without a manifest line.
  std::map<std::string, ResultDetail> Details() const;
  /// Writes the shard (fsync'd), then appends its manifest line. Throws StoreError.
  void Write(const TaskRecord& record, const Provenance& provenance);
  /// Stores `image` (EncodeShard of `record` made by a worker) as the shard of `record`, then
  /// appends its manifest line; `record` only supplies id, status, index, rank and
  /// wall time. Throws StoreError.
  void WriteImage(const TaskRecord& record, const std::vector<unsigned char>& image);
  /// Paths of all complete shards (sorted).
  std::vector<std::string> ShardPaths() const;
  const std::string& dir() const { return dir_; }

 private:
  void AppendManifest(const TaskRecord& record);

  std::string dir_;
};

}  // namespace adaptsim
