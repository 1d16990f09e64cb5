// Metrics of a finished simulation (docs/mechanism.md §10; `scheduler.py:2779-3107`,
// `scheduler/reproduce/aggregate_result.py`).
#pragma once

#include <vector>

#include "adaptsim/python_round.hpp"
#include "adaptsim/result.hpp"

namespace adaptsim {

/// Static finish-time fairness ρ_j = round(JCT_j / (T_excl_j · max(1, N_trace / G)), 5)
/// (`scheduler.py:2865-2922`). Rounding is half-to-even on the decimal value, as Python's round().
double StaticFtfRho(double jct_s, double exclusive_time_s, int num_trace_jobs, int num_gpus);

/// Themis-style finish-time fairness ρ_j = round(JCT_j / (T_excl_j · max(1, A_j / G)), 5), where
/// A_j is the mean of `rounds[r].active_jobs` over the job's stay r ∈ [admitted, departed) (1 when
/// the stay is empty) (`scheduler.py:2924-2940`).
double ThemisFtfRho(double jct_s, double exclusive_time_s, const JobStay& stay,
                    const std::vector<RoundResult>& rounds, int num_gpus);

/// The ρ metrics of `rhos` (every departed job's static ρ) into `summary`: worst_ftf_rho = max ρ
/// (kept when larger already), mean_ftf_rho, and unfair_fraction_1_05 / _1_10 = the share of
/// jobs with ρ > 1.05 / 1.1 (`scheduler/reproduce/aggregate_result.py:24, 41-47`, docs/mechanism.md
/// §10). Nothing changes for an empty list. DeriveMetrics and the reference runs
/// (include/adaptsim/reference_runs.hpp) use this one definition.
void FillFairnessMetrics(const std::vector<double>& rhos, SummaryMetrics& summary);

/// Everything ComputeMetrics derives from a finished run: per-job ρ (trace order) and the summary.
struct RunMetrics {
  std::vector<double> ftf_rho;         ///< static ρ; 0 for a job that never left
  std::vector<double> ftf_rho_themis;  ///< Themis-style ρ; 0 when no stay was recorded
  SummaryMetrics summary;
};

/// All metrics of a finished run, derived only from the facts the engine recorded (per-job
/// records and stays, rounds, GPU busy times, lease counters, the stop time); `num_gpus` is G.
/// Makespan: the last departure max_j completion_j when every job left, else `end_time_s`
/// (docs/mechanism.md §10). Units: seconds; fractions in [0, 1]. Pure: no state, no I/O.
RunMetrics DeriveMetrics(const SimulationResult& result, int num_gpus);

/// Stores DeriveMetrics(result, num_gpus) into `result.jobs[*].ftf_rho`, `ftf_rho_themis` and
/// `result.summary`. Called once per task (RunTask), after the engine has run.
void ComputeMetrics(SimulationResult& result, int num_gpus);

/// Percentile with linear interpolation between order statistics (numpy's default); q in [0, 100].
double Percentile(std::vector<double> values, double q);

}  // namespace adaptsim
