// The Pollux family's policies (pollux_family.hpp).
#include "pollux_family.hpp"

#include "optimus.hpp"
#include "pollux.hpp"
#include "pollux_unaware.hpp"
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
      Declared<PolluxOptions>(
          "pollux_unaware",
          "Pollux heterogeneity-unaware as Sia (SOSP'23) runs it: the GA on virtual 4-GPU nodes, "
          "allocations over GPU types fixed to one type; interval engine, --cluster of node "
          "groups (options as pollux)",
          kInterval,
          [](PolluxOptions options, std::uint64_t seed) {
            options.seed = seed;
            return PolicyInstance(
                std::unique_ptr<IntervalPolicy>(std::make_unique<PolluxUnawarePolicy>(options)));
          }),
      Declared<NoOptions>("optimus", "Optimus+Oracle (Pollux artifact); interval engine", kInterval,
                          Construct<IntervalPolicy, OptimusPolicy>()),
      Declared<NoOptions>("tiresias", "Tiresias 2-queue LAS (Pollux artifact); interval engine",
                          kInterval, Construct<IntervalPolicy, TiresiasPolicy>()),
  };
}

}  // namespace adaptsim
