// The Sia family's policies (sia_family.hpp).
#include "sia_family.hpp"

#include "sia_interval_policy.hpp"

namespace adaptsim {

std::vector<PolicyEntry> SiaFamilyPolicies() {
  using enum EngineKind;
  return {
      Declared<SiaOptions>(
          "sia",
          "Sia (SOSP'23) goodput ILP over GPU types; interval engine, --cluster of node groups "
          "(options p, lambda_n, ...)",
          kInterval,
          [](SiaOptions options) {
            return PolicyInstance(
                std::unique_ptr<IntervalPolicy>(std::make_unique<SiaIntervalPolicy>(options)));
          }),
  };
}

}  // namespace adaptsim
