#include "adaptsim/input_cache.hpp"

#include <sys/stat.h>

#include "adaptsim/catalogue_throughput.hpp"

namespace adaptsim {

std::optional<InputCache::Stamp> InputCache::StampOf(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return Stamp{static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
               static_cast<std::uint64_t>(info.st_size),
               static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 +
                   static_cast<std::int64_t>(info.st_mtim.tv_nsec)};
}

template <typename Value, typename Load>
Value InputCache::Lookup(std::map<std::string, std::pair<Stamp, Value>>& entries,
                         const std::string& path, Load load, const std::string& key) {
  const std::string& entry = key.empty() ? path : key;
  std::optional<Stamp> before = StampOf(path);
  auto it = entries.find(entry);
  if (before && it != entries.end() && it->second.first == *before) {
    ++hits_;
    return it->second.second;
  }
  Value value = load();  // throws for a missing or bad file: nothing is kept
  ++parsed_;
  std::optional<Stamp> after = StampOf(path);
  if (!before || !after || !(*before == *after)) {
    if (it != entries.end()) entries.erase(it);  // changed while read: keep nothing
    return value;
  }
  if (it == entries.end() && entries.size() >= kMaxEntries) entries.erase(entries.begin());
  entries[entry] = {*after, value};
  return value;
}

std::shared_ptr<const ThroughputSource> InputCache::Throughputs(const std::string& path,
                                                                const std::string& gpu_type) {
  return Lookup(
      throughputs_, path,
      [&] {
        return std::shared_ptr<const ThroughputSource>(
            models::LoadThroughputSource(path, gpu_type));
      },
      gpu_type == Cluster::kDefaultGpuType ? path : path + "\n" + gpu_type);
}

ClusterThroughputs InputCache::Throughputs(const std::string& path, const Cluster& cluster) {
  ClusterThroughputs throughputs{cluster, {}};
  for (const GpuTypeCount& type : cluster.types()) {
    throughputs.by_type.push_back(Throughputs(path, type.name));
  }
  return throughputs;
}

Trace InputCache::ReadTrace(const std::string& path) {
  return *Lookup(traces_, path,
                 [&] { return std::make_shared<const Trace>(adaptsim::ReadTrace(path)); });
}

}  // namespace adaptsim
