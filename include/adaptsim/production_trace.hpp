// The seeded rule that turns logged production jobs (production_log.hpp) into simulated ones for
// the round-based engine (docs/production.md).
//
// Per logged job i (in log order after selection; every draw is a function of (seed, stream, i,
// draw) only, Philox4x32-10 streams as in trace_generator.hpp):
//   bucket      the first GPU-time bucket with gpu_time < upper bound (bounds 1 h, 10 h, 100 h,
//               ∞ by default: petuum/adaptdl@c793c7089bd3, simulator/workload.py:31-45)
//   model       uniform over the bucket's models that have a positive throughput at the job's
//               GPU count for at least one of their trace batch sizes (draw 0 of the model stream)
//   batch size  uniform over that model's trace batch sizes with a positive throughput (draw 1)
//   scale factor = the logged GPU count (it must be one of {1, 2, 4, 8}, the trace format's)
//   mode        r < p0 → static, < p0+p1 → accordion, else gns; accordion with duration below
//               accordion_min_duration_s becomes static (as the trace generator draws it)
//   total steps int(duration_s · thr(model, batch size, scale factor)): the job run alone on its
//               logged GPU count at its model's isolated throughput takes its logged duration
//               (less by under one step)
//   arrival     the log's rebased arrival; trace duration = round-half-even(duration_s)
// Jobs no bucket model can run at their GPU count (field `num_gpus`) and jobs whose duration gives
// less than one step (field `duration`) fail with InputError naming the log's file and line, or
// are skipped and counted with skip_unsupported.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/production_log.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "adaptsim/workload.hpp"

namespace adaptsim {

/// Jobs with gpu_time < max_gpu_time_h (and ≥ the previous bucket's bound) draw from `models`.
struct GpuTimeBucket {
  double max_gpu_time_h = std::numeric_limits<double>::infinity();
  std::vector<std::string> models;  ///< catalogue model names, non-empty
};

/// The default mapping for the Shockwave/Gavel catalogue: Pollux's GPU-time bounds
/// (workload.py:31-45) with each Pollux application replaced by the catalogue model of the same
/// task: cifar10 (ResNet-18 on CIFAR-10) → ResNet-18, ncf (recommendation) → Recommendation;
/// deepspeech2 / bert (speech, language) → LM, Transformer; yolov3 (vision) → ResNet-50;
/// imagenet (ResNet-50 on ImageNet) → ResNet-50.
std::vector<GpuTimeBucket> DefaultCatalogueBuckets();

struct ProductionTraceOptions {
  std::uint64_t seed = 0;  ///< keys every stream
  /// Increasing bounds, the last one ∞ so that every job has a bucket (the user-given mapping).
  std::vector<GpuTimeBucket> buckets = DefaultCatalogueBuckets();
  std::array<double, 3> mode_mix = {0.0, 0.5, 0.5};  ///< static, accordion, gns (generator's)
  double accordion_min_duration_s = 1000.0;          ///< shorter accordion jobs become static
  /// Skip (and count) jobs whose GPU count no bucket model supports, or whose duration gives less
  /// than one step, instead of failing.
  bool skip_unsupported = false;

  /// Throws InputError(file="production trace options", field=...) for an empty bucket list,
  /// bounds not increasing or not ending in ∞, a bucket without models, a model missing from
  /// `models`, a mix that is negative or does not sum to 1 (±1e-9), a negative accordion minimum.
  void Validate(const std::vector<ModelInfo>& models) const;
};

struct ProductionTrace {
  Trace trace;                           ///< job id = index; path = the log's path
  std::vector<int> source_lines;         ///< parallel to trace.jobs: line of the job in the log
  ProductionLogStats log_stats;          ///< the reader's counts, carried along for the metadata
  std::int64_t skipped_unsupported = 0;  ///< skip_unsupported: no model for the GPU count
  std::int64_t skipped_no_work = 0;      ///< skip_unsupported: duration × throughput < 1 step
};

/// Applies the rule above to every job of `log`, drawing models from `models` (each with its
/// trace batch sizes) and total steps from `throughputs`. Same log, options, models and
/// throughputs ⇒ the same trace, bit for bit. Throws InputError for invalid options and, without
/// skip_unsupported, for a job no bucket model supports (file and line of the log).
ProductionTrace BuildProductionTrace(const ProductionLog& log,
                                     const ProductionTraceOptions& options,
                                     const std::vector<ModelInfo>& models,
                                     const ThroughputSource& throughputs);

/// The same log as a Pollux workload for the interval engine. Per job i (Philox streams keyed by
/// `seed`, as above): the application by GPU time exactly as the artifact assigns it
/// (petuum/adaptdl@c793c7089bd3, simulator/workload.py:31-53): < 1 h → cifar10 or ncf (uniform,
/// draw 0), < 10 h → deepspeech2, half of them bert (draw 1), < 100 h → yolov3, else imagenet.
/// The rigid baselines' configuration is the logged GPU count with the application's initial batch
/// size per GPU — the artifact's alternative rule (workload.py:54-55) — capped at the largest
/// validated batch size; the artifact's default draws a tuned configuration instead
/// (`get_configurations`, workload.py:46-47), which is not reproduced. submission time = the
/// rebased arrival; name = "<application>-<index>" in arrival order (workload.py:57-59). Pollux
/// jobs run to their application's target epoch, so the logged duration is used only for the
/// bucket. `applications` loads the six profiles on demand (InputError when one is missing).
PolluxWorkload BuildPolluxWorkloadFromLog(const ProductionLog& log, std::uint64_t seed,
                                          PolluxApplications& applications);

}  // namespace adaptsim
