// Logged production jobs → simulated jobs (production_trace.hpp; docs/production.md).
#include "adaptsim/production_trace.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/error.hpp"
#include "adaptsim/job.hpp"
#include "adaptsim/trace_generator.hpp"

namespace adaptsim {
namespace {

const char kContext[] = "production trace options";
constexpr double kMixTolerance = 1e-9;
constexpr std::array<int, 4> kTraceScaleFactors = {1, 2, 4, 8};

// Streams of this rule; numbered apart from the trace generator's (0-4) so that the two never
// share a stream for the same seed.
enum Stream : std::uint32_t {
  kModelStream = 16,  // draw 0: model, draw 1: batch size
  kModeStream = 17,
  kApplicationStream = 18,  // draw 0: cifar10 or ncf, draw 1: deepspeech2 or bert
};

// A model of a bucket with the trace batch sizes it can run at one GPU count.
struct Candidate {
  const ModelInfo* model;
  std::vector<int> batch_sizes;
  std::vector<double> throughputs;  // parallel to batch_sizes, steps/s
};

const ModelInfo* Find(const std::vector<ModelInfo>& models, const std::string& name) {
  auto it = std::find_if(models.begin(), models.end(),
                         [&](const ModelInfo& m) { return m.name == name; });
  return it == models.end() ? nullptr : &*it;
}

std::vector<Candidate> Candidates(const GpuTimeBucket& bucket, const std::vector<ModelInfo>& models,
                                  const ThroughputSource& throughputs, int scale_factor) {
  std::vector<Candidate> candidates;
  if (std::find(kTraceScaleFactors.begin(), kTraceScaleFactors.end(), scale_factor) ==
      kTraceScaleFactors.end()) {
    return candidates;
  }
  for (const std::string& name : bucket.models) {
    Candidate candidate{Find(models, name), {}, {}};
    for (int batch_size : candidate.model->trace_batch_sizes) {
      std::optional<double> thr = throughputs.ThroughputStepsPerS(name, batch_size, scale_factor);
      if (thr && *thr > 0 && std::isfinite(*thr)) {
        candidate.batch_sizes.push_back(batch_size);
        candidate.throughputs.push_back(*thr);
      }
    }
    if (!candidate.batch_sizes.empty()) candidates.push_back(std::move(candidate));
  }
  return candidates;
}

std::string BucketModels(const GpuTimeBucket& bucket) {
  std::string text;
  for (const std::string& name : bucket.models) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

std::vector<GpuTimeBucket> DefaultCatalogueBuckets() {
  return {{1.0, {"ResNet-18", "Recommendation"}},
          {10.0, {"LM", "Transformer"}},
          {100.0, {"ResNet-50"}},
          {std::numeric_limits<double>::infinity(), {"ResNet-50"}}};
}

void ProductionTraceOptions::Validate(const std::vector<ModelInfo>& models) const {
  if (buckets.empty()) throw InputError(kContext, 0, "buckets", "at least one bucket is needed");
  double previous = 0.0;
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    const std::string field = "buckets[" + std::to_string(b) + "]";
    if (!(buckets[b].max_gpu_time_h > previous)) {
      throw InputError(kContext, 0, field, "GPU-time bounds must be positive and increasing");
    }
    previous = buckets[b].max_gpu_time_h;
    if (buckets[b].models.empty()) throw InputError(kContext, 0, field, "no models");
    for (const std::string& name : buckets[b].models) {
      if (!Find(models, name)) {
        throw InputError(kContext, 0, field, "model '" + name + "' is not in the catalogue");
      }
    }
  }
  if (!std::isinf(previous)) {
    throw InputError(kContext, 0, "buckets", "the last GPU-time bound must be infinite");
  }
  double sum = 0;
  for (double p : mode_mix) {
    if (!(p >= 0 && p <= 1)) throw InputError(kContext, 0, "mode_mix", "must be in [0, 1]");
    sum += p;
  }
  if (std::abs(sum - 1.0) > kMixTolerance) {
    throw InputError(kContext, 0, "mode_mix", "must sum to 1, got " + std::to_string(sum));
  }
  if (!(accordion_min_duration_s >= 0)) {
    throw InputError(kContext, 0, "accordion_min_duration_s", "must be >= 0");
  }
}

ProductionTrace BuildProductionTrace(const ProductionLog& log, const ProductionTraceOptions& o,
                                     const std::vector<ModelInfo>& models,
                                     const ThroughputSource& throughputs) {
  o.Validate(models);
  const PhiloxStream model_rng(o.seed, kModelStream), mode_rng(o.seed, kModeStream);
  ProductionTrace result;
  result.trace.path = log.path;
  result.log_stats = log.stats;
  for (std::size_t i = 0; i < log.jobs.size(); ++i) {
    const LoggedJob& logged = log.jobs[i];
    const double gpu_time_h = logged.gpu_time_s / 3600.0;
    const GpuTimeBucket& bucket =
        *std::find_if(o.buckets.begin(), o.buckets.end(),
                      [&](const GpuTimeBucket& b) { return gpu_time_h < b.max_gpu_time_h; });
    std::vector<Candidate> candidates = Candidates(bucket, models, throughputs, logged.num_gpus);
    if (candidates.empty()) {
      if (o.skip_unsupported) {
        ++result.skipped_unsupported;
        continue;
      }
      throw InputError(log.path, logged.line, "num_gpus",
                       "no model of the GPU-time bucket (" + BucketModels(bucket) +
                           ") has a throughput on " + std::to_string(logged.num_gpus) +
                           " GPUs in " + throughputs.Describe() +
                           " (skip such jobs with skip_unsupported)");
    }
    const Candidate& c =
        candidates[IndexFromUniform(model_rng.Uniform(i, 0), static_cast<int>(candidates.size()))];
    const int b = IndexFromUniform(model_rng.Uniform(i, 1), static_cast<int>(c.batch_sizes.size()));

    JobSpec job;
    job.id = static_cast<JobId>(result.trace.jobs.size());
    job.model = c.model->name;
    job.initial_batch_size = c.batch_sizes[b];
    job.scale_factor = logged.num_gpus;
    job.trace_duration_s = static_cast<std::int64_t>(std::nearbyint(logged.duration_s));
    const double r = mode_rng.Uniform(i);
    job.mode = r < o.mode_mix[0]                   ? AdaptationMode::kStatic
               : r < o.mode_mix[0] + o.mode_mix[1] ? AdaptationMode::kAccordion
                                                   : AdaptationMode::kGns;
    if (job.mode == AdaptationMode::kAccordion && logged.duration_s < o.accordion_min_duration_s) {
      job.mode = AdaptationMode::kStatic;
    }
    job.total_steps = static_cast<std::int64_t>(logged.duration_s * c.throughputs[b]);
    if (job.total_steps <= 0) {
      if (o.skip_unsupported) {
        ++result.skipped_no_work;
        continue;
      }
      throw InputError(log.path, logged.line, "duration",
                       "gives 0 steps at " + std::to_string(c.throughputs[b]) + " steps/s of " +
                           JobTypeName(job.model, job.initial_batch_size) +
                           " (skip such jobs with skip_unsupported)");
    }
    job.arrival_time_s = logged.arrival_time_s;
    result.trace.jobs.push_back(std::move(job));
    result.source_lines.push_back(logged.line);
  }
  return result;
}

PolluxWorkload BuildPolluxWorkloadFromLog(const ProductionLog& log, std::uint64_t seed,
                                          PolluxApplications& applications) {
  const PhiloxStream rng(seed, kApplicationStream);
  PolluxWorkload workload;
  workload.path = log.path;
  for (std::size_t i = 0; i < log.jobs.size(); ++i) {
    const LoggedJob& logged = log.jobs[i];
    const double gpu_time_h = logged.gpu_time_s / 3600.0;  // workload.py:31-45
    std::string application = gpu_time_h < 1    ? (rng.Uniform(i, 0) < 0.5 ? "cifar10" : "ncf")
                              : gpu_time_h < 10 ? (rng.Uniform(i, 1) < 0.5 ? "deepspeech2" : "bert")
                              : gpu_time_h < 100 ? "yolov3"
                                                 : "imagenet";
    const PolluxApplication& app = applications.Get(application, log.path, logged.line);
    PolluxJobSpec job;
    job.name = application + "-" + std::to_string(i);
    job.submission_time_s = logged.arrival_time_s;
    job.application = std::move(application);
    job.num_replicas = logged.num_gpus;
    job.batch_size = static_cast<int>(std::min<long long>(
        static_cast<long long>(app.init_batch_size()) * logged.num_gpus, app.max_batch_size()));
    job.line = logged.line;
    workload.jobs.push_back(std::move(job));
  }
  return workload;
}

}  // namespace adaptsim
