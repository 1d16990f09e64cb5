// The numbers behind the paper-style figures (analysis/figures.py computes the same ones in
// Python; the figures test compares both). Only tasks with status "ok" count. No MPI here.
//
// Definitions (shared with analysis/figures.py, keep in sync; names and labels from
// analysis/labels.toml, include/adaptsim/labels.hpp):
//   scenario = "<num_jobs> jobs · <num_gpus> GPUs" (ScenarioLabel), with " · " and the first 12
//              characters of the trace file stem appended when two traces share that label
//   label    = display name of the policy (PolicyDisplayName), plus " (" the options whose value
//              differs between that policy's tasks of one trace and cluster size (OptionLabel,
//              sorted by name) ")"
//   canonical: per scenario and label, mean over tasks (seeds) of each metric ("mean") and the
//              mean divided by the baseline's mean in the same scenario ("normalised"; NaN when
//              the baseline is absent or 0). Baseline: the baseline policy's label without
//              options, else its first label (sorted).
//   scale:     per label and num_gpus, mean over tasks.
//   window:    tasks of policy P with numeric option O (param "P.O"), grouped by panel row
//              (scenario + the labels of P's other varied options except `window_spread`) and
//              value of O (future_rounds: in minutes, x round length / 60): mean, std (ddof 1,
//              0 for one task), min, max and n over tasks (seeds and spread values).
//   rho_cdf:   per scenario and label, the finite per-job ftf_rho pooled over tasks: p50, p90,
//              p99 (linear interpolation, numpy's default), max, mean, n.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace adaptsim {

/// The metrics of the canonical/scale/window tables (SummaryMetrics names).
inline const std::vector<std::string>& FigureMetrics() {
  static const std::vector<std::string> kMetrics = {"makespan_s", "mean_jct_s", "worst_ftf_rho",
                                                    "unfair_fraction_1_05"};
  return kMetrics;
}

/// One number: (table, scenario, policy label, x, metric, stat) -> value.
struct AnalysisRow {
  std::string table;
  std::string scenario;
  std::string policy;
  std::string x;
  std::string metric;
  std::string stat;
  double value = 0;
};

struct AnalysisOptions {
  std::string baseline = "shockwave";                    ///< policy to normalise by
  std::string fallback_baseline = "";                    ///< used when `baseline` is absent
  std::string window_param = "shockwave.future_rounds";  ///< "<policy>.<option>"
  std::string window_spread = "k";  ///< option of the window policy pooled into the spread
};

/// All rows of the four tables, sorted. Throws StoreError for an unreadable file, or one that
/// does not match its checksum file `<path>.sha256` (written by sweeps and `adaptsim merge`).
std::vector<AnalysisRow> AnalyseResults(const std::string& path, const AnalysisOptions& options);

/// Prints `rows` as "text" (aligned), "markdown" or "csv" (long format: table, scenario,
/// policy, x, metric, stat, value; values with 17 significant digits).
void PrintAnalysis(const std::vector<AnalysisRow>& rows, const std::string& format, std::FILE* out);

}  // namespace adaptsim
