#include "fail_after.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

namespace adaptsim {

Allocation FailAfterPolicy::ComputeAllocation(const ClusterState& state) {
  if (sleep_ms_ > 0) {
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(sleep_ms_));
  }
  if (after_ >= 0 && calls_ >= after_) {
    throw std::runtime_error("fail_after: injected failure after " + std::to_string(after_) +
                             " allocations (test aid)");
  }
  ++calls_;
  return fifo_.ComputeAllocation(state);
}

}  // namespace adaptsim
