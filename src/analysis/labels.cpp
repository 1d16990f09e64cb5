// analysis/labels.toml: parsing, and the labels built from it (include/adaptsim/labels.hpp).
#include "adaptsim/labels.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <type_traits>

#include <toml++/toml.h>

#include "adaptsim/error.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/result_fields.hpp"

namespace adaptsim {
namespace {

/// Reads one labels table; every error names the source, the node's line and the key.
struct Reader {
  std::string source;

  [[noreturn]] void Throw(const toml::node& node, const std::string& field,
                          const std::string& message) const {
    throw InputError(source, static_cast<int>(node.source().begin.line), field, message);
  }
  const toml::table& Table(const toml::node& node, const std::string& field) const {
    if (!node.is_table()) Throw(node, field, "expected a table");
    return *node.as_table();
  }
  const toml::array& Array(const toml::node& node, const std::string& field) const {
    if (!node.is_array()) Throw(node, field, "expected an array");
    return *node.as_array();
  }
  const toml::node& Required(const toml::table& table, const std::string& key,
                             const std::string& field) const {
    const toml::node* node = table.get(key);
    if (node == nullptr) Throw(table, field, "missing required key");
    return *node;
  }
  std::string String(const toml::node& node, const std::string& field) const {
    if (!node.is_string() || node.value<std::string>()->empty()) {
      Throw(node, field, "expected a non-empty string");
    }
    return *node.value<std::string>();
  }
  std::string RequiredString(const toml::table& table, const std::string& key,
                             const std::string& prefix) const {
    return String(Required(table, key, prefix + key), prefix + key);
  }
  void OnlyKeys(const toml::table& table, const std::set<std::string>& known,
                const std::string& prefix) const {
    for (const auto& [key, node] : table) {
      if (known.count(std::string(key.str())) == 0) {
        Throw(node, prefix + std::string(key.str()), "unknown key");
      }
    }
  }
};

PolicyLook ReadLook(const Reader& r, const toml::table& table, const std::string& prefix) {
  PolicyLook look;
  look.colour = r.RequiredString(table, "colour", prefix);
  if (look.colour.size() != 7 || look.colour[0] != '#' ||
      look.colour.find_first_not_of("0123456789abcdefABCDEF", 1) != std::string::npos) {
    r.Throw(*table.get("colour"), prefix + "colour", "expected \"#RRGGBB\"");
  }
  look.marker = r.RequiredString(table, "marker", prefix);
  return look;
}

void ReadPolicies(const Reader& r, const toml::table& root, Labels& labels) {
  std::set<std::string> seen;
  const toml::array& policies = r.Array(r.Required(root, "policy", "policy"), "policy");
  for (std::size_t i = 0; i < policies.size(); ++i) {
    const std::string prefix = "policy[" + std::to_string(i) + "].";
    const toml::table& table = r.Table(*policies.get(i), prefix);
    r.OnlyKeys(table, {"display", "names", "colour", "marker"}, prefix);
    PolicyLook look = ReadLook(r, table, prefix);
    look.display = r.RequiredString(table, "display", prefix);
    const toml::array& names =
        r.Array(r.Required(table, "names", prefix + "names"), prefix + "names");
    if (names.empty()) r.Throw(names, prefix + "names", "expected at least one registry name");
    for (const toml::node& name : names) {
      look.names.push_back(r.String(name, prefix + "names"));
      if (!seen.insert(look.names.back()).second) {
        r.Throw(name, prefix + "names", "'" + look.names.back() + "' is listed twice");
      }
    }
    labels.policies.push_back(std::move(look));
  }
  const toml::table& unlisted = r.Table(r.Required(root, "unlisted", "unlisted"), "unlisted");
  r.OnlyKeys(unlisted, {"colour", "marker"}, "unlisted.");
  labels.unlisted = ReadLook(r, unlisted, "unlisted.");
}

void ReadOptions(const Reader& r, const toml::table& root, Labels& labels) {
  const toml::node* node = root.get("option");
  if (node == nullptr) return;
  for (const auto& [key, value] : r.Table(*node, "option")) {
    const std::string name(key.str());
    const std::string prefix = "option." + name + ".";
    const toml::table& table = r.Table(value, prefix);
    r.OnlyKeys(table, {"label", "shown", "axis"}, prefix);
    OptionLook look;
    look.label = r.RequiredString(table, "label", prefix);
    if (look.label.find("{}") == std::string::npos) {
      r.Throw(*table.get("label"), prefix + "label", "expected \"{}\" where the value goes");
    }
    if (const toml::node* shown = table.get("shown")) {
      const std::string rule = r.String(*shown, prefix + "shown");
      if (rule == "value") {
        look.shown = ShownAs::kValue;
      } else if (rule == "rounds_as_minutes") {
        look.shown = ShownAs::kRoundsAsMinutes;
      } else if (rule == "seconds_as_minutes") {
        look.shown = ShownAs::kSecondsAsMinutes;
      } else {
        r.Throw(*shown, prefix + "shown",
                "expected \"value\", \"rounds_as_minutes\" or \"seconds_as_minutes\", got '" +
                    rule + "'");
      }
    }
    if (const toml::node* axis = table.get("axis")) look.axis = r.String(*axis, prefix + "axis");
    labels.options[name] = look;
  }
}

/// The unit of SummaryMetrics field `name` (result_fields.hpp), "" when there is none.
std::string MetricUnit(const std::string& name) {
  std::string unit;
  SummaryMetrics metrics;
  VisitMetricFields(metrics, [&](const char* field, const char* units, auto&) {
    if (name == field) unit = units;
  });
  return unit;
}

/// True when `name` is a per-job number of the results file (a double field of JobResult).
bool IsJobNumber(const std::string& name) {
  bool found = false;
  JobResult job;
  VisitJobFields(job, [&](const char* field, const char*, auto& value) {
    if (name == field && std::is_same_v<std::decay_t<decltype(value)>, double>) found = true;
  });
  return found;
}

/// The metric looks under `key`: [[metric]] (summary metrics only) or [[figure_metric]] (a
/// summary metric, or a quantity derived from them whose definition is `derived`).
std::vector<MetricLook> ReadMetrics(const Reader& r, const toml::array& metrics,
                                    const std::string& key) {
  const bool derived_allowed = key == "figure_metric";
  std::vector<MetricLook> looks;
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const std::string prefix = key + "[" + std::to_string(i) + "].";
    const toml::table& table = r.Table(*metrics.get(i), prefix);
    if (derived_allowed) {
      r.OnlyKeys(table, {"name", "title", "axis", "text", "hours", "derived"}, prefix);
    } else {
      r.OnlyKeys(table, {"name", "title", "axis", "text", "hours"}, prefix);
    }
    MetricLook look;
    look.name = r.RequiredString(table, "name", prefix);
    const toml::node* derived = table.get("derived");
    if (derived != nullptr) look.derived = r.String(*derived, prefix + "derived");
    const std::string unit = MetricUnit(look.name);
    if (unit.empty() && derived == nullptr) {
      r.Throw(*table.get("name"), prefix + "name",
              "'" + look.name + "' is not a summary metric (docs/results-format.md)" +
                  (derived_allowed ? "; a derived quantity needs `derived`" : ""));
    }
    if (!unit.empty() && derived != nullptr) {
      r.Throw(*derived, prefix + "derived",
              "'" + look.name + "' is a summary metric: it is not derived");
    }
    look.title = r.RequiredString(table, "title", prefix);
    look.axis = r.RequiredString(table, "axis", prefix);
    look.text = r.RequiredString(table, "text", prefix);
    if (const toml::node* hours = table.get("hours")) {
      if (!hours->is_boolean()) r.Throw(*hours, prefix + "hours", "expected true or false");
      look.hours = *hours->value<bool>();
      if (look.hours && unit != "s") {
        r.Throw(*hours, prefix + "hours", "'" + look.name + "' is not in seconds");
      }
    }
    looks.push_back(std::move(look));
  }
  return looks;
}

/// [paper_names.<paper>]: registry name -> the paper's own name for it; every name must be a
/// registry name listed under a [[policy]].
void ReadPaperNames(const Reader& r, const toml::table& root, Labels& labels) {
  const toml::node* node = root.get("paper_names");
  if (node == nullptr) return;
  std::set<std::string> listed;
  for (const PolicyLook& look : labels.policies)
    listed.insert(look.names.begin(), look.names.end());
  for (const auto& [paper_key, paper_node] : r.Table(*node, "paper_names")) {
    const std::string paper(paper_key.str());
    const std::string prefix = "paper_names." + paper + ".";
    std::map<std::string, std::string>& names = labels.paper_names[paper];
    for (const auto& [key, value] : r.Table(paper_node, prefix)) {
      const std::string policy(key.str());
      if (listed.count(policy) == 0) {
        r.Throw(value, prefix + policy, "'" + policy + "' is no registry name of a [[policy]]");
      }
      names[policy] = r.String(value, prefix + policy);
    }
  }
}

std::string Fill(std::string text, const std::string& field, const std::string& value) {
  std::size_t at = text.find(field);
  if (at != std::string::npos) text.replace(at, field.size(), value);
  return text;
}

}  // namespace

