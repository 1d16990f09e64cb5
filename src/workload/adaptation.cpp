// Simulated batch-size state machines (docs/mechanism.md §3.4-3.5).
#include "adaptsim/adaptation.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/profile.hpp"

namespace adaptsim {
namespace {

double IterationsPerEpoch(const ModelInfo& model, int batch_size) {
  return std::ceil(static_cast<double>(model.dataset_size_samples) / batch_size);
}

bool InRange(std::int64_t e, std::int64_t begin, std::int64_t end) {
  return e >= begin && e < end;
}

// CR_sim of `_simulate_accordion` (`scheduler.py:1658-1726`): no 600-epoch cap for ResNet-50, no
// late windows for Recommendation, no 30 % rule.
bool InSimulatedCriticalRegime(const ModelInfo& model, int b0, std::int64_t e) {
  if (model.name == "LM") return e < 10;
  if (model.name == "Recommendation") return e < (b0 == 2048 ? 40 : (b0 >= 4096 ? 10 : 30));
  if (model.name == "ResNet-50") return e % 30 < 10;
  if (model.name == "ResNet-18") {
    std::int64_t h = (b0 == 256) ? 20 : 10;
    return InRange(e, 0, h) || InRange(e, 150, 160) || InRange(e, 250, 260);
  }
  return true;
}

BatchSizeRequest EvaluateGns(const JobSpec& job, const ModelInfo& model,
                             const AdaptationState& state) {
  std::int64_t e = CurrentEpoch(model, state);
  int length = static_cast<int>(std::max<std::int64_t>(760, e + 2));
  std::vector<int> pattern =
      GnsPattern(job.model, job.initial_batch_size, length, job.scale_factor);
  bool wants_larger = pattern[e + 1] > state.batch_size || pattern[e] > state.batch_size;
  if (wants_larger && state.batch_size != model.max_batch_size) return BatchSizeRequest::kGrow;
  return BatchSizeRequest::kNone;
}

BatchSizeRequest EvaluateAccordion(const JobSpec& job, const ModelInfo& model,
                                   const AdaptationState& state) {
  if (job.model == "Transformer") return BatchSizeRequest::kNone;
  std::int64_t e = CurrentEpoch(model, state);
  bool critical = InSimulatedCriticalRegime(model, job.initial_batch_size, e);
  if (state.batch_size == job.initial_batch_size) {
    if (!critical && state.batch_size != model.max_batch_size) return BatchSizeRequest::kGrow;
  } else if (critical && state.batch_size != model.min_batch_size) {
    return BatchSizeRequest::kShrink;
  }
  return BatchSizeRequest::kNone;
}

}  // namespace

std::int64_t CurrentEpoch(const ModelInfo& model, const AdaptationState& state) {
  return static_cast<std::int64_t>(std::ceil(static_cast<double>(state.steps_run) /
                                             IterationsPerEpoch(model, state.batch_size)));
}

BatchSizeRequest EvaluateAdaptation(const JobSpec& job, const ModelInfo& model,
                                    const AdaptationState& state) {
  switch (job.mode) {
    case AdaptationMode::kGns:
      return EvaluateGns(job, model, state);
    case AdaptationMode::kAccordion:
      return EvaluateAccordion(job, model, state);
    case AdaptationMode::kStatic:
      break;
  }
  return BatchSizeRequest::kNone;
}

int RequestedBatchSize(const JobSpec& job, const ModelInfo& model, const AdaptationState& state) {
  // The reference's max_bs table has no Transformer entry (`scheduler.py:4767-4775`).
  bool has_limit = model.name != "Transformer";
  if (state.request == BatchSizeRequest::kNone ||
      (has_limit && job.initial_batch_size == model.max_batch_size)) {
    return state.batch_size;
  }
  switch (job.mode) {
    case AdaptationMode::kGns:
      return 2 * state.batch_size;
    case AdaptationMode::kAccordion:
      return state.request == BatchSizeRequest::kGrow ? model.max_batch_size
                                                      : job.initial_batch_size;
    case AdaptationMode::kStatic:
      break;
  }
  return state.batch_size;
}

void RescaleToBatchSize(const ModelInfo& model, int new_batch_size, AdaptationState& state) {
  // `scheduler.py:4852-4927`: preserve the epoch count of the total and of the progress.
  const int old_batch_size = state.batch_size;
  const double bs_scaling_factor = static_cast<double>(new_batch_size) / old_batch_size;
  const double iterations_scaling_factor = 1.0 / bs_scaling_factor;
  const double old_per_epoch = IterationsPerEpoch(model, old_batch_size);
  const double new_per_epoch = IterationsPerEpoch(model, new_batch_size);

  const double old_total_epochs = std::ceil(state.total_steps / old_per_epoch);
  double new_total_steps = std::ceil(state.total_steps * iterations_scaling_factor);
  if (std::ceil(new_total_steps / new_per_epoch) != old_total_epochs) {
    new_total_steps = new_per_epoch * old_total_epochs;
  }
  const double completed_epochs = std::ceil(state.steps_run / old_per_epoch);
  state.total_steps = static_cast<std::int64_t>(new_total_steps);
  state.steps_run = static_cast<std::int64_t>(completed_epochs * new_per_epoch);
  state.batch_size = new_batch_size;
}

}  // namespace adaptsim
