// The *simulated* batch-size state machines (docs/mechanism.md §3.4-3.5; `_simulate_gns`
// `scheduler.py:1604-1656`, `_simulate_accordion` `:1658-1726`, `_scale_bs_and_iters`
// `:4731-4931`). Distinct from the profile (profile.hpp): different critical regimes, no 30 % rule.
#pragma once

#include <cstdint>

#include "adaptsim/job.hpp"
#include "adaptsim/workload.hpp"

namespace adaptsim {

/// A pending batch-size request, raised per round for every active job and consumed after the
/// job's next executed round (one-round lag).
enum class BatchSizeRequest { kNone, kGrow, kShrink };

/// The batch-size state of one running job.
struct AdaptationState {
  int batch_size = 0;            ///< current bs
  std::int64_t total_steps = 0;  ///< S at the current bs, iterations
  std::int64_t steps_run = 0;    ///< progress at the current bs, iterations
  BatchSizeRequest request = BatchSizeRequest::kNone;
};

/// Current epoch e = ceil(steps_run / ceil(D / bs)) (`_get_num_epochs`, `scheduler.py:4723-4729`).
std::int64_t CurrentEpoch(const ModelInfo& model, const AdaptationState& state);

/// Evaluates the state machine of `job.mode` and returns the request to raise (kNone leaves any
/// pending request unchanged: requests persist until consumed).
BatchSizeRequest EvaluateAdaptation(const JobSpec& job, const ModelInfo& model,
                                    const AdaptationState& state);

/// The batch size a pending request asks for (§3.5 steps 1-2); equals the current one when the
/// request is rejected (initial bs already the model's max, static mode, no request).
int RequestedBatchSize(const JobSpec& job, const ModelInfo& model, const AdaptationState& state);

/// Rescales total steps and progress to `new_batch_size` (§3.5 steps 4-5) and sets the batch size.
void RescaleToBatchSize(const ModelInfo& model, int new_batch_size, AdaptationState& state);

}  // namespace adaptsim
