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
#include "adaptsim/policy_options.hpp"
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

/// The admission option of `fifo` and `fifo_perf` (the options of `fifo_perf`).
struct FifoAdmissionOptions {
  /// false (default): the reference's admission rule. Completed jobs are visited in id order and
  /// each one's place is offered to the queue head, checked against the GPUs freed so far, i.e.
  /// before the still-running jobs later in that order are subtracted (`fifo.py:101-131`); the
  /// admitted set can therefore need more GPUs than the cluster has, and the mechanism places
  /// what fits. true: every running job is subtracted first, so the admitted jobs always fit.
  bool respect_capacity = false;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("respect_capacity",
                 "admit a job only while the admitted jobs' GPUs fit the cluster (false = the "
                 "reference's admission, which may over-admit)"),
          self.respect_capacity);
  }
};

/// Options of the `fifo` policy: the admission rule and, on several GPU types, the type choice.
struct FifoOptions : FifoAdmissionOptions {
  /// Type of a newly admitted job on several GPU types (default: the reference's).
  FifoTypeChoice type_choice = FifoTypeChoice::kReference;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    FifoAdmissionOptions::VisitOptions(self, visit);
    visit(Option("type_choice", "GPU type of an admitted job on several GPU types",
                 Choices<FifoTypeChoice>{
                     {"reference", FifoTypeChoice::kReference,
                      "the alphabetically last available type, the reference's bug"},
                     {"random", FifoTypeChoice::kRandom, "the drawn type with room"}}),
          self.type_choice);
  }
};

class FifoPolicy final : public AllocationPolicy {
 public:
  /// `fifo` in mode kBase, `fifo_perf` in mode kPerf (whose options are respect_capacity only);
  /// `seed` (the task's) seeds the type draw, random.Random(seed), as the reference's `--seed`.
  explicit FifoPolicy(FifoOptions options = {}, FifoMode mode = FifoMode::kBase,
                      std::uint64_t seed = 0);
  AllocationPolicyTraits Traits() const override {
    // The reference shuffles the type order for "FIFO", not for "FIFO_Perf" (`:1295-1299`).
    return {.skip_nonpositive_priority = true,
            .several_gpu_types = true,
            .shuffle_gpu_type_order = mode_ == FifoMode::kBase};
  }
  /// x_ik = 1 for an admitted job on its type, 0 elsewhere and for queued jobs (one entry per
  /// active job).
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  FifoOptions options_;
  FifoMode mode_;
  PythonRandom rng_;
  std::map<JobId, int> admitted_;  ///< job -> GPU type (`self._allocation`)
};

}  // namespace adaptsim
