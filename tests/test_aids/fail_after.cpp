#include "fail_after.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>

#include "adaptsim/error.hpp"
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

// Option parsing with the same errors as the shipped policies' (InputError naming the field).
double NumberOption(const nlohmann::json& options, const char* key, double fallback,
                    const std::string& context) {
  if (!options.is_object() || !options.contains(key)) return fallback;
  if (!options[key].is_number()) {
    throw InputError(context, 0, std::string("fail_after.") + key, "expected a number");
  }
  return options[key].get<double>();
}

PolicyInstance MakeFailAfter(const nlohmann::json& options, const std::string& context) {
  if (!options.is_null() && !options.is_object()) {
    throw InputError(context, 0, "fail_after", "policy options must be a table");
  }
  if (options.is_object()) {
    for (const auto& [key, value] : options.items()) {
      if (key != "after" && key != "sleep_ms") {
        throw InputError(context, 0, "fail_after." + key,
                         "unknown option for policy 'fail_after' (known: after, sleep_ms)");
      }
    }
  }
  const double after = NumberOption(options, "after", 0, context);
  const double sleep_ms = NumberOption(options, "sleep_ms", 0, context);
  if (after < -1 || after != static_cast<int>(after) || !(sleep_ms >= 0)) {
    throw InputError(context, 0, "fail_after", "after must be an integer >= -1, sleep_ms >= 0");
  }
  return PolicyInstance(std::unique_ptr<AllocationPolicy>(
      std::make_unique<FailAfterPolicy>(static_cast<int>(after), sleep_ms)));
}

}  // namespace

void RegisterFailAfterPolicy() {
  RegisterTestPolicy({"fail_after",
                      "TEST AID: fifo that throws after `after` allocations "
                      "(option sleep_ms)",
                      EngineKind::kRound,
                      {{"after", 0, "allocations before the exception (-1 = never)"},
                       {"sleep_ms", 0, "ms slept in each allocation"}}},
                     MakeFailAfter);
}

}  // namespace adaptsim::testing
