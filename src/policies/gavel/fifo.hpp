// FIFO (docs/policies.md §4.3, docs/mechanism.md §12.7; reference
// `scheduler/policies/fifo.py:12-206` of uw-mad-dash/shockwave@8a44f4a): non-preemptive and
// stateful. Jobs are queued by ascending id; an admitted job gets x = 1 on one GPU type, every
// other (job, type) x = 0, and the mechanism never selects jobs of priority <= 0.
//  * `fifo` (FIFOPolicy, mode "base"): an admitted job keeps its type until it completes. The
//    type is drawn with the policy's own random.Random(seed), but the reference then uses the
//    loop variable of the preceding scan, the alphabetically last available type (`:146`,
//    `:154-157`): FifoTypeChoice::kReference reproduces that, kRandom uses the drawn type.
//  * `fifo_perf` (FIFOPolicyWithPerf, mode "perf"): re-admits every job at each call, each on the
//    available type where it runs fastest (ties: the alphabetically first, `:158-170`).
// On one GPU type all of this is the single-type FIFO of the reference.
#pragma once

#include <cstdint>
#include <map>

#include "adaptsim/policy.hpp"
#include "adaptsim/python_random.hpp"

namespace adaptsim {

/// How `fifo` picks a newly admitted job's GPU type among the available types with room.
enum class FifoTypeChoice {
  kReference,  ///< the reference: the alphabetically last type still available (not necessarily
               ///< with room), then removes the drawn type's entry when that type is full
  kRandom,     ///< the intended rule: the randomly drawn type with room
};

enum class FifoMode {
  kBase,  ///< `fifo`: admitted jobs keep their type; the type order of rounds is shuffled
  kPerf,  ///< `fifo_perf`: re-admitted on the fastest type at each call; fixed type order
};

/// Options of the `fifo` and `fifo_perf` policies.
struct FifoOptions {
  /// false (default): the reference's admission rule. Completed jobs are visited in id order and
  /// each one's place is offered to the queue head, checked against the GPUs freed so far, i.e.
  /// before the still-running jobs later in that order are subtracted (`fifo.py:101-131`); the
  /// admitted set can therefore need more GPUs than the cluster has, and the mechanism places
  /// what fits. true: every running job is subtracted first, so the admitted jobs always fit.
  bool respect_capacity = false;
  /// Type of a newly admitted job in mode kBase on several GPU types (default: the reference's).
  FifoTypeChoice type_choice = FifoTypeChoice::kReference;
  FifoMode mode = FifoMode::kBase;
  /// Seeds the type draw, random.Random(seed) (the reference's `--seed`).
  std::uint64_t seed = 0;
};

class FifoPolicy final : public AllocationPolicy {
 public:
  explicit FifoPolicy(FifoOptions options = {});
  AllocationPolicyTraits Traits() const override {
    // The reference shuffles the type order for "FIFO", not for "FIFO_Perf" (`:1295-1299`).
    return {.skip_nonpositive_priority = true,
            .several_gpu_types = true,
            .shuffle_gpu_type_order = options_.mode == FifoMode::kBase};
  }
  /// x_ik = 1 for an admitted job on its type, 0 elsewhere and for queued jobs (one entry per
  /// active job).
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  FifoOptions options_;
  PythonRandom rng_;
  std::map<JobId, int> admitted_;  ///< job -> GPU type (`self._allocation`)
};

}  // namespace adaptsim
