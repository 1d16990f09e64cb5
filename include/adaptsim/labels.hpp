// How tables and figures name and draw policies, policy options, scenarios and metrics:
// analysis/labels.toml, the one declaration of every display name, colour, marker, option label
// and derived quantity shown (docs/architecture.md, "One analysis"). The build compiles the file
// into the binary (BuiltinLabels); analysis/*.py read the same file with tomllib, and the Python
// module returns the compiled-in text (adaptsim.labels()).
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace adaptsim {

/// How a policy option's value is shown in labels and on the planning-window axis.
enum class ShownAs {
  kValue,             ///< the value itself
  kRoundsAsMinutes,   ///< a number of rounds × the task's round length (s) / 60
  kSecondsAsMinutes,  ///< seconds / 60
};

/// A policy's display name (the papers' name), the registry names shown under it and its look.
struct PolicyLook {
  std::string display;             ///< "OSSP"
  std::vector<std::string> names;  ///< registry names: {"min_total_duration"}
  std::string colour;              ///< "#332288"
  std::string marker;              ///< matplotlib marker: "s"
};

/// A policy option in labels: `label` with "{}" for the shown value ("window {} min").
struct OptionLook {
  std::string label;
  ShownAs shown = ShownAs::kValue;
  std::string axis;  ///< the planning-window axis label ("" = the option's name)
};

/// A summary metric of the comparison tables and figures (a SummaryMetrics field), or a quantity
/// one figure derives from them (`derived` holds its definition; [[figure_metric]] only).
struct MetricLook {
  std::string name;     ///< "makespan_s"
  std::string title;    ///< panel title: "Makespan"
  std::string axis;     ///< axis label: "makespan (h)"
  std::string text;     ///< inside a sentence or a report row: "makespan"
  bool hours = false;   ///< a value in seconds drawn in hours
  std::string derived;  ///< "" for a summary metric, else how it is computed from them
};

/// What every table and figure shows, parsed from labels text (ParseLabels).
/// What a scenario label needs of a task: its job count, GPUs and the stem of its trace's file.
struct ScenarioOf {
  long long num_jobs = 0;
  long long num_gpus = 0;
  std::string trace_stem;
};

struct Labels {
  std::vector<PolicyLook> policies;  ///< legend order
  PolicyLook unlisted;               ///< the look (colour, marker) of a policy listed nowhere
  /// paper -> registry name -> the name that paper's own figures use where it differs from the
  /// display name ([paper_names.gavel]: max_min_fairness -> "LAS"); the figures that redraw the
  /// paper's study use it (analysis/heterogeneous_figures.py).
  std::map<std::string, std::map<std::string, std::string>> paper_names;
  std::map<std::string, OptionLook> options;
  std::string scenario;             ///< "{jobs} jobs · {gpus} GPUs"
  std::vector<MetricLook> metrics;  ///< panel order
  /// Quantities only some figures show (the Pollux fairness-knob figure), labels.toml's
  /// [[figure_metric]]: summary metrics beyond `metrics`, or quantities derived from them.
  std::vector<MetricLook> figure_metrics;
  std::string rho_column;  ///< the per-job ρ of the ρ CDF: a JobResult field, "ftf_rho"
  std::string rho_axis;    ///< its axis label

  /// The display name of a registry name (min_total_duration -> OSSP); unknown names unchanged.
  std::string DisplayName(const std::string& policy) const;
  /// Legend position of a display name, or of a label that starts with one ("Shockwave (k 1)");
  /// policies.size() for a name listed nowhere.
  std::size_t Rank(const std::string& label) const;
  /// The value of `option` as shown: `value`, `value` × round_duration_s / 60 (rounds as
  /// minutes: Shockwave's planning window) or `value` / 60 (seconds as minutes).
  double Shown(const std::string& option, double value, double round_duration_s) const;
  /// One option as a label: ("future_rounds", 20, round 120 s) -> "window 40 min",
  /// ("k", 0.001) -> "k 0.001", ("lambda", 12) -> "λ 12"; an option listed nowhere
  /// "<name> <value>". Numbers as DisplayNumber, strings as they are, other JSON as its text.
  std::string OptionLabel(const std::string& option, const nlohmann::json& value,
                          double round_duration_s) const;
  /// The planning-window axis label of `option` ("planning window (min)"; else the name).
  std::string OptionAxis(const std::string& option) const;
  /// "120 jobs · 32 GPUs".
  std::string ScenarioLabel(long long num_jobs, long long num_gpus) const;
  /// ScenarioLabel of every task, with the first 12 characters of the trace's stem appended
  /// ("120 jobs · 32 GPUs · 120_0.2_5_10") when tasks of different traces would share a label. A
  /// task without a job count (num_jobs 0: a failed task) counts the jobs of another task of its
  /// trace, or is labelled by its trace's stem.
  std::vector<std::string> ScenarioLabels(const std::vector<ScenarioOf>& tasks) const;
  /// The display name of `policy`, plus " (" the labels of its options named in `varied` but
  /// not in `skip`, comma-separated ")": "Shockwave (window 40 min, k 0.001)".
  std::string PolicyLabel(const std::string& policy, const nlohmann::json& options,
                          const std::set<std::string>& varied, double round_duration_s,
                          const std::set<std::string>& skip = {}) const;
};

/// Parses labels text (the format of analysis/labels.toml, whose comments document it).
/// Throws InputError naming `source`, the line and the key for malformed TOML, a missing or
/// mistyped key, an unknown key, a registry name listed twice, a paper name given to a registry
/// name no [[policy]] lists, a `shown` rule that does not
/// exist, a metric that is not a SummaryMetrics field (or `hours` on one not in seconds), and a
/// ρ column that is not a per-job number.
Labels ParseLabels(std::string_view text, const std::string& source);

/// The text of analysis/labels.toml as the build compiled it in.
std::string_view BuiltinLabelsText();

/// ParseLabels(BuiltinLabelsText()), parsed once.
const Labels& BuiltinLabels();

/// `value` as printf's %g with the exponent written without sign padding: 0.001 -> "0.001",
/// 1e-05 -> "1e-5", 100000 -> "100000", 1e+06 -> "1e6".
std::string DisplayNumber(double value);

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

}  // namespace adaptsim
