// Fitting Pollux's throughput model to measured step times with Ceres Solver (docs/pollux.md
// §1.4-1.6; the objective is `fit_perf_params`, `petuum/adaptdl@c793c70 (osdi21-artifact)
// simulator/goodput.py:148-229`).
//
// Objective (what "fit quality" means everywhere in adaptsim):
//   F(θ) = RMSLE_accum + RMSLE_optim + 1e-3 (γ - 1)^2 + 1e-2 ((β_n/α_n)^2 + (β_r/α_r)^2)
// with RMSLE_accum = sqrt(mean_i (log T_grad(m_i) - log t_accum_i)^2) over the samples that have an
// accumulation time, RMSLE_optim likewise for log T_optim(N_i, K_i, m_i) against t_optim_i.
//
// Method (docs/pollux.md §1.6, made exact): 7 scalar parameter blocks with bounds α/β ≥ 1e-8
// and γ ∈ [1, 10], and one scale block t_k per series. Ceres (Levenberg-Marquardt, DENSE_QR)
// minimises the bounded nonlinear least-squares problem
//   G(θ, t) = Σ_k [ Σ_i e_ki(θ)² / (2 n_k t_k) + t_k / 2 ] + ½ Σ (regulariser residuals)²,
// residuals e_ki/sqrt(n_k t_k), sqrt(t_k), sqrt(2e-3)(γ-1), sqrt(2e-2) β/α. Because
// min_t MSE/(2t) + t/2 = sqrt(MSE), min G = min F: the IRLS weights w_k = 1/t_k are optimised
// jointly instead of only between solves. The outer reweighting loop restarts t_k = RMSLE_k(θ)
// before each solve and stops when the RMSLEs (or F) no longer change; typically 2-4 passes.
// Parameters pinned by the artifact's thin-data rules (goodput.py:173-192) are frozen with
// SetParameterBlockConstant, never by tight bounds; free parameters that end a pass on a bound with
// the gradient pointing outward are frozen for the next pass (an active set; Ceres's projected
// steps otherwise crawl along an active bound) and released when the gradient turns inward.
// After the fit, without multi-node samples, α_n ≥ 1.1 α_r and β_n ≥ 1.1 β_r (goodput.py:201-204).
// Deterministic: single-threaded Ceres, iteration limits only (no wall-clock limits).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/pollux_throughput.hpp"

namespace adaptsim::models {

/// One measured configuration (docs/pollux.md §1.3). Times are seconds per step.
struct ThroughputSample {
  int num_nodes = 1;      ///< N ≥ 1
  int num_replicas = 1;   ///< K ≥ N
  double atomic_bsz = 0;  ///< m > 0, samples per GPU per micro-step
  /// Compute-only step time (step − sync); absent when only whole steps were measured (a
  /// Shockwave/Gavel throughput table), in which case the sample enters only RMSLE_optim.
  std::optional<double> accum_step_time_s;
  double optim_step_time_s = 0;  ///< full optimizer step time, > 0
};

/// Knobs of the fit. Defaults reproduce docs/pollux.md §1.6.
struct FitOptions {
  int max_outer_iterations = 50;   ///< reweighting passes (cap; 2-4 are typical)
  double weight_tolerance = 1e-8;  ///< stop when every RMSLE_k changes by less (relative)
  int max_inner_iterations = 200;  ///< Ceres iterations per solve
  /// Start point θ0; the artifact restarts from (0.1, 0.01, 0.1, 0.01, 0.1, 0.01, 1.001).
  PolluxPerfParams initial = {};
  /// Throws InputError(field=...) when a value is out of range.
  void Validate() const;
};

/// Output of FitPerfParams.
struct FitSummary {
  PolluxPerfParams params;  ///< post-prior parameters
  double objective = 0;     ///< F(params)
  double rmsle_accum = 0;   ///< 0 when no sample has an accumulation time
  double rmsle_optim = 0;
  int outer_iterations = 0;         ///< reweighting rounds run
  bool converged = false;           ///< weights settled before max_outer_iterations
  std::array<bool, 7> frozen = {};  ///< per kPerfParamNames: pinned by a thin-data rule
};

/// Fits the 7 parameters. Throws InputError(file=context) when there is no sample or a sample is
/// invalid (N < 1, K < N, m ≤ 0, non-positive or non-finite times).
FitSummary FitPerfParams(const std::vector<ThroughputSample>& samples,
                         const FitOptions& options = {}, const std::string& context = "samples");

/// F(θ) of the header comment on `samples` (the quantity reported as fit quality).
double FitObjective(const PolluxPerfParams& params, const std::vector<ThroughputSample>& samples);

/// Which parameters the artifact pins for these samples, and to what (goodput.py:173-192):
/// one distinct m ⇒ α_c = mean(t_accum)/2 (mean(t_optim)/2 when no accumulation time exists);
/// no N > 1 ⇒ α_n = β_n = 1e-8; no (N == 1, K > 1) ⇒ α_r = β_r = 1e-8; no K > 2 ⇒ β_n = β_r = 1e-8.
std::array<std::optional<double>, 7> PinnedParameters(const std::vector<ThroughputSample>& samples);

}  // namespace adaptsim::models
