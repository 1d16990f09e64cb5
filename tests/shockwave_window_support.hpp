// Helpers of the Shockwave window tests (test_shockwave_window.cpp, test_shockwave_mixed_gpus.cpp):
// reproducible uniform numbers and an empty window problem with the shipped log bases.
#pragma once

#include <Random123/philox.h>

#include <cmath>
#include <cstdint>

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

}  // namespace adaptsim::testing
