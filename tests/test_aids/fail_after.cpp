#include "fail_after.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>

#include "adaptsim/registry.hpp"

namespace adaptsim::testing {

FailAfterPolicy::FailAfterPolicy(const FailAfterOptions& options)
    : fifo_(std::get<std::unique_ptr<AllocationPolicy>>(
          MakePolicy("fifo", nlohmann::json::object()))),
      after_(options.after),
      sleep_ms_(options.sleep_ms) {}

Allocation FailAfterPolicy::ComputeAllocation(const ClusterState& state) {
  if (sleep_ms_ > 0) {
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(sleep_ms_));
  }
  if (after_ >= 0 && calls_ >= after_) {
    throw std::runtime_error("fail_after: injected failure after " + std::to_string(after_) +
                             " allocations (test aid)");
  }
  ++calls_;
  return fifo_->ComputeAllocation(state);
}

}  // namespace adaptsim::testing
