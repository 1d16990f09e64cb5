// FIFO (POLICIES.md §4; `scheduler/policies/fifo.py:12-194`): non-preemptive, stateful. Jobs are
// queued by ascending id; a job keeps its GPUs until it completes; the queue head is admitted
// while it fits and admission stops at the first head that does not. x = 1 for admitted jobs,
// 0 otherwise; the mechanism never selects jobs of priority <= 0.
#pragma once

#include <set>

#include "adaptsim/policy.hpp"

namespace adaptsim {

class FifoPolicy final : public AllocationPolicy {
 public:
  AllocationPolicyTraits Traits() const override { return {.skip_nonpositive_priority = true}; }
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  std::set<JobId> admitted_;
};

}  // namespace adaptsim