Labels ParseLabels(std::string_view text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& error) {
    throw InputError(source, static_cast<int>(error.source().begin.line), "",
                     "malformed TOML: " + std::string(error.description()));
  }
  const Reader r{source};
  r.OnlyKeys(
      root,
      {"policy", "unlisted", "paper_names", "option", "scenario", "metric", "figure_metric", "rho"},
      "");
  Labels labels;
  ReadPolicies(r, root, labels);
  ReadPaperNames(r, root, labels);
  ReadOptions(r, root, labels);
  const toml::table& scenario = r.Table(r.Required(root, "scenario", "scenario"), "scenario");
  r.OnlyKeys(scenario, {"label"}, "scenario.");
  labels.scenario = r.RequiredString(scenario, "label", "scenario.");
  for (const char* field : {"{jobs}", "{gpus}"}) {
    if (labels.scenario.find(field) == std::string::npos) {
      r.Throw(*scenario.get("label"), "scenario.label", std::string("expected ") + field);
    }
  }
  labels.metrics =
      ReadMetrics(r, r.Array(r.Required(root, "metric", "metric"), "metric"), "metric");
  if (const toml::node* figure = root.get("figure_metric")) {
    labels.figure_metrics = ReadMetrics(r, r.Array(*figure, "figure_metric"), "figure_metric");
  }
  const toml::table& rho = r.Table(r.Required(root, "rho", "rho"), "rho");
  r.OnlyKeys(rho, {"column", "axis"}, "rho.");
  labels.rho_column = r.RequiredString(rho, "column", "rho.");
  if (!IsJobNumber(labels.rho_column)) {
    r.Throw(*rho.get("column"), "rho.column",
            "'" + labels.rho_column + "' is not a per-job number (docs/results-format.md)");
  }
  labels.rho_axis = r.RequiredString(rho, "axis", "rho.");
  return labels;
}

