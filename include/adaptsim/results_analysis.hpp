// The numbers and labels behind the paper-style figures, computed once: `adaptsim report` prints
// them, and analysis/figures.py draws them from `adaptsim report --format json` (docs/analysis.md
// §2). Only tasks with status "ok" count. No MPI here.
//
// Names, option labels, the window's unit and the ρ column come from analysis/labels.toml
// (include/adaptsim/labels.hpp). Definitions:
//   scenario = Labels::ScenarioLabel of the task's job count and cluster size ("120 jobs · 32
//              GPUs"), with " · " and the first 12 characters of the trace file stem appended
//              when two traces share that label
//   label    = the policy's display name, plus " (" the options whose value differs between that
//              policy's tasks of one trace and cluster size (Labels::OptionLabel, sorted by
//              name) ")"
//   canonical: per scenario and label, mean over tasks (seeds) of each metric of labels.toml
//              ("mean") and the mean divided by the baseline's mean in the same scenario
//              ("normalised"; NaN when the baseline is absent or 0). Baseline: the baseline
//              policy's label without options, else its first label (sorted).
//   scale:     per label and num_gpus, mean over tasks.
//   window:    tasks of policy P with numeric option O (param "P.O"), grouped by panel row
//              (scenario + the labels of P's other varied options except `window_spread`) and
//              the value of O as shown (Labels::Shown: Shockwave's future_rounds in minutes,
//              rounds × round length / 60): mean, std (ddof 1, 0 for one task), min, max and n
//              over tasks (seeds and spread values).
//   rho_cdf:   per scenario and label, the finite per-job ρ (labels.toml's ρ column, the static
//              ftf_rho) pooled over tasks: p50, p90, p99 (Percentile: linear interpolation,
//              numpy's default), max, mean, n.
//   reference: with AnalysisOptions::reference_dir, per scenario of the reference runs'
//              configuration (include/adaptsim/reference_runs.hpp) and per reference run, each
//              metric ("value") and its ratio to the baseline's reference run ("normalised").
#pragma once

#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/reference_runs.hpp"
#include "adaptsim/task_key_fields.hpp"

namespace adaptsim {

/// One number: (table, scenario, policy label, x, metric, stat) -> value.
struct AnalysisRow {
  std::string table;
  std::string scenario;
  std::string policy;
  std::string x;  ///< as shown: GPUs (scale), the window value (window), else ""
  std::string metric;
  std::string stat;
  double value = 0;
  double x_value = std::numeric_limits<double>::quiet_NaN();  ///< the number behind `x`
};

struct AnalysisOptions {
  std::string baseline = "shockwave";                    ///< policy to normalise by
  std::string fallback_baseline = "";                    ///< used when `baseline` is absent
  std::string window_param = "shockwave.future_rounds";  ///< "<policy>.<option>"
  std::string window_spread = "k";  ///< option of the window policy pooled into the spread
  std::string reference_dir;        ///< reference runs to compare with ("" = none)
};

/// One ok task as the tables label it.
struct AnalysedTask {
  std::string file;  ///< the results file it was read from
  std::string task_id;
  int task_index = 0;
  std::string policy;    ///< registry name
  std::string display;   ///< display name ("OSSP")
  std::string label;     ///< display name and varied options ("Shockwave (k 0.001)")
  std::string scenario;  ///< scenario label ("120 jobs · 32 GPUs")
  std::string trace;
  int num_jobs = 0;
  int num_gpus = 0;
  std::uint64_t seed = 0;
  double round_duration_s = 0;
  nlohmann::json options;          ///< policy options (an object)
  std::optional<double> window_x;  ///< its window value as shown, when in the window table
  std::string window_row;          ///< its panel row of the window table ("" when not in it)
};

/// Calls `visit(name, field)` for every field of an AnalysedTask, in declaration order: the one
/// list the analysis JSON's "tasks" entries are written from (docs/analysis.md).
template <typename T, typename V>
void VisitAnalysedTaskFields(T& task, V&& visit) {
  visit("file", task.file);
  visit("task_id", task.task_id);
  visit("task_index", task.task_index);
  visit(kPolicyField.key.data(), task.policy);
  visit("display", task.display);
  visit("label", task.label);
  visit("scenario", task.scenario);
  visit("trace", task.trace);
  visit("num_jobs", task.num_jobs);
  visit(kNumGpusField.key.data(), task.num_gpus);
  visit(kSeedField.key.data(), task.seed);
  visit(kRoundDurationField.key.data(), task.round_duration_s);
  visit("options", task.options);
  visit("window_x", task.window_x);
  visit("window_row", task.window_row);
}

/// The pooled per-job ρ of one (scenario, label): the points of a ρ CDF.
struct RhoValues {
  std::string scenario;
  std::string policy;          ///< label
  std::vector<double> values;  ///< finite values, ascending
};

/// Everything the figures draw: the tasks with their labels, the tables and the ρ values.
struct Analysis {
  std::string baseline;  ///< registry name of the canonical table's baseline
  /// scenario -> label the canonical table normalises by (scenarios with the baseline only)
  std::map<std::string, std::string> baseline_labels;
  std::string window_policy;        ///< display name of the window table's policy
  std::string window_axis;          ///< axis of the window table's x (Labels::OptionAxis)
  std::vector<AnalysedTask> tasks;  ///< in file order, then task index
  std::vector<AnalysisRow> rows;    ///< the tables: canonical, scale, window, rho_cdf, reference
  std::vector<RhoValues> rho;       ///< sorted by scenario, label
  std::vector<ReferenceRun> reference;           ///< with reference_dir
  std::vector<std::string> reference_scenarios;  ///< scenarios of the reference configuration
};

/// Reads the files together (labels and tables span them all). Throws StoreError for an
/// unreadable file, or one that does not match its checksum file `<path>.sha256` (written by
/// sweeps and `adaptsim merge`); InputError for a bad reference folder.
Analysis AnalyseResults(const std::vector<std::string>& paths, const AnalysisOptions& options);

/// Prints the tables as "text" (aligned), "markdown" or "csv" (long format: table, scenario,
/// policy, x, metric, stat, value; values with 17 significant digits), or everything as "json"
/// (the members of Analysis; NaN as null; docs/analysis.md).
void PrintAnalysis(const Analysis& analysis, const std::string& format, std::FILE* out);

}  // namespace adaptsim
