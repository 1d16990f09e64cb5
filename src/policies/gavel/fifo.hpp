// FIFO (docs/policies.md §4.3; reference `scheduler/policies/fifo.py:12-194` of
// uw-mad-dash/shockwave@8a44f4a): non-preemptive and stateful. Jobs are queued by ascending id; an
// admitted job keeps x = 1 until it completes; every other job has x = 0, and the mechanism never
// selects jobs of priority <= 0.
#pragma once

#include <set>

#include "adaptsim/policy.hpp"
#include "adaptsim/policy_options.hpp"

namespace adaptsim {

/// Options of the `fifo` policy.
struct FifoOptions {
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

class FifoPolicy final : public AllocationPolicy {
 public:
  explicit FifoPolicy(FifoOptions options = {}) : options_(options) {}
  AllocationPolicyTraits Traits() const override { return {.skip_nonpositive_priority = true}; }
  /// x_i = 1 for admitted jobs, 0 for queued ones (one entry per active job).
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  FifoOptions options_;
  std::set<JobId> admitted_;
};

}  // namespace adaptsim
