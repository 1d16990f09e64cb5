// Crash-safe result storage of a sweep (docs/sweeps.md §4): one HDF5 shard per batch of finished
// tasks (a worker's results sent together; one task when tasks are long),
// `OUT.shards/<name>.h5` (OutputPaths::shards), written under a temporary name, fsync'd and
// renamed (store.hpp WriteShardImage), plus an append-only log `OUT.shards/manifest.jsonl`
// (ShardManifestPath; one JSON object per
// task: id, status, task_index, rank, wall_time_s, detail, sha256, finished_utc, shard). A shard's
// name is its task's id when it holds one task, else the content hash of its tasks' ids (32 hex
// digits either way); `sha256` is the SHA-256 of the shard's bytes, the same on every line of a
// shard, so that Verify finds a shard truncated or altered on disk. A shard file is the proof
// that its tasks finished; the manifest is the fast index used on resume and gives the order in
// which shards were written (a shard without manifest lines — kill -9 between rename and append —
// is read instead and counts as the newest; a torn last line is ignored; lines without `shard`,
// written before batches, name the task's own shard). Only rank 0 uses this class. No MPI here.
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
  /// A task the shard held, as its manifest lines (or, without lines, the shard itself) name it.
  struct Task {
    std::string id;
    int task_index = -1;  ///< from its manifest line; -1 when it has none
  };
  std::string path;         ///< where the shard was found
  std::string reason;       ///< checksum mismatch (with sizes) or the reader's error
  std::vector<Task> tasks;  ///< empty when the shard has no manifest lines and cannot be read
};

class ShardDirectory {
 public:
  /// The shard folder `folder`: a sweep's OutputPaths::shards(), or any folder of shards
  /// (`adaptsim merge DIR.shards`).
  explicit ShardDirectory(std::string folder);

  /// Creates the folder if needed, deletes temporary files left by a killed run and checks that
  /// the folder takes new files. Throws StoreError naming the folder and the system's error text.
  void Open();
  /// Deletes the folder and everything in it.
  void RemoveAll();
  /// Checks every shard: one with a SHA-256 in the manifest must match it (truncated or altered
  /// bytes fail); one without (no manifest lines, or lines written before checksums) must be
  /// readable and hold the tasks its name stands for. Failing shards are left out of everything
  /// below from then on — all their tasks count as not finished, unless an older copy of a task
  /// is stored in another shard — and, with `quarantine`, renamed to `<name>.h5.corrupt` so that
  /// no later reader takes them for results. Returns them. Throws StoreError only when a shard
  /// cannot be read at all (I/O error) or renamed.
  std::vector<CorruptShard> Verify(bool quarantine);
  /// Status and stored detail of a task's copy in a shard.
  struct Stored {
    TaskStatus status = TaskStatus::kOk;
    ResultDetail detail = ResultDetail::kFull;  ///< manifest lines without `detail`: kFull
  };
  /// task id -> its newest copy in a complete shard (Finished and Details in one pass: each shard
  /// without manifest lines is opened once). Throws StoreError for an unreadable shard without
  /// manifest lines (Verify first to skip such shards).
  std::map<std::string, Stored> Newest() const;
  /// task id -> status of its newest copy in a complete shard. Throws StoreError for an
  /// unreadable shard without manifest lines (Verify first to skip such shards).
  std::map<std::string, TaskStatus> Finished() const;
  /// task id -> stored detail of its newest copy (manifest lines without `detail`: kFull).
  /// Throws StoreError for an unreadable shard without manifest lines.
  std::map<std::string, ResultDetail> Details() const;
  /// Stores `records` as one shard (fsync'd), then appends their manifest lines, each with the
  /// shard's SHA-256. `image` is EncodeShard(records) made by a worker (`records` then only
  /// supply id, status, index, rank and wall time); empty: encoded here from the complete
  /// records. Throws StoreError naming the path and the system's error text (e.g. disk full).
  void Write(const std::vector<TaskRecord>& records, const Provenance& provenance,
             const std::vector<unsigned char>& image = {});

  /// A shard file written by StoreImage: its name (32 hex digits, without ".h5") and the
  /// SHA-256 of its bytes.
  struct StoredShard {
    std::string name;
    std::string sha256;
  };
  /// Writes `image` (EncodeShard of the tasks `ids`, in that order) into the shard folder `dir`
  /// crash-safely as Write does, without a manifest line: an MPI worker that shares the folder
  /// with rank 0 stores its own results this way and rank 0 only logs them (Adopt). Until then
  /// the shard counts as one without manifest lines (read on resume). Throws StoreError (e.g.
  /// disk full; nothing is left behind).
  static StoredShard StoreImage(const std::string& dir, const std::vector<std::string>& ids,
                                const std::vector<unsigned char>& image);
  /// Appends the manifest lines of `records`, stored by a worker as `shard` (StoreImage).
  /// Throws StoreError when that shard is not in the folder or the manifest cannot be appended.
  void Adopt(const std::vector<TaskRecord>& records, const StoredShard& shard);
  /// Paths of all complete shards in the order they were written (a task in several shards —
  /// rerun — is newest in the last), without those Verify rejected. MergeResults takes a task
  /// from its last source.
  std::vector<std::string> ShardPaths() const;
  const std::string& dir() const { return dir_; }

 private:
  /// One readable manifest line.
  struct Line {
    std::string id;
    std::string shard;                          ///< lines without `shard`: the task's id
    std::optional<TaskStatus> status;           ///< none: the shard itself is read instead
    ResultDetail detail = ResultDetail::kFull;  ///< lines without `detail`: kFull
    std::string sha256;                         ///< "" on lines written before checksums
    int task_index = -1;
  };
  /// The manifest's readable lines in the order they were appended (a torn or foreign line is
  /// skipped).
  std::vector<Line> ReadManifest() const;
  /// Names of the complete shards on disk, without those Verify rejected.
  std::set<std::string> ShardsOnDisk() const;
  /// Newest stored copy of every task, and the shards in write order.
  std::map<std::string, Stored> Index(std::vector<std::string>* shard_paths = nullptr) const;
  void AppendManifest(const std::vector<TaskRecord>& records, const std::string& shard,
                      const std::string& sha256);

  std::string dir_;
  std::set<std::string> rejected_;  ///< shards Verify rejected and not written again since
};

/// The shard files of a sweep's shard folder (`OUT.shards`) in the order they were written, as
/// its manifest records it (a task rerun into a newer shard is then taken from that one when
/// the list is merged, MergeOptions::sources). A shard that fails the resume's check (SHA-256
/// of its bytes against the manifest; readable, when it has no manifest lines) is left out and,
/// with `skipped`, described there (path, reason, the ids of its tasks); nothing is moved.
/// Throws StoreError when the folder cannot be read.
std::vector<std::string> ShardFiles(const std::string& folder,
                                    std::vector<std::string>* skipped = nullptr);

}  // namespace adaptsim