const Labels& BuiltinLabels() {
  static const Labels kLabels = ParseLabels(BuiltinLabelsText(), "analysis/labels.toml");
  return kLabels;
}

std::string Labels::DisplayName(const std::string& policy) const {
  for (const PolicyLook& look : policies) {
    for (const std::string& name : look.names) {
      if (name == policy) return look.display;
    }
  }
  return policy;
}

std::size_t Labels::Rank(const std::string& label) const {
  const std::string display = label.substr(0, label.find(" ("));
  for (std::size_t i = 0; i < policies.size(); ++i) {
    if (policies[i].display == display) return i;
  }
  return policies.size();
}

double Labels::Shown(const std::string& option, double value, double round_duration_s) const {
  auto found = options.find(option);
  switch (found == options.end() ? ShownAs::kValue : found->second.shown) {
    case ShownAs::kRoundsAsMinutes:
      return value * round_duration_s / 60;
    case ShownAs::kSecondsAsMinutes:
      return value / 60;
    case ShownAs::kValue:
      break;
  }
  return value;
}

std::string Labels::OptionLabel(const std::string& option, const nlohmann::json& value,
                                double round_duration_s) const {
  auto found = options.find(option);
  const std::string label = found != options.end() ? found->second.label : option + " {}";
  std::string shown;
  if (value.is_number()) {
    shown = DisplayNumber(Shown(option, value.get<double>(), round_duration_s));
  } else {
    shown = value.is_string() ? value.get<std::string>() : value.dump();
  }
  return Fill(label, "{}", shown);
}

std::string Labels::OptionAxis(const std::string& option) const {
  auto found = options.find(option);
  return found != options.end() && !found->second.axis.empty() ? found->second.axis : option;
}

std::string Labels::ScenarioLabel(long long num_jobs, long long num_gpus) const {
  return Fill(Fill(scenario, "{jobs}", std::to_string(num_jobs)), "{gpus}",
              std::to_string(num_gpus));
}

std::vector<std::string> Labels::ScenarioLabels(const std::vector<ScenarioOf>& tasks) const {
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

std::string Labels::PolicyLabel(const std::string& policy, const nlohmann::json& options_json,
                                const std::set<std::string>& varied, double round_duration_s,
                                const std::set<std::string>& skip) const {
  std::string parts;
  for (const std::string& key : varied) {
    if (!options_json.is_object() || !options_json.contains(key) || skip.count(key) > 0) continue;
    parts += (parts.empty() ? "" : ", ") + OptionLabel(key, options_json[key], round_duration_s);
  }
  std::string name = DisplayName(policy);
  return parts.empty() ? name : name + " (" + parts + ")";
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

}  // namespace adaptsim
