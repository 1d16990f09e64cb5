#include "display_names.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace adaptsim {
namespace {

/// Option -> label template: {v} the value, {min} value x round length in minutes (a window in
/// rounds), {sec_min} a value in seconds as minutes, {s} the value alone.
const std::map<std::string, std::string>& OptionTemplates() {
  static const std::map<std::string, std::string> kTemplates = {
      {"future_rounds", "window {min} min"},
      {"k", "k {v}"},
      {"lambda", "λ {v}"},
      {"interval_s", "interval {sec_min} min"},
      {"p", "p {v}"},
      {"face_position", "face {v}"},
      {"face_rule", "{s}"},
      {"alpha", "α {v}"},
  };
  return kTemplates;
}

std::string Fill(std::string text, const std::string& field, const std::string& value) {
  std::size_t at = text.find(field);
  if (at != std::string::npos) text.replace(at, field.size(), value);
  return text;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& PolicyDisplayNames() {
  static const std::vector<std::pair<std::string, std::string>> kNames = {
      {"shockwave", "Shockwave"},
      {"min_total_duration", "OSSP"},
      {"finish_time_fairness", "Themis"},
      {"max_min_fairness", "Gavel"},
      {"allox", "AlloX"},
      {"max_sum_throughput_perf", "MST"},
      {"max_sum_throughput", "MST"},
      {"gandiva_fair", "Gandiva-Fair"},
      {"fifo", "FIFO"},
      {"pollux", "Pollux"},
      {"optimus", "Optimus"},
      {"tiresias", "Tiresias"},
      {"isolated", "Isolated"},
      {"isolated_plus", "Isolated+"},
      {"replay", "Replay"},
  };
  return kNames;
}

std::string PolicyDisplayName(const std::string& policy) {
  for (const auto& [name, display] : PolicyDisplayNames()) {
    if (name == policy) return display;
  }
  return policy;
}

std::string DisplayNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%g", value);
  std::string s = text;
  std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  int exponent = std::stoi(s.substr(e + 1));
  return s.substr(0, e) + "e" + std::to_string(exponent);
}

std::string OptionLabel(const std::string& option, const nlohmann::json& value,
                        double round_duration_s) {
  auto found = OptionTemplates().find(option);
  std::string text = found != OptionTemplates().end() ? found->second : option + " {v}";
  std::string v, min, sec_min;
  if (value.is_number()) {
    double x = value.get<double>();
    v = DisplayNumber(x);
    min = DisplayNumber(x * round_duration_s / 60);
    sec_min = DisplayNumber(x / 60);
  } else {
    v = value.is_string() ? value.get<std::string>() : value.dump();
    min = sec_min = v;
  }
  text = Fill(text, "{v}", v);
  text = Fill(text, "{min}", min);
  text = Fill(text, "{sec_min}", sec_min);
  return Fill(text, "{s}", v);
}

std::string ScenarioLabel(long long num_jobs, long long num_gpus) {
  return std::to_string(num_jobs) + " jobs · " + std::to_string(num_gpus) + " GPUs";
}

std::vector<std::string> ScenarioLabels(const std::vector<ScenarioOf>& tasks) {
  std::map<std::string, long long> jobs_of_trace;
  for (const ScenarioOf& task : tasks) {
    long long& jobs = jobs_of_trace[task.trace_stem];
    jobs = std::max(jobs, task.num_jobs);
  }
  std::vector<std::string> labels;
  std::map<std::string, std::set<std::string>> keys;  // short label -> trace stem|gpus
  for (const ScenarioOf& task : tasks) {
    const long long jobs = jobs_of_trace[task.trace_stem];
    labels.push_back(jobs > 0 ? ScenarioLabel(jobs, task.num_gpus) : task.trace_stem);
    keys[labels.back()].insert(task.trace_stem + "|" + std::to_string(task.num_gpus));
  }
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (keys[labels[i]].size() > 1) labels[i] += " · " + tasks[i].trace_stem.substr(0, 12);
  }
  return labels;
}

std::map<std::string, std::set<std::string>> VariedOptions(const std::vector<LabelledTask>& tasks) {
  // (policy, option, scenario) -> distinct values
  std::map<std::tuple<std::string, std::string, std::string>, std::set<std::string>> values;
  for (const LabelledTask& task : tasks) {
    if (!task.options.is_object()) continue;
    for (const auto& [key, value] : task.options.items()) {
      values[{task.policy, key, task.scenario}].insert(value.dump());
    }
  }
  std::map<std::string, std::set<std::string>> varied;
  for (const auto& [key, distinct] : values) {
    if (distinct.size() > 1) varied[std::get<0>(key)].insert(std::get<1>(key));
  }
  return varied;
}

std::string PolicyLabel(const std::string& policy, const nlohmann::json& options,
                        const std::set<std::string>& varied, double round_duration_s,
                        const std::set<std::string>& skip) {
  std::string parts;
  for (const std::string& key : varied) {
    if (!options.is_object() || !options.contains(key) || skip.count(key) > 0) continue;
    parts += (parts.empty() ? "" : ", ") + OptionLabel(key, options[key], round_duration_s);
  }
  std::string name = PolicyDisplayName(policy);
  return parts.empty() ? name : name + " (" + parts + ")";
}

}  // namespace adaptsim
