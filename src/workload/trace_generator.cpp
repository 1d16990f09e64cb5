// Trace generator (trace_generator.hpp; docs/mechanism.md §1.4).
#include "adaptsim/trace_generator.hpp"

#include <cmath>
#include <numeric>
#include <string>

#include <Random123/philox.h>

#include "adaptsim/error.hpp"
#include "adaptsim/job.hpp"

namespace adaptsim {
namespace {

const char kContext[] = "generator options";
constexpr double kMixTolerance = 1e-9;
constexpr std::array<int, 4> kScaleFactors = {1, 2, 4, 8};

// Streams: one per random decision, so that decisions never shift each other.
enum Stream : std::uint32_t {
  kTemplateStream = 0,
  kScaleFactorStream = 1,
  kDurationStream = 2,  // draw 0: bucket, draw 1: grid point
  kModeStream = 3,
  kInterarrivalStream = 4,
};

template <std::size_t N>
void ValidateMix(const std::array<double, N>& mix, const char* field) {
  double sum = 0;
  for (double p : mix) {
    if (!(p >= 0 && p <= 1))
      throw InputError(kContext, 0, field, "probabilities must be in [0, 1]");
    sum += p;
  }
  if (std::abs(sum - 1.0) > kMixTolerance) {
    throw InputError(kContext, 0, field, "probabilities must sum to 1, got " + std::to_string(sum));
  }
}

struct Template {
  const ModelInfo* model;
  int batch_size;
};

std::vector<Template> Templates(const std::vector<ModelInfo>& models) {
  std::vector<Template> templates;
  for (const ModelInfo& model : models) {
    for (int batch_size : model.trace_batch_sizes) templates.push_back({&model, batch_size});
  }
  if (templates.empty()) {
    throw InputError(kContext, 0, "models", "no model with trace batch sizes to draw from");
  }
  return templates;
}

// The first category with r ≤ cumulative probability (generate_trace.py:406-418); rounding
// leftovers go to the last category with a positive probability.
int ChooseCumulative(double r, const double* probabilities, int n) {
  double cumulative = 0;
  int last = 0;
  for (int i = 0; i < n; ++i) {
    if (probabilities[i] <= 0) continue;
    cumulative += probabilities[i];
    last = i;
    if (r <= cumulative) return i;
  }
  return last;
}

int DrawScaleFactor(const TraceGeneratorOptions& o, const ModelInfo& model, std::uint64_t i,
                    const PhiloxStream& stream) {
  if (!model.distributed) return 1;
  return kScaleFactors[ChooseCumulative(stream.Uniform(i), o.scale_factor_mix.data(), 4)];
}

std::int64_t DrawDurationS(const TraceGeneratorOptions& o, const std::vector<double>& grid,
                           std::uint64_t i, const PhiloxStream& stream) {
  std::array<int, 5> bounds = DurationBucketBounds(o.num_durations);
  int bucket = ChooseCumulative(stream.Uniform(i, 0), o.duration_mix.data(), 4);
  int size = bounds[bucket + 1] - bounds[bucket];
  double hours = grid[bounds[bucket] + IndexFromUniform(stream.Uniform(i, 1), size)];
  return static_cast<std::int64_t>(std::nearbyint(3600.0 * hours));  // round half to even
}

AdaptationMode DrawMode(const TraceGeneratorOptions& o, std::int64_t duration_s, std::uint64_t i,
                        const PhiloxStream& stream) {
  double r = stream.Uniform(i);
  AdaptationMode mode = r < o.mode_mix[0]                   ? AdaptationMode::kStatic
                        : r < o.mode_mix[0] + o.mode_mix[1] ? AdaptationMode::kAccordion
                                                            : AdaptationMode::kGns;
  if (mode == AdaptationMode::kAccordion && duration_s < o.accordion_min_duration_s) {
    mode = AdaptationMode::kStatic;
  }
  return mode;
}

std::int64_t TotalSteps(const ThroughputSource& throughputs, const JobSpec& job) {
  std::optional<double> thr =
      throughputs.ThroughputStepsPerS(job.model, job.initial_batch_size, job.scale_factor);
  std::string what = "('" + JobTypeName(job.model, job.initial_batch_size) + "', " +
                     std::to_string(job.scale_factor) + ")";
  if (!thr) throw InputError(throughputs.Describe(), 0, what, "no throughput for this job type");
  std::int64_t steps = static_cast<std::int64_t>(static_cast<double>(job.trace_duration_s) * *thr);
  if (!(*thr > 0) || steps <= 0) {
    throw InputError(throughputs.Describe(), 0, what,
                     "throughput must be positive (gives " + std::to_string(steps) + " steps)");
  }
  return steps;
}

}  // namespace

void TraceGeneratorOptions::Validate() const {
  if (num_jobs < 1) throw InputError(kContext, 0, "num_jobs", "must be >= 1");
  if (!(lam_s > 0 && std::isfinite(lam_s))) throw InputError(kContext, 0, "lam", "must be > 0");
  if (!(min_duration_h > 0 && std::isfinite(min_duration_h))) {
    throw InputError(kContext, 0, "min_duration_h", "must be > 0");
  }
  if (!(max_duration_h >= min_duration_h && std::isfinite(max_duration_h))) {
    throw InputError(kContext, 0, "max_duration_h", "must be >= min_duration_h");
  }
  if (num_durations < 1) throw InputError(kContext, 0, "num_durations", "must be >= 1");
  if (!(accordion_min_duration_s >= 0)) {
    throw InputError(kContext, 0, "accordion_min_duration_s", "must be >= 0");
  }
  ValidateMix(duration_mix, "duration_mix");
  ValidateMix(mode_mix, "mode_mix");
  ValidateMix(scale_factor_mix, "scale_factor_mix");
  std::array<int, 5> bounds = DurationBucketBounds(num_durations);
  for (int b = 0; b < 4; ++b) {
    if (duration_mix[b] > 0 && bounds[b + 1] == bounds[b]) {
      throw InputError(kContext, 0, "num_durations",
                       "grid of " + std::to_string(num_durations) +
                           " points leaves duration bucket " + std::to_string(b) +
                           " empty but the duration mix gives it probability > 0");
    }
  }
}

std::vector<double> DurationGridHours(const TraceGeneratorOptions& o) {
  std::vector<double> grid(o.num_durations, o.min_duration_h);
  if (o.num_durations == 1) return grid;
  double step = (o.max_duration_h - o.min_duration_h) / (o.num_durations - 1);
  for (int i = 0; i < o.num_durations; ++i) grid[i] = i * step + o.min_duration_h;
  grid.back() = o.max_duration_h;
  return grid;
}

std::array<int, 5> DurationBucketBounds(int n) {
  auto at = [n](double fraction) { return static_cast<int>(std::nearbyint(fraction * n)); };
  return {0, at(0.2), at(0.5), at(0.9), n};
}

Trace GenerateTrace(const TraceGeneratorOptions& o, const std::vector<ModelInfo>& models,
                    const ThroughputSource& throughputs) {
  o.Validate();
  std::vector<Template> templates = Templates(models);
  std::vector<double> grid = DurationGridHours(o);
  const PhiloxStream template_rng(o.seed, kTemplateStream), sf_rng(o.seed, kScaleFactorStream),
      duration_rng(o.seed, kDurationStream), mode_rng(o.seed, kModeStream),
      arrival_rng(o.seed, kInterarrivalStream);
  Trace trace;
  double arrival_s = 0;
  for (int i = 0; i < o.num_jobs; ++i) {
    const Template& t = templates[IndexFromUniform(template_rng.Uniform(i), templates.size())];
    JobSpec job;
    job.id = i;
    job.model = t.model->name;
    job.initial_batch_size = t.batch_size;
    job.scale_factor = DrawScaleFactor(o, *t.model, i, sf_rng);
    job.trace_duration_s = DrawDurationS(o, grid, i, duration_rng);
    job.mode = DrawMode(o, job.trace_duration_s, i, mode_rng);
    job.total_steps = TotalSteps(throughputs, job);
    if (i > 0) arrival_s += ExponentialFromUniform(arrival_rng.Uniform(i), o.lam_s);
    job.arrival_time_s = std::floor(arrival_s);
    trace.jobs.push_back(std::move(job));
  }
  return trace;
}

PhiloxStream::PhiloxStream(std::uint64_t seed, std::uint32_t stream)
    : seed_low_(static_cast<std::uint32_t>(seed)),
      seed_high_(static_cast<std::uint32_t>(seed >> 32)),
      stream_(stream) {}

double PhiloxStream::Uniform(std::uint64_t index, std::uint32_t draw) const {
  r123::Philox4x32 philox;
  r123::Philox4x32::ctr_type counter = {{static_cast<std::uint32_t>(index),
                                         static_cast<std::uint32_t>(index >> 32), draw,
                                         seed_high_}};
  r123::Philox4x32::key_type key = {{seed_low_, stream_}};
  r123::Philox4x32::ctr_type words = philox(counter, key);
  return UniformFromWords(words[0], words[1]);
}

double UniformFromWords(std::uint32_t a, std::uint32_t b) {
  return ((a >> 5) * 67108864.0 + (b >> 6)) * (1.0 / 9007199254740992.0);
}

double ExponentialFromUniform(double u, double mean) {
  return -std::log(1.0 - u) * mean;
}

int IndexFromUniform(double u, int n) {
  int index = static_cast<int>(u * n);
  return index < 0 ? 0 : (index >= n ? n - 1 : index);
}

}  // namespace adaptsim
