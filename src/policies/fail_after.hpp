// TEST AID, not a scheduling policy: FIFO (policies/fifo.hpp) that throws std::runtime_error
// after a given number of allocations and can be slowed down. The harness tests use it to
// inject a deterministically failing task (the sweep must record it as "failed" and go on) and
// to make tasks last long enough to be interrupted (SIGTERM, kill -9). Registered as
// `fail_after` with options:
//   after    int, default 0: allocations computed before it throws; -1 = never throws
//   sleep_ms number >= 0, default 0: wall-clock sleep per allocation (does not change results)
#pragma once

#include "adaptsim/policy.hpp"
#include "fifo.hpp"

namespace adaptsim {

class FailAfterPolicy final : public AllocationPolicy {
 public:
  FailAfterPolicy(int after, double sleep_ms) : after_(after), sleep_ms_(sleep_ms) {}
  AllocationPolicyTraits Traits() const override { return fifo_.Traits(); }
  /// Throws std::runtime_error("fail_after: injected failure ...") on call number after + 1.
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  FifoPolicy fifo_;
  int after_;
  double sleep_ms_;
  int calls_ = 0;
};

}  // namespace adaptsim
