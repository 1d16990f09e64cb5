// Crash-safe result storage of a sweep (docs/sweeps.md §4): one HDF5 shard per finished task,
// `<out>.shards/<task id>.h5`, written under a temporary name, fsync'd and renamed (store.hpp
// WriteShard), plus an append-only log `<out>.shards/manifest.jsonl` (one JSON object per line:
// id, status, task_index, rank, wall_time_s, detail, sha256, finished_utc). A shard file is the
// proof that a task finished; the manifest is the fast index used on resume (a shard without a
// manifest line — kill -9 between rename and append — is read instead; a torn last line is
// ignored) and holds the SHA-256 of each shard's bytes, so that Verify finds a shard truncated or
// altered on disk.
// Only rank 0 uses this class. No MPI here.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "adaptsim/store.hpp"

namespace adaptsim {

/// A shard that failed Verify.
struct CorruptShard {
  std::string task_id;
  std::string path;     ///< where the shard was found
  std::string reason;   ///< checksum mismatch (with sizes) or the reader's error
  int task_index = -1;  ///< from its manifest line; -1 when it has none
};

class ShardDirectory {
 public:
  /// `out_path` is the sweep's --out; the folder is `<out_path>.shards`.
  explicit ShardDirectory(const std::string& out_path);

  /// Creates the folder if needed and deletes temporary files left by a killed run.
  void Open();
  /// Deletes the folder and everything in it.
  void RemoveAll();
  /// Checks every shard: one with a SHA-256 in the manifest must match it (truncated or altered
  /// bytes fail); one without (no manifest line, or a line written before checksums) must be
  /// readable. Failing shards are left out of everything below from then on and, with
  /// `quarantine`, renamed to `<task id>.h5.corrupt` so that no later reader takes them for a
  /// result. Returns them. Throws StoreError only when a shard cannot be read at all (I/O error).
  std::vector<CorruptShard> Verify(bool quarantine);
  /// task id -> status of every complete shard. Throws StoreError for an unreadable shard
  /// without a manifest line (Verify first to skip such shards).
  std::map<std::string, TaskStatus> Finished() const;
  /// task id -> stored detail of every complete shard (manifest lines without `detail`: kFull).
  /// Throws StoreError for an unreadable shard without a manifest line.
  std::map<std::string, ResultDetail> Details() const;
  /// Writes the shard (fsync'd), then appends its manifest line (with the shard's SHA-256).
  /// Throws StoreError naming the path and the system's error text (e.g. disk full).
  void Write(const TaskRecord& record, const Provenance& provenance);
  /// Stores `image` (EncodeShard of `record` made by a worker) as the shard of `record`, then
  /// appends its manifest line; `record` only supplies id, status, index, rank and
  /// wall time. Throws StoreError.
  void WriteImage(const TaskRecord& record, const std::vector<unsigned char>& image);
  /// Paths of all complete shards (sorted), without those Verify rejected.
  std::vector<std::string> ShardPaths() const;
  const std::string& dir() const { return dir_; }

 private:
  struct ManifestEntry {
    std::optional<TaskStatus> status;
    ResultDetail detail = ResultDetail::kFull;  ///< lines without `detail`: kFull
    std::string sha256;                         ///< "" on lines written before checksums
    int task_index = -1;
  };
  /// task id -> its last readable manifest line.
  std::map<std::string, ManifestEntry> ReadManifest() const;
  void AppendManifest(const TaskRecord& record, const std::string& sha256);

  std::string dir_;
  std::set<std::string> rejected_;  ///< task ids of shards Verify rejected
};

}  // namespace adaptsim
