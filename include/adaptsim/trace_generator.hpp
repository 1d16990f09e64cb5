// Synthetic Shockwave-style traces (docs/mechanism.md §1.4;
// `scheduler/scripts/utils/generate_trace.py: 350-569` and `utils.generate_job`,
// `scheduler/utils.py:118-275`), drawn from counter-based Random123 Philox4x32-10 streams so that
// the same options give a byte-identical trace on any machine, independent of job count, thread
// count or platform RNG.
//
// Per job i (all draws are functions of (seed, stream, i, draw) only):
//   template    uniform over the (model, trace batch size) pairs, models in catalogue order
//   scale factor r ≤ m0 → 1, ≤ m0+m1 → 2, ≤ m0+m1+m2 → 4, else 8 (non-distributed models: 1)
//   duration    bucket of the n-point linspace grid [min_h, max_h] hours with the mix's
//               probabilities over small = grid[0:round(.2n)], medium = [round(.2n):round(.5n)],
//               large = [round(.5n):round(.9n)], xl = [round(.9n):] (round half to even), then a
//               uniform grid point; duration_s = round_half_even(3600 · hours)
//   mode        r < p0 → static, < p0+p1 → accordion, else gns; accordion with duration below
//               `accordion_min_duration_s` (1000 s, utils.py:214-216) becomes static
//   total steps int(duration_s · thr(model, batch size, scale factor)), iterations
//   arrival     0 for job 0, then previous + (−ln(1−U) · lam_s) kept in double, written truncated
// Not a bit-exact replay of the reference (which uses CPython MT19937 and numpy's legacy
// RandomState, docs/mechanism.md §1.4): the distributions are the same, the streams are not.
// Cross-machine identity assumes IEEE-754 doubles and the same libm log(); a last-ulp difference
// could only matter when a value lands exactly on an integer before truncation.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "adaptsim/workload.hpp"

namespace adaptsim {

/// Duration-bucket mixes: P(small), P(medium), P(large), P(xl).
inline constexpr std::array<double, 4> kShockwaveDurationMix = {0.72, 0.20, 0.05, 0.03};
/// The generator docstring's "Pollux: 72% small, 20% medium, 6% large, 2% extra large"
/// (generate_trace.py:371-400; docs/mechanism.md §1.4).
inline constexpr std::array<double, 4> kPolluxDurationMix = {0.72, 0.20, 0.06, 0.02};

struct TraceGeneratorOptions {
  int num_jobs = 120;           ///< jobs to draw, ≥ 1
  double lam_s = 40.0;          ///< mean inter-arrival time, seconds, > 0 (`-l`)
  std::uint64_t seed = 0;       ///< keys every stream
  double min_duration_h = 0.2;  ///< grid start, hours, > 0 (`-a`)
  double max_duration_h = 5.0;  ///< grid end, hours, ≥ min (`-b`)
  int num_durations = 100;      ///< grid points, ≥ 1 (`-n`); every bucket with P > 0 non-empty
  std::array<double, 4> duration_mix = kShockwaveDurationMix;       ///< sums to 1
  std::array<double, 3> mode_mix = {0.0, 0.5, 0.5};                 ///< static, accordion, gns
  std::array<double, 4> scale_factor_mix = {0.6, 0.3, 0.09, 0.01};  ///< sf = 1, 2, 4, 8
  double accordion_min_duration_s = 1000.0;  ///< shorter accordion jobs become static, ≥ 0

  /// Throws InputError(file="generator options", field=...) for out-of-range values, a mix that
  /// is negative or does not sum to 1 (±1e-9), or a grid too small for the duration mix.
  void Validate() const;
};

/// The duration grid in hours: numpy.linspace(min, max, n) (y_i = min + i·step, last = max).
std::vector<double> DurationGridHours(const TraceGeneratorOptions& options);
/// Bucket boundaries in grid indices: {0, round(.2n), round(.5n), round(.9n), n}.
std::array<int, 5> DurationBucketBounds(int num_durations);

/// Draws `options.num_jobs` jobs from `models` (each model's trace_batch_sizes are its templates)
/// with total steps from `throughputs`. Throws InputError when options are invalid, `models` has
/// no template, or a drawn (model, batch size, scale factor) has no positive throughput.
Trace GenerateTrace(const TraceGeneratorOptions& options, const std::vector<ModelInfo>& models,
                    const ThroughputSource& throughputs);

/// One Philox4x32-10 stream: key = (low 32 bits of seed, stream), counter = (index low, index
/// high, draw, high 32 bits of seed). Thread-safe (stateless).
class PhiloxStream {
 public:
  PhiloxStream(std::uint64_t seed, std::uint32_t stream);
  /// Uniform double in [0, 1) with 53 random bits for draw `draw` of item `index`.
  double Uniform(std::uint64_t index, std::uint32_t draw = 0) const;

 private:
  std::uint32_t seed_low_, seed_high_, stream_;
};

/// (a >> 5) · 2^26 + (b >> 6), divided by 2^53: the 53-bit construction of CPython's random().
double UniformFromWords(std::uint32_t a, std::uint32_t b);
/// −ln(1 − u) · mean for u in [0, 1): exponential with the given mean (generate_trace.py:350-351).
double ExponentialFromUniform(double u, double mean);
/// floor(u · n) clamped to [0, n − 1], for u in [0, 1) and n ≥ 1.
int IndexFromUniform(double u, int n);

}  // namespace adaptsim
