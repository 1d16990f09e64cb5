// Pollux's system-throughput model (Qiao et al., "Pollux: Co-adaptive Cluster Scheduling for
// Goodput-Optimized Deep Learning", OSDI'21, §3.1 "Modeling system throughput"), exactly as the
// artifact implements it: docs/pollux.md §1.1-1.2, `petuum/adaptdl@c793c70 (osdi21-artifact)
// simulator/goodput.py:32-79, 232-257`.
//
// Symbols: N = nodes the job spans, K = replicas (GPUs), m = per-GPU atomic batch size (samples;
// real-valued here so that a table entry with global batch B on K GPUs maps to m = B/K), s = extra
// gradient-accumulation micro-steps (0 = none). Units: every alpha_* is seconds, every beta_* is
// seconds per sample (beta_c) or seconds per extra replica (beta_n, beta_r), gamma is
// dimensionless; times are seconds, throughput is samples per second.
//
//   T_grad(m)      = alpha_c + beta_c * m
//   T_sync(N,K)    = bottleneck + retro * max(K - 2, 1e-8),  (bottleneck, retro) =
//                    (alpha_n, beta_n) if N > 1; (alpha_r, beta_r) if K > 1; (1e-8, 1e-8) if K == 1
//   T_optim        = (T_grad^gamma + T_sync^gamma)^(1/gamma)   (evaluated in log space)
//   T_iter         = s * T_grad + T_optim
//   throughput     = K * m * (s + 1) / T_iter
//
// The templated helpers are shared by the double-precision API and the Ceres residuals
// (throughput_fit.cpp) so that the fitted and the predicted model are one formula.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace adaptsim::models {

/// The 7 fitted parameters (`PerfParams`, goodput.py:32-50). Field order = kPerfParamNames.
struct PolluxPerfParams {
  double alpha_c = 0.1;  ///< s, constant compute time per micro-step
  double beta_c = 0.01;  ///< s/sample, compute time per sample of the atomic batch
  double alpha_n = 0.1;  ///< s, all-reduce constant when the job spans > 1 node
  double beta_n = 0.01;  ///< s/replica, inter-node retrogression per replica beyond 2
  double alpha_r = 0.1;  ///< s, all-reduce constant on a single node with K > 1
  double beta_r = 0.01;  ///< s/replica, intra-node retrogression per replica beyond 2
  double gamma = 1.001;  ///< overlap exponent in [1, 10] (1 = no overlap, 10 ~ max)

  std::array<double, 7> ToArray() const;
  static PolluxPerfParams FromArray(const std::array<double, 7>& values);
};

/// Parameter names in storage order: alpha_c, beta_c, alpha_n, beta_n, alpha_r, beta_r, gamma.
inline constexpr std::array<const char*, 7> kPerfParamNames = {
    "alpha_c", "beta_c", "alpha_n", "beta_n", "alpha_r", "beta_r", "gamma"};

/// The artifact's floor for times and parameters (goodput.py:169-172, 252-256).
inline constexpr double kPolluxEpsilon = 1e-8;

/// Which (bottleneck, retrogression) pair a placement uses (goodput.py:243-251).
enum class SyncRegime { kNone, kIntraNode, kInterNode };
inline SyncRegime SyncRegimeOf(int num_nodes, int num_replicas) {
  if (num_nodes > 1) return SyncRegime::kInterNode;
  if (num_replicas > 1) return SyncRegime::kIntraNode;
  return SyncRegime::kNone;
}

/// T_grad(m) = alpha_c + beta_c * m, seconds.
template <typename T>
T GradTimeT(const T& alpha_c, const T& beta_c, double atomic_bsz) {
  return alpha_c + beta_c * atomic_bsz;
}

/// T_sync = bottleneck + retro * max(K - 2, 1e-8), seconds; `bottleneck`/`retro` are the pair
/// selected by SyncRegimeOf (pass kPolluxEpsilon for both when K == 1).
template <typename T>
T SyncTimeT(const T& bottleneck, const T& retro, int num_replicas) {
  return bottleneck + retro * std::max(static_cast<double>(num_replicas) - 2.0, kPolluxEpsilon);
}

/// log T_optim = log(T_grad^gamma + T_sync^gamma) / gamma, computed as a log-sum-exp so that
/// gamma up to 10 cannot overflow (goodput.py:238-240).
template <typename T>
T LogOptimTimeT(const T& grad_time, const T& sync_time, const T& gamma) {
  using std::exp;
  using std::log;
  T a = gamma * log(grad_time);
  T b = gamma * log(sync_time);
  T hi = a > b ? a : b;
  T lo = a > b ? b : a;
  return (hi + log(T(1.0) + exp(lo - hi))) / gamma;
}

/// T_grad(m), seconds.
double GradTime(const PolluxPerfParams& p, double atomic_bsz);
/// T_sync(N, K), seconds (≈ 1e-8 for K == 1).
double SyncTime(const PolluxPerfParams& p, int num_nodes, int num_replicas);
/// T_optim(N, K, m), seconds: one optimizer micro-step including the all-reduce.
double OptimTime(const PolluxPerfParams& p, int num_nodes, int num_replicas, double atomic_bsz);
/// T_iter = s * T_grad + T_optim, seconds per optimizer step (goodput.py:71-77).
double IterationTime(const PolluxPerfParams& p, int num_nodes, int num_replicas, double atomic_bsz,
                     int accum_steps);
/// K * m * (s + 1) / T_iter, samples per second (goodput.py:79).
double ThroughputSamplesPerS(const PolluxPerfParams& p, int num_nodes, int num_replicas,
                             double atomic_bsz, int accum_steps);

/// "alpha_c=… beta_c=… …" for logs and error messages.
std::string Describe(const PolluxPerfParams& p);

}  // namespace adaptsim::models
