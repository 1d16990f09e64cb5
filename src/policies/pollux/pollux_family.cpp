// The Pollux family's policies (pollux_family.hpp).
#include "pollux_family.hpp"

#include "optimus.hpp"
#include "pollux.hpp"
#include "tiresias.hpp"

namespace adaptsim {

std::vector<PolicyEntry> PolluxFamilyPolicies() {
  using enum EngineKind;
  return {
      Declared<PolluxOptions>(
          "pollux", "Pollux (OSDI'21) goodput GA; interval engine (options p, population, ...)",
          kInterval,
          [](PolluxOptions options, std::uint64_t seed) {
            options.seed = seed;
            return PolicyInstance(
                std::unique_ptr<IntervalPolicy>(std::make_unique<PolluxPolicy>(options)));
          }),
      Declared<NoOptions>("optimus", "Optimus+Oracle (Pollux artifact); interval engine", kInterval,
                          Construct<IntervalPolicy, OptimusPolicy>()),
      Declared<NoOptions>("tiresias", "Tiresias 2-queue LAS (Pollux artifact); interval engine",
                          kInterval, Construct<IntervalPolicy, TiresiasPolicy>()),
  };
}

}  // namespace adaptsim
