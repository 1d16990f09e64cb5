// How tables name policies, options and scenarios: "Shockwave", "window 40 min", "120 jobs ·
// 32 GPUs". The C++ half of a table whose Python half is analysis/adaptsim_style.py (figures);
// tests/test_display_names.cpp checks that both agree.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace adaptsim {

/// (registry name, display name) of every policy with a display name, in legend order
/// (Shockwave, OSSP, Themis, Gavel, AlloX, MST, Gandiva-Fair, FIFO, Pollux, Optimus, Tiresias,
/// ...).
const std::vector<std::pair<std::string, std::string>>& PolicyDisplayNames();

/// The display name of a registry name (min_total_duration -> OSSP); unknown names unchanged.
std::string PolicyDisplayName(const std::string& policy);

/// `value` as printf's %g with the exponent written without sign padding: 0.001 -> "0.001",
/// 1e-05 -> "1e-5", 100000 -> "100000", 1e+06 -> "1e6".
std::string DisplayNumber(double value);

/// One policy option as a label: ("future_rounds", 20, round 120 s) -> "window 40 min",
/// ("k", 0.001) -> "k 0.001", ("lambda", 12) -> "λ 12", ("interval_s", 120) -> "interval 2 min";
/// other options "<name> <value>".
std::string OptionLabel(const std::string& option, const nlohmann::json& value,
                        double round_duration_s);

/// "120 jobs · 32 GPUs".
std::string ScenarioLabel(long long num_jobs, long long num_gpus);

/// What a scenario label needs of a task: its job count, GPUs and the stem of its trace's file.
struct ScenarioOf {
  long long num_jobs = 0;
  long long num_gpus = 0;
  std::string trace_stem;
};

/// ScenarioLabel of every task, with the first 12 characters of the trace's stem appended
/// ("120 jobs · 32 GPUs · 120_0.2_5_10") when tasks of different traces would share a label, as
/// analysis/adaptsim_style.py add_labels does. A task without a job count (num_jobs 0: a failed
/// task) counts the jobs of another task of its trace, or is labelled by its trace's stem.
std::vector<std::string> ScenarioLabels(const std::vector<ScenarioOf>& tasks);

/// What labelling needs of a task: its policy, a key of its scenario (trace and cluster size)
/// and its policy options (a JSON object; anything else counts as no options).
struct LabelledTask {
  std::string policy;
  std::string scenario;
  nlohmann::json options;
};

/// policy -> the option names whose value differs between that policy's tasks of one scenario
/// (sorted). An option that changes only with the scenario (e.g. Shockwave's per-cluster-size
/// configuration) is part of the scenario, not of the label.
std::map<std::string, std::set<std::string>> VariedOptions(const std::vector<LabelledTask>& tasks);

/// The display name of `policy`, plus " (" the labels of its options named in `varied` but not
/// in `skip`, comma-separated ")": "Shockwave (window 40 min, k 0.001)".
std::string PolicyLabel(const std::string& policy, const nlohmann::json& options,
                        const std::set<std::string>& varied, double round_duration_s,
                        const std::set<std::string>& skip = {});

}  // namespace adaptsim
