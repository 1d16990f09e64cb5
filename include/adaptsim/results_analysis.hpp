// The numbers behind the paper-style figures (analysis/figures.py computes the same ones in
// Python; the figures test compares both). Only tasks with status "ok" count. No MPI here.
//
// Definitions (shared with analysis/figures.py, keep in sync):
//   scenario = "<trace file stem>|<num_gpus>|<round_duration_s %g>|<deadline_factor %g>"
//   label    = policy, or policy + policy_options JSON when the task has options
//   canonical: per scenario and label, mean over tasks (seeds) of each metric ("mean") and the
//              mean divided by the baseline's mean in the same scenario ("normalised"; NaN when
//              the baseline is absent or 0). Baseline: label == baseline policy, else the first
//              label (sorted) of that policy.
//   scale:     per label and num_gpus, mean over tasks.
//   window:    tasks of policy P with option O set (param "P.O"): per value of O, mean, std
//              (ddof 1, 0 for one task), min, max and n over tasks.
//   rho_cdf:   per label, the finite per-job ftf_rho pooled over tasks: p50, p90, p99 (linear
//              interpolation, numpy's default), max, mean, n.
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
};

/// All rows of the four tables, sorted. Throws StoreError for an unreadable file.
std::vector<AnalysisRow> AnalyseResults(const std::string& path, const AnalysisOptions& options);

/// Prints `rows` as "text" (aligned), "markdown" or "csv" (long format: table, scenario,
/// policy, x, metric, stat, value; values with 17 significant digits).
void PrintAnalysis(const std::vector<AnalysisRow>& rows, const std::string& format, std::FILE* out);

}  // namespace adaptsim
