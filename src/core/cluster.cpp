#include "adaptsim/cluster.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

bool ValidTypeName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  }) && name.front() != '-';
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// A non-negative decimal integer below 2^31, or nullopt.
std::optional<int> ParseCount(std::string_view text) {
  text = Trim(text);
  int value = 0;
  if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// 'text' (GCC 12 warns, wrongly, on "literal" + std::string).
std::string Quoted(std::string_view text) {
  std::string quoted(1, '\'');
  quoted.append(PrintableText(text)).push_back('\'');
  return quoted;
}

}  // namespace

Cluster::Cluster() : Cluster(Homogeneous(32)) {}

Cluster Cluster::Homogeneous(int num_gpus, std::string gpu_type) {
  if (num_gpus < 1) {
    throw InputError("cluster", 0, "num_gpus", "must be >= 1, got " + std::to_string(num_gpus));
  }
  return FromCounts({{std::move(gpu_type), num_gpus}});
}

Cluster Cluster::FromCounts(std::vector<GpuTypeCount> counts, const std::string& file,
                            const std::string& field) {
  return Build(std::move(counts), file, 0, field);
}

Cluster Cluster::Build(std::vector<GpuTypeCount> counts, const std::string& file, int line,
                       const std::string& field) {
  Cluster cluster(Empty{});
  long long total = 0;
  for (GpuTypeCount& type : counts) {
    if (!ValidTypeName(type.name)) {
      throw InputError(file, line, field,
                       "GPU type " + Quoted(type.name) +
                           " is not a lower-case name of letters, digits, '_' and '-' "
                           "(not starting with '-')");
    }
    if (type.count < 0) {
      throw InputError(
          file, line, field,
          "GPU type " + Quoted(type.name) + " has a negative count " + std::to_string(type.count));
    }
    for (const GpuTypeCount& seen : cluster.types_) {
      if (seen.name == type.name) {
        throw InputError(file, line, field, "GPU type " + Quoted(type.name) + " is given twice");
      }
    }
    total += type.count;
    if (type.count > 0) cluster.types_.push_back(std::move(type));
  }
  if (total < 1) throw InputError(file, line, field, "the cluster has no GPU");
  if (total > std::numeric_limits<int>::max()) {
    throw InputError(file, line, field, "more than 2^31 - 1 GPUs");
  }
  std::sort(cluster.types_.begin(), cluster.types_.end(),
            [](const GpuTypeCount& a, const GpuTypeCount& b) { return a.name < b.name; });
  cluster.num_gpus_ = 0;
  for (const GpuTypeCount& type : cluster.types_) {
    cluster.first_ids_.push_back(cluster.num_gpus_);
    cluster.num_gpus_ += type.count;
  }
  cluster.reference_type_ = cluster.IndexOf(kDefaultGpuType).value_or(0);
  return cluster;
}

Cluster Cluster::Parse(std::string_view text, const std::string& file, int line,
                       const std::string& field) {
  auto fail = [&](const std::string& message) {
    throw InputError(file, line, field,
                     message + " in " + Quoted(text) +
                         " (expected N, V100:P100:K80 such as 16:8:8, or named counts such "
                         "as v100=16,p100=8,k80=8)");
  };
  const std::string_view trimmed = Trim(text);
  if (trimmed.empty()) fail("empty cluster");
  std::vector<GpuTypeCount> counts;
  if (trimmed.find('=') != std::string_view::npos) {
    for (std::string_view part : Split(trimmed, ',')) {
      const std::size_t equals = part.find('=');
      if (equals == std::string_view::npos) fail(Quoted(Trim(part)) + " is not type=count");
      const std::string name(Trim(part.substr(0, equals)));
      if (!ValidTypeName(name)) fail("GPU type " + Quoted(name) + " is not a lower-case name");
      const std::optional<int> count = ParseCount(part.substr(equals + 1));
      if (!count) fail("count of GPU type " + Quoted(name) + " is not an integer >= 0");
      counts.push_back({name, *count});
    }
  } else if (trimmed.find(':') != std::string_view::npos) {
    const std::vector<std::string_view> parts = Split(trimmed, ':');
    if (parts.size() != 3) fail("the V100:P100:K80 form needs exactly three counts");
    const char* names[] = {"v100", "p100", "k80"};
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::optional<int> count = ParseCount(parts[i]);
      if (!count) fail("count of " + Quoted(names[i]) + " is not an integer >= 0");
      counts.push_back({names[i], *count});
    }
  } else {
    const std::optional<int> count = ParseCount(trimmed);
    if (!count || *count < 1) fail("the GPU count is not an integer >= 1");
    counts.push_back({kDefaultGpuType, *count});
  }
  return Build(std::move(counts), file, line, field);
}

int Cluster::TypeOfWorker(int worker_id) const {
  ADAPTSIM_CHECK(worker_id >= 0 && worker_id < num_gpus_);
  int type = 0;
  while (type + 1 < num_types() && first_ids_[type + 1] <= worker_id) ++type;
  return type;
}

std::optional<int> Cluster::IndexOf(std::string_view name) const {
  for (int type = 0; type < num_types(); ++type) {
    if (types_[type].name == name) return type;
  }
  return std::nullopt;
}

std::string Cluster::ToString() const {
  if (homogeneous() && types_[0].name == kDefaultGpuType) return std::to_string(num_gpus_);
  std::string text;
  for (const GpuTypeCount& type : types_) {
    if (!text.empty()) text += ',';
    text.append(type.name).append("=").append(std::to_string(type.count));
  }
  return text;
}

}  // namespace adaptsim
