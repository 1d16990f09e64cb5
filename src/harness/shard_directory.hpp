// Crash-safe result storage of a sweep (docs/sweeps.md §4): one HDF5 shard per batch of finished
// tasks (a worker's results sent together; one task when tasks are long),
// `<out>.shards/<name>.h5`, written under a temporary name, fsync'd and renamed (store.hpp
// WriteShardImage), plus an append-only log `<out>.shards/manifest.jsonl` (one JSON object per
// task: id, status, task_index, rank, wall_time_s, detail, finished_utc, shard). A shard's name is
// its task's id when it holds one task, else the content hash of its tasks' ids (32 hex digits
// either way). A shard file is the proof that its tasks finished; the manifest is the fast index
// used on resume and gives the order in which shards were written (a shard without manifest
// lines — kill -9 between rename and append — is read instead and counts as the newest; a torn
// last line is ignored; lines without `shard`, written before batches, name the task's own
// shard). Only rank 0 uses this class. No MPI here.
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
  /// The shard folder `folder` itself (`adaptsim merge DIR.shards`).
  static ShardDirectory InFolder(const std::string& folder);

  /// Creates the folder if needed and deletes temporary files left by a killed run.
  void Open();
  /// Deletes the folder and everything in it.
  void RemoveAll();
  /// task id -> status of its newest copy in a complete shard. Throws StoreError for an
  /// unreadable shard without manifest lines.
  std::map<std::string, TaskStatus> Finished() const;
  /// task id -> stored detail of its newest copy (manifest lines without `detail`: kFull).
  /// Throws StoreError for an unreadable shard without manifest lines.
  std::map<std::string, ResultDetail> Details() const;
  /// Stores `records` as one shard (fsync'd), then appends their manifest lines. `image` is
  /// EncodeShard(records) made by a worker (`records` then only supply id, status, index, rank
  /// and wall time); empty: encoded here from the complete records. Throws StoreError.
  void Write(const std::vector<TaskRecord>& records, const Provenance& provenance,
             const std::vector<unsigned char>& image = {});
  /// Paths of all complete shards in the order they were written (a task in several shards —
  /// rerun — is newest in the last). MergeResults takes a task from its last source.
  std::vector<std::string> ShardPaths() const;
  const std::string& dir() const { return dir_; }

 private:
  struct Stored {
    TaskStatus status = TaskStatus::kOk;
    ResultDetail detail = ResultDetail::kFull;
  };
  /// Newest stored copy of every task, and the shards in write order.
  std::map<std::string, Stored> Index(std::vector<std::string>* shard_paths = nullptr) const;
  void AppendManifest(const std::vector<TaskRecord>& records, const std::string& shard);

  std::string dir_;
};

}  // namespace adaptsim
