#include "fail_after.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>

#include "adaptsim/error.hpp"
#include "adaptsim/policy_options.hpp"
#include "adaptsim/registry.hpp"

namespace adaptsim::testing {

FailAfterPolicy::FailAfterPolicy(int after, double sleep_ms)
    : fifo_(std::get<std::unique_ptr<AllocationPolicy>>(
          MakePolicy("fifo", nlohmann::json::object()))),
      after_(after),
      sleep_ms_(sleep_ms) {}

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

namespace {

struct FailAfterOptions {
  int after = 0;
  double sleep_ms = 0.0;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("after", "allocations before the exception (-1 = never)", Between(-1, 1e9)),
          self.after);
    visit(Option("sleep_ms", "ms slept in each allocation", AtLeast(0)), self.sleep_ms);
  }
};

}  // namespace

void RegisterFailAfterPolicy() {
  RegisterTestPolicy({"fail_after",
                      "TEST AID: fifo that throws after `after` allocations "
                      "(option sleep_ms)",
                      EngineKind::kRound, DescribeOptions<FailAfterOptions>()},
                     [](const nlohmann::json& json, const std::string& context) {
                       const FailAfterOptions options =
                           ParseOptions<FailAfterOptions>(json, {context, "fail_after"});
                       return PolicyInstance(std::unique_ptr<AllocationPolicy>(
                           std::make_unique<FailAfterPolicy>(options.after, options.sleep_ms)));
                     });
}

}  // namespace adaptsim::testing
