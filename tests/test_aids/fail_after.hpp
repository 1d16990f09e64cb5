// TEST AID, not a scheduling policy: FIFO that throws std::runtime_error after a given number of
// allocations and can be slowed down. The task and sweep tests use it to inject a
// deterministically failing task (the sweep must record it as "failed" and go on) and to make
// tasks last long enough to be interrupted (SIGTERM, kill -9). Only the test build of the command
// line (`adaptsim_test_cli`, tests/CMakeLists.txt) registers it, as `fail_after`
// (register_test_aids.cpp), with the options of FailAfterOptions.
#pragma once

#include <memory>

#include "adaptsim/policy.hpp"
#include "adaptsim/policy_options.hpp"

namespace adaptsim::testing {

struct FailAfterOptions {
  int after = 0;          ///< allocations computed before it throws; -1 = never throws
  double sleep_ms = 0.0;  ///< ms of wall-clock sleep per allocation (does not change results)

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("after", "allocations before the exception (-1 = never)", Within(-1, 1e9)),
          self.after);
    visit(Option("sleep_ms", "ms slept in each allocation", AtLeast(0)), self.sleep_ms);
  }
};

class FailAfterPolicy final : public AllocationPolicy {
 public:
  /// Wraps the registry's `fifo` (default options).
  explicit FailAfterPolicy(const FailAfterOptions& options);
  AllocationPolicyTraits Traits() const override { return fifo_->Traits(); }
  /// Throws std::runtime_error("fail_after: injected failure ...") on call number after + 1.
  Allocation ComputeAllocation(const ClusterState& state) override;

 private:
  std::unique_ptr<AllocationPolicy> fifo_;
  int after_;
  double sleep_ms_;
  int calls_ = 0;
};

}  // namespace adaptsim::testing
