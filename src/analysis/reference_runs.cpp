// The Shockwave reference runs as summary metrics (include/adaptsim/reference_runs.hpp).
#include "adaptsim/reference_runs.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/metrics.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

constexpr char kPrefix[] = "tacc_32gpus__";
constexpr char kSuffix[] = "__simulation.json";

double Number(const nlohmann::json& json, const std::string& path, const char* key) {
  if (!json.contains(key) || !json[key].is_number()) {
    throw InputError(path, 0, key, "expected a number");
  }
  return json[key].get<double>();
}

ReferenceRun ReadRun(const std::string& path, const std::string& policy) {
  std::ifstream in(path);
  nlohmann::json json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) {
    throw InputError(path, 0, "", "malformed JSON");
  }
  ReferenceRun run;
  run.policy = policy;
  run.metrics.makespan_s = Number(json, path, "makespan");
  run.metrics.mean_jct_s = Number(json, path, "avg_jct");
  const char* key = "finish_time_fairness_list";
  if (!json.contains(key) || !json[key].is_array() || json[key].empty()) {
    throw InputError(path, 0, key, "expected a non-empty list of numbers");
  }
  std::vector<double> rho;
  for (const nlohmann::json& value : json[key]) {
    if (!value.is_number()) throw InputError(path, 0, key, "expected numbers");
    rho.push_back(value.get<double>());
  }
  run.metrics.num_jobs = static_cast<int>(rho.size());
  FillFairnessMetrics(rho, run.metrics);
  return run;
}

}  // namespace

bool ReferenceScenario::Matches(const std::string& trace, int gpus, double round_s,
                                double deadline) const {
  return fs::path(trace).stem().string() == trace_stem && gpus == num_gpus &&
         round_s == round_duration_s && deadline == deadline_factor;
}

ReferenceRuns ReadReferenceRuns(const std::string& folder) {
  if (!fs::is_directory(folder)) throw InputError(folder, 0, "", "reference runs: not a folder");
  ReferenceRuns runs;
  const std::string prefix = kPrefix, suffix = kSuffix;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    const std::string policy =
        name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (policy == "old_shockwave" || policy == "new_orig_hyperparam_shockwave") continue;
    runs.runs.push_back(ReadRun(entry.path().string(), policy));
  }
  if (runs.runs.empty()) {
    throw InputError(folder, 0, "", "no reference run (" + prefix + "<policy>" + suffix + ")");
  }
  std::sort(runs.runs.begin(), runs.runs.end(),
            [](const ReferenceRun& a, const ReferenceRun& b) { return a.policy < b.policy; });
  return runs;
}

}  // namespace adaptsim
