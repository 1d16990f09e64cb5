// Parsed task inputs kept across the tasks one process runs (docs/sweeps.md §3, "Input cache").
//
// A sweep of small tasks reads the same trace and the same throughputs JSON (1.2 MB) for every
// task; parsing them took most of a 30-job task's time. A worker keeps each parsed file and
// hands the next task a copy (trace) or a shared read-only view (throughputs: ThroughputSource
// is const and thread-safe). An entry is keyed by the path and the file's identity and
// modification stamp (device, inode, size, mtime in ns), taken before and after parsing: a file
// that changes is read again, so a task sees exactly the bytes it would have read without the
// cache and its result is unchanged. No MPI, no global state: the owner (a worker) holds it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "adaptsim/cluster_throughputs.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"

namespace adaptsim {

class InputCache {
 public:
  /// models::LoadThroughputSource(path, gpu_type), parsed once per stamp and type. Throws what it
  /// throws.
  std::shared_ptr<const ThroughputSource> Throughputs(
      const std::string& path, const std::string& gpu_type = Cluster::kDefaultGpuType);
  /// The sources of every GPU type of `cluster` (models::LoadClusterThroughputs), each through
  /// Throughputs(path, type).
  ClusterThroughputs Throughputs(const std::string& path, const Cluster& cluster);
  /// ReadTrace(path), parsed once per stamp. Throws what it throws.
  Trace ReadTrace(const std::string& path);

  /// Files parsed so far, and lookups answered from memory (for tests and statistics).
  std::size_t parsed() const { return parsed_; }
  std::size_t hits() const { return hits_; }

 private:
  /// A file's identity and version: equal stamps mean the same bytes (absent when stat fails).
  struct Stamp {
    std::uint64_t device = 0, inode = 0, size = 0;
    std::int64_t mtime_ns = 0;
    bool operator==(const Stamp&) const = default;
  };
  static std::optional<Stamp> StampOf(const std::string& path);

  /// The entry of `key` (default: the path) for the file `path`.
  template <typename Value, typename Load>
  Value Lookup(std::map<std::string, std::pair<Stamp, Value>>& entries, const std::string& path,
               Load load, const std::string& key = {});

  /// Entries kept per kind; beyond it the oldest path is dropped (sweeps name a few files).
  static constexpr std::size_t kMaxEntries = 16;
  /// Keyed by the path, followed by "\n" and the GPU type for a type other than the default.
  std::map<std::string, std::pair<Stamp, std::shared_ptr<const ThroughputSource>>> throughputs_;
  std::map<std::string, std::pair<Stamp, std::shared_ptr<const Trace>>> traces_;
  std::size_t parsed_ = 0;
  std::size_t hits_ = 0;
};

}  // namespace adaptsim
