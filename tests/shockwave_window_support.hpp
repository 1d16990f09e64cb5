// Helpers of the Shockwave window tests (test_shockwave_window.cpp, test_shockwave_mixed_gpus.cpp):
// reproducible uniform numbers, an empty window problem with the shipped log bases, the random
// job of the cross-checks against CBC, and the comparison of a structured objective with CBC's.
#pragma once

#include <Random123/philox.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>

#include <gtest/gtest.h>

#include "adaptsim/milp_problem.hpp"

#include "policies/shockwave/window_structured.hpp"

namespace adaptsim::testing {

/// Philox-based uniform numbers in [0, 1) (fixed key: reproducible everywhere).
class Uniform {
 public:
  explicit Uniform(std::uint32_t seed) : key_{{seed, 0x5f3759dfu}} {}
  double Next() {
    if (index_ == 4) {
      block_ = r123::Philox4x32()(counter_, key_);
      ++counter_[0];
      index_ = 0;
    }
    return block_[index_++] * (1.0 / 4294967296.0);
  }
  /// Uniform integer in [lo, hi].
  int Int(int lo, int hi) { return lo + static_cast<int>(Next() * (hi - lo + 1)); }

 private:
  r123::Philox4x32::ctr_type counter_{{0, 0, 0, 0}};
  r123::Philox4x32::key_type key_;
  r123::Philox4x32::ctr_type block_{};
  int index_ = 4;
};

/// G GPUs, T rounds of 120 s, weight k, bases 0, 0.2, ..., 1 with ln(1e-6) for 0; no jobs.
inline WindowProblem WindowProblemBase(int G, int T, double k) {
  WindowProblem p;
  p.num_gpus = G;
  p.num_rounds = T;
  p.round_s = 120.0;
  p.k = k;
  p.bases = {0.0, 0.2, 0.4, 0.6, 0.8, 1.0};
  for (double b : p.bases) p.log_values.push_back(std::log(b == 0.0 ? 1e-6 : b));
  return p;
}

/// A job of the cross-checks against CBC in a window of T rounds: a gang drawn from `sizes` until
/// it is at most `largest` GPUs, 2-200 epochs with some completed (as in a re-solve), a mean epoch
/// of 5-305 s, a forecast 0.6-1.4x the remaining work, weight (1 + U)^5 with probability 0.15, and
/// with probability 0.3 a finish-time cap of up to 0.8 T rounds below the forecast.
inline WindowJob RandomWindowJob(Uniform& u, int T, std::span<const int> sizes, int largest) {
  WindowJob job;
  const int last = static_cast<int>(sizes.size()) - 1;
  do job.gpus = sizes[u.Int(0, last)];
  while (job.gpus > largest);
  job.epochs = u.Int(2, 200);
  job.progress = std::floor(u.Next() * job.epochs);
  job.mean_epoch_s = 5.0 + u.Next() * 300.0;
  job.remaining_s = (job.epochs - job.progress) * job.mean_epoch_s * (0.6 + 0.8 * u.Next());
  job.weight = u.Next() < 0.15 ? std::pow(1.0 + u.Next(), 5.0) : 1.0;
  if (u.Next() < 0.3) job.max_shortfall_s = job.remaining_s - 120.0 * T * u.Next() * 0.8;
  return job;
}

/// CBC with the relative gap (1e-6) and node limit (2e5) of the cross-checks.
inline MilpOptions CrossCheckCbcOptions() {
  MilpOptions options;
  options.relative_gap = 1e-6;
  options.max_nodes = 200000;
  return options;
}

/// The structured solver's objective against CBC's on one instance after another: each must be
/// within 1e-3 relative of CBC's (EXPECT), and is counted when it beats CBC beyond that.
struct CbcComparison {
  int feasible = 0;
  int structured_better = 0;
  double worst_relative_shortfall = 0.0;

  void Add(int instance, double structured, double cbc) {
    ++feasible;
    const double tolerance = 1e-3 * std::abs(cbc) + 1e-9;
    const double shortfall = cbc - structured;
    worst_relative_shortfall =
        std::max(worst_relative_shortfall, shortfall / std::max(1e-12, std::abs(cbc)));
    EXPECT_LE(shortfall, tolerance)
        << "instance " << instance << ": structured " << structured << " CBC " << cbc;
    if (shortfall < -tolerance) ++structured_better;
  }
  /// Records the counts as test properties.
  void Record() const {
    ::testing::Test::RecordProperty("feasible_instances", feasible);
    ::testing::Test::RecordProperty("worst_relative_shortfall",
                                    std::to_string(worst_relative_shortfall));
  }
};

}  // namespace adaptsim::testing
