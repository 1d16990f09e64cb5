// Pollux's job-level goodput model (Qiao et al., OSDI'21, §3.1-3.2; docs/pollux.md §2): statistical
// efficiency from the pre-conditioned gradient noise scale, goodput = throughput × efficiency, the
// per-job batch-size/accumulation choice on a 50-point geometric grid, and the speedup function
// the cluster policy optimizes. Exactly the artifact's `A:simulator/goodput.py:55-145` and
// `A:simulator/speedup.py:18-70` (not AdaptDL master, which differs, docs/pollux.md §2.3).
//
//   scale = M / M0,  gain = (var + sqr) / (var/scale + sqr)  (1 when the denominator is ≤ 0)
//   EFFICIENCY(M) = gain / scale = (φ + M0) / (φ + M),  φ = M0·var/sqr      (goodput.py:81-89)
//   GOODPUT(N, K, m, s) = THROUGHPUT(N, K, m, s) · EFFICIENCY(K·m·(s+1))    (goodput.py:65-69)
// Units: batch sizes in samples, throughput and goodput in samples per second.
#pragma once

#include <array>
#include <vector>

#include "adaptsim/pollux_throughput.hpp"

namespace adaptsim::models {

/// Gradient statistics (GradParams, goodput.py:52); var normalised to M0. The scheduler's default
/// before a job reports any is (sqr 0, var 1), i.e. efficiency 1 (docs/pollux.md §1.5).
struct PolluxGradParams {
  double sqr = 0.0;
  double var = 1.0;
};

/// Result of an optimization over batch configurations.
struct GoodputChoice {
  double goodput = 0.0;  ///< samples/s; 0 when no candidate is valid
  int atomic_bsz = 0;    ///< m
  int accum_steps = 0;   ///< s
};

/// Bounds of the batch-size search (A:simulator/simulator.py:56-62).
struct BatchBounds {
  int max_batch_size = 0;  ///< largest total batch M (≥ M0)
  int min_atomic_bsz = 1;  ///< smallest m
  int max_atomic_bsz = 0;  ///< largest m
};

/// numpy.geomspace(start, stop, num): 10^(i·step + log10 start), endpoints exact.
std::vector<double> GeomSpace(double start, double stop, int num);

class GoodputFunction {
 public:
  GoodputFunction(const PolluxPerfParams& perf, const PolluxGradParams& grad, int init_batch_size)
      : perf_(perf), grad_(grad), init_batch_size_(init_batch_size) {}

  /// gain(M): scale-invariant iterations per optimizer step at total batch M.
  double Gain(double batch_size) const;
  /// gain(M) / scale, in (0, 1] for M ≥ M0.
  double Efficiency(double batch_size) const {
    return Gain(batch_size) * init_batch_size_ / batch_size;
  }
  /// Predicted samples/s (pollux_throughput.hpp).
  double Throughput(int num_nodes, int num_replicas, int atomic_bsz, int accum_steps) const;
  /// Throughput × Efficiency.
  double Evaluate(int num_nodes, int num_replicas, int atomic_bsz, int accum_steps) const;
  /// The artifact's optimize (goodput.py:91-145): 50 geometric candidates of M in
  /// [max(M0, min_m·K), max_batch_size]; with accumulation s = ceil(M/K/max_m − 1e-8) − 1 (at least
  /// 1 when K == 1 and M/K > M0), m = ceil(M/K/(s+1) − 1e-8); candidates with m outside [min_m,
  /// max_m] score 0; the first maximum wins. Requires 1 ≤ N ≤ K.
  GoodputChoice Optimize(int num_nodes, int num_replicas, const BatchBounds& bounds,
                         bool accumulation) const;
  int init_batch_size() const { return init_batch_size_; }

 private:
  PolluxPerfParams perf_;
  PolluxGradParams grad_;
  int init_batch_size_;
};

/// SPEEDUP(N, K) = max goodput at (N, K) / base goodput (speedup.py:18-70); base = the optimum at
/// (1, 1) until Rebase() moves it to the fair share (docs/pollux.md §3.2). Memoised in a 32×32
/// table for K < 32, as the artifact. speedup(0, 0) = 0.
class SpeedupFunction {
 public:
  SpeedupFunction(const GoodputFunction& goodput, const BatchBounds& bounds, bool accumulation);
  /// Base goodput := optimum at (num_nodes, num_replicas); clears the memo.
  void Rebase(int num_nodes, int num_replicas);
  /// Requires 0 ≤ N ≤ K and (N > 0) == (K > 0).
  double operator()(int num_nodes, int num_replicas);
  double base_goodput() const { return base_goodput_; }

 private:
  static constexpr int kMemoSize = 32;
  GoodputFunction goodput_;
  BatchBounds bounds_;
  bool accumulation_;
  double base_goodput_ = 0.0;
  std::array<std::array<double, kMemoSize>, kMemoSize> memo_{};
};

/// The rigid batch rule for a fixed target total batch size (A:simulator/simulator.py:76-81):
/// local = ceil(M/K − 1e-8), s = ceil(local/max_m − 1e-8) − 1 (at least 1 when K == 1 and
/// M > M0), m = ceil(local/(s+1) − 1e-8). goodput is left 0.
GoodputChoice FixedBatch(int target_batch_size, int num_replicas, int init_batch_size,
                         int max_atomic_bsz);

}  // namespace adaptsim::models
