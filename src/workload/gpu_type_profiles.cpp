// Application profiles per GPU type (gpu_type_profiles.hpp; docs/sia.md §1).
#include "adaptsim/gpu_type_profiles.hpp"

#include <algorithm>
#include <filesystem>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_workload.hpp"

namespace adaptsim {

namespace fs = std::filesystem;

namespace {

struct KnownApplication {
  const char* name;
  int max_epochs;
};

// `S:sia-simulator/applications.py:342-395` (the same epochs as the Pollux artifact).
constexpr KnownApplication kKnownApplications[] = {
    {"bert", 2},      {"cifar10", 100},    {"ncf", 10},
    {"imagenet", 90}, {"deepspeech2", 80}, {"yolov3", 50},
};

// `S:sia-simulator/simulator_config.py:8-15`: GPUs per node and the most physical nodes profiled.
constexpr struct {
  const char* name;
  GpuTypeNodeShape shape;
} kKnownGpuTypes[] = {
    {"aws", {4, 16}},    {"azure", {8, 5}}, {"dgx", {8, 2}},
    {"dgx-ext", {8, 2}}, {"quad", {4, 1}},  {"rtx", {8, 3}},
};

// `S:sia-simulator/applications.py:51-52`.
int MaxLocalBszOverride(const std::string& name, const std::string& gpu_type) {
  return name == "deepspeech2" && gpu_type == "rtx" ? 57 : 0;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

}  // namespace

std::vector<std::string> GpuTypeApplications::ProfiledTypes(const std::string& name) const {
  std::vector<std::string> types;
  const fs::path dir = fs::path(traces_dir_) / name;
  std::error_code error;
  if (!fs::is_directory(dir, error)) return types;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    const std::string file = entry.path().filename().string();
    const std::string prefix = "placements-", suffix = ".csv";
    if (file.size() > prefix.size() + suffix.size() && file.rfind(prefix, 0) == 0 &&
        file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0) {
      types.push_back(file.substr(prefix.size(), file.size() - prefix.size() - suffix.size()));
    }
  }
  std::sort(types.begin(), types.end());
  return types;
}

const PolluxApplication& GpuTypeApplications::Get(const std::string& name,
                                                  const std::string& gpu_type,
                                                  const std::string& context_file,
                                                  int context_line) {
  const auto key = std::make_pair(name, gpu_type);
  if (auto it = loaded_.find(key); it != loaded_.end()) return *it->second;
  const KnownApplication* known = nullptr;
  for (const KnownApplication& candidate : kKnownApplications) {
    if (name == candidate.name) known = &candidate;
  }
  if (known == nullptr) {
    throw InputError(context_file, context_line, "application",
                     "unknown application '" + name +
                         "' (known: bert, cifar10, ncf, imagenet, deepspeech2, yolov3)");
  }
  const fs::path dir = fs::path(traces_dir_) / name;
  const std::string placements = (dir / ("placements-" + gpu_type + ".csv")).string();
  if (gpu_type.empty() || !fs::exists(placements)) {
    const std::string message =
        "application '" + name + "' has no profile for GPU type '" + gpu_type + "': " + placements +
        " not found (profiled types: " + JoinNames(ProfiledTypes(name)) + ")";
    if (!context_file.empty()) throw InputError(context_file, context_line, "application", message);
    throw InputError(placements, 0, "gpu_type", message);
  }
  PolluxApplicationOverrides overrides;
  overrides.max_epochs = known->max_epochs;
  overrides.max_local_bsz = MaxLocalBszOverride(name, gpu_type);
  auto app = std::make_unique<PolluxApplication>(
      PolluxApplication::Load(dir.string(), overrides, gpu_type));
  return *loaded_.emplace(key, std::move(app)).first->second;
}

void CheckWorkloadAgainstGpuTypes(const PolluxWorkload& workload, GpuTypeApplications& apps,
                                  const std::vector<std::string>& gpu_types) {
  for (const PolluxJobSpec& spec : workload.jobs) {
    for (const std::string& gpu_type : gpu_types) {
      CheckJobBatchSize(workload, spec,
                        apps.Get(spec.application, gpu_type, workload.path, spec.line));
    }
  }
}

GpuTypeNodeShape SiaGpuTypeNodeShape(const std::string& gpu_type, const std::string& file, int line,
                                     const std::string& field) {
  std::string known;
  for (const auto& type : kKnownGpuTypes) {
    if (gpu_type == type.name) return type.shape;
    known += (known.empty() ? "" : ", ") + std::string(type.name);
  }
  throw InputError(file, line, field,
                   "GPU type '" + gpu_type + "' has no known node size (known: " + known + ")");
}

const std::map<std::string, double>& SiaRestartDelays() {
  // `S:sia-simulator/applications.py:56-69`; other models take 30 s (`job.py:536`).
  static const std::map<std::string, double> kDelays = {
      {"cifar10", 50}, {"deepspeech2", 25}, {"bert", 120},
      {"yolov3", 80},  {"imagenet", 250},   {"ncf", 15},
  };
  return kDelays;
}

const std::map<std::string, double>& SiaSlowdowns() {
  // `S:sia-simulator/simulator_config.py:31-33`, applied as 1/slowdown (`job.py:105, 485`).
  static const std::map<std::string, double> kSlowdowns = {
      {"cifar10", 1.8}, {"imagenet", 1.2},    {"yolov3", 1.2},
      {"bert", 1.2},    {"deepspeech2", 1.2}, {"ncf", 1.5},
  };
  return kSlowdowns;
}

}  // namespace adaptsim
