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

/// Fills `result.jobs[*].ftf_rho` and `result.summary` from the per-job and per-round records.
/// `num_gpus` is G. Units: seconds; fractions in [0, 1].
void ComputeMetrics(SimulationResult& result, int num_gpus);

/// Percentile with linear interpolation between order statistics (numpy's default); q in [0, 100].
double Percentile(std::vector<double> values, double q);

}  // namespace adaptsim
