// Metrics of a finished simulation (docs/mechanism.md §10; `scheduler.py:2779-3107`,
// `scheduler/reproduce/aggregate_result.py`).
#pragma once

#include <map>
#include <string>
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

/// Sia's type-weighted finish-time fairness (Sia, SOSP'23 §3 Eq. 3: ρ_j = Σ_g P(g) · JCT_j /
/// T_g,j with P(g) = N_g / N) for the round engine: ρ_j = round(Σ_{g∈R_j} C_g ρ_j,g / Σ_{g∈R_j}
/// C_g, 5), ρ_j,g = JCT_j / (T_excl,j,g · max(1, N_trace / G)), where T_excl,j,g is the job's
/// exclusive time on type g (ExclusiveTimeOn; `exclusive_time_by_type_s[g]`, worker-id order as
/// `gpu_types`) and R_j the types it can run on (T_excl > 0; weights renormalised over them). On a
/// cluster of the reference type alone it is the static ρ. Unlike Sia's own code
/// (`siasosp23/artifacts@aaf7a0d:sia-simulator/ftf_simulator.py:559-570`, which averages T weighted
/// by N_g and divides JCT by that), the paper's form weights ρ (docs/mechanism.md §12.9). 0 when
/// the job can run on no type.
double TypeWeightedFtfRho(double jct_s, const std::vector<double>& exclusive_time_by_type_s,
                          const std::vector<GpuTypeResult>& gpu_types, int num_trace_jobs,
                          int num_gpus);

/// Sia's type-weighted ρ from isolated times (docs/sia.md §12): with T_g =
/// `isolated_time_by_type_s[g]` (the job alone on type g with its fair share, so no contention
/// factor) and N_g = `type_gpus[g]`, over the types with T_g > 0 (the weights renormalised over
/// them, as the artifact drops a type whose T is 0, `S:sia-simulator/ftf_simulator.py:565-567`):
/// the paper's Eq. 3 (SOSP'23 §3), ρ_j = Σ_g N_g · JCT_j / T_g / Σ_g N_g, or, with
/// `combine_times`, the artifact's code, ρ_j = JCT_j / (Σ_g N_g T_g / Σ_g N_g) (:559-570). On one
/// type both are JCT_j / T. Not rounded (the artifact's print_run_stats.py:230-236 is not).
/// 0 when no type has T_g > 0. Throws std::invalid_argument when the two lists differ in length.
double IsolatedFtfRho(double jct_s, const std::vector<double>& isolated_time_by_type_s,
                      const std::vector<int>& type_gpus, bool combine_times);

/// The ρ metrics of `rhos` (every departed job's static ρ) into `summary`: worst_ftf_rho = max ρ
/// (kept when larger already), mean_ftf_rho, and unfair_fraction_1_05 / _1_10 = the share of
/// jobs with ρ > 1.05 / 1.1 (`scheduler/reproduce/aggregate_result.py:24, 41-47`, docs/mechanism.md
/// §10). Nothing changes for an empty list. DeriveMetrics and the reference runs
/// (include/adaptsim/reference_runs.hpp) use this one definition.
void FillFairnessMetrics(const std::vector<double>& rhos, SummaryMetrics& summary);

/// Everything ComputeMetrics derives from a finished run: per-job ρ (trace order) and the summary.
struct RunMetrics {
  std::vector<double> ftf_rho;                ///< static ρ; 0 for a job that never left
  std::vector<double> ftf_rho_themis;         ///< Themis-style ρ; 0 when no stay was recorded
  std::vector<double> ftf_rho_type_weighted;  ///< TypeWeightedFtfRho; 0 for a job that never left
  std::vector<GpuTypeResult> gpu_types;       ///< SimulationResult::gpu_types, derived fields set
  SummaryMetrics summary;
};

/// All metrics of a finished run, derived only from the facts the engine recorded (per-job
/// records and stays, rounds, GPU busy times, lease counters, the stop time); `num_gpus` is G.
/// Makespan: the last departure max_j completion_j when every job left, else `end_time_s`
/// (docs/mechanism.md §10). Units: seconds; fractions in [0, 1]. Pure: no state, no I/O.
RunMetrics DeriveMetrics(const SimulationResult& result, int num_gpus);

/// Stores DeriveMetrics(result, num_gpus) into `result.jobs[*].ftf_rho`, `ftf_rho_themis`,
/// `ftf_rho_type_weighted`, `result.gpu_types` and `result.summary`. Called once per task
/// (RunTask), after the engine has run.
void ComputeMetrics(SimulationResult& result, int num_gpus);

/// The policy runtime statistics of a run (docs/sia.md §6, "Policy runtime") into `statistics`,
/// from `seconds`, the thread CPU time of each optimisation: `optimize_calls` (deterministic) and
/// the median, 95th percentile (Percentile), mean and largest time per call,
/// `optimize_cpu_time_{median,p95,mean,max}_s`. These are measurements, not results: they vary
/// from run to run, and a name holding "time" (or "wall") marks a statistic the rank-count and
/// determinism comparisons leave aside. Nothing is added for an empty list (an engine that does
/// not time its policy).
void AddOptimizeStatistics(const std::vector<double>& seconds,
                           std::map<std::string, double>& statistics);

/// Percentile with linear interpolation between order statistics (numpy's default); q in [0, 100].
double Percentile(std::vector<double> values, double q);

}  // namespace adaptsim
