// Every path adaptsim derives from a results file's name (`--out` of `adaptsim sweep`, `run` and
// `merge`; each sweep's file of `adaptsim reproduce`): the file itself, its checksum file, the
// sweep's lock and shard folder with its manifest, and the temporary names files are written
// under before rename(2) publishes them (docs/sweeps.md §4). The names are declared here once;
// a command builds one OutputPaths from its --out and hands it on. Only CheckTarget reads the
// file system.
#pragma once

#include <string>

namespace adaptsim {

/// `<path>.tmp.<pid>`: the name under which this process writes a file before it renames it to
/// `path` (WriteShardImage, MergeResults), so that `path` is absent or complete after a crash.
std::string TemporaryPath(const std::string& path);

/// Whether the file name `name` (without folder) is a temporary name (TemporaryPath), i.e. a file
/// a killed writer left behind.
bool IsTemporaryName(const std::string& name);

/// `<folder>/manifest.jsonl`: the append-only log of a shard folder (shard_directory.hpp).
std::string ShardManifestPath(const std::string& shard_folder);

/// The paths of one results file `OUT` and of everything kept next to it.
class OutputPaths {
 public:
  /// `results` is the results file as the user named it (relative paths stay relative).
  explicit OutputPaths(std::string results);

  /// `OUT`: the results file (HDF5, docs/results-format.md).
  const std::string& results() const { return results_; }
  /// The folder of `OUT` ("." when `OUT` names none).
  const std::string& folder() const { return folder_; }
  /// `OUT.sha256`: the SHA-256 of `OUT` as `sha256sum` prints it (checksum.hpp).
  const std::string& checksum() const { return checksum_; }
  /// `OUT.lock`: the lock a sweep holds on `OUT` (output_lock.hpp).
  const std::string& lock() const { return lock_; }
  /// `OUT.shards`: a sweep's shard folder (shard_directory.hpp).
  const std::string& shards() const { return shards_; }
  /// `OUT.shards/manifest.jsonl`: its manifest (ShardManifestPath).
  const std::string& manifest() const { return manifest_; }
  /// `OUT.tmp.<pid>`: where this process writes `OUT` before renaming it (TemporaryPath).
  std::string temporary() const { return TemporaryPath(results_); }

  /// Checks, before any work, that `OUT` can be a results file: throws InputError (file `OUT`,
  /// field --out) when its folder does not exist or is not a folder, or when `OUT` is a folder.
  void CheckTarget() const;

 private:
  std::string results_;
  std::string folder_;
  std::string checksum_;
  std::string lock_;
  std::string shards_;
  std::string manifest_;
};

}  // namespace adaptsim
