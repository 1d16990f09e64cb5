// A policy family's table of policies. Each family folder of src/policies/ (gavel, shockwave,
// pollux, replay, ...) lists its policies once, as PolicyEntry values built with Declared, in one
// function (GavelFamilyPolicies() in src/policies/gavel/gavel_family.cpp, ...); the policy table
// (include/adaptsim/registry.hpp) concatenates the families' lists (docs/architecture.md, "The
// policy families"). A family therefore never includes the table, and the next family adds its
// folder and one line to the table.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/policy_instance.hpp"
#include "adaptsim/policy_options.hpp"

namespace adaptsim {

/// The two implementations of the Simulation seam (adaptsim/simulation.hpp).
enum class EngineKind {
  kRound,     ///< round-based Gavel/Shockwave engine (adaptsim/simulator.hpp)
  kInterval,  ///< interval engine of the Pollux family (adaptsim/interval_simulator.hpp)
};
/// "round" | "interval".
std::string_view ToString(EngineKind engine);

/// What the policy table says about one policy.
struct PolicyInfo {
  std::string name;         ///< CLI name, as the reference's `--policy`
  std::string description;  ///< one line for `adaptsim run --policy help`
  EngineKind engine = EngineKind::kRound;
  /// Every option the policy accepts, with its default. For a family's policy it is derived from
  /// the policy's options struct, where each option is declared once
  /// (include/adaptsim/policy_options.hpp); the interval engine's options are the task's
  /// (IntervalSimulationOptions), never a policy's. It drives
  /// `adaptsim run --policy help`, `adaptsim.policies()` and the one check of option keys in
  /// MakePolicy, and docs/policies.md §11 is tested against it. Empty for a scheme policy (its
  /// options are its own).
  std::vector<PolicyOption> options = {};
  /// Whether the policy draws random numbers from the task's seed (pollux's genetic algorithm):
  /// true exactly when its `build` takes the seed (Declared). The engines draw none, so on a
  /// fixed trace the other policies give the same result for every seed (docs/sweeps.md §1); a
  /// Python policy is not given the seed (docs/python.md §4).
  bool uses_seed = false;
};

/// Builds a policy from its JSON options (whose keys MakePolicy has checked against
/// PolicyInfo::options), the name of the input they come from (`context`, for error messages)
/// and the task seed (which keys the policy's random streams, if it has any).
using PolicyMaker = std::function<PolicyInstance(const nlohmann::json& options,
                                                 const std::string& context, std::uint64_t seed)>;

/// One policy of a family's table.
struct PolicyEntry {
  PolicyInfo info;
  PolicyMaker make;
};

/// The entry of a policy whose options are the declaration of O: PolicyInfo::options lists O's
/// options, and `make` parses the JSON into O (InputError(context, "<name>.<option>")) and hands
/// it to `build` — `build(O)`, or `build(O, seed)` for a policy with random streams.
template <typename O, typename Build>
PolicyEntry Declared(std::string name, std::string description, EngineKind engine, Build build) {
  constexpr bool kUsesSeed = std::is_invocable_v<Build, O, std::uint64_t>;
  PolicyMaker make = [name, build](const nlohmann::json& json, const std::string& context,
                                   std::uint64_t seed) {
    O parsed = ParseOptions<O>(json, {context, name});
    if constexpr (kUsesSeed) {
      return build(std::move(parsed), seed);
    } else {
      return build(std::move(parsed));
    }
  };
  return {{std::move(name), std::move(description), engine, DescribeOptions<O>(), kUsesSeed},
          std::move(make)};
}

/// `build` for a policy P of interface I (AllocationPolicy, RoundScheduler or IntervalPolicy)
/// constructed from its options struct (without arguments when the struct is NoOptions).
template <typename I, typename P>
auto Construct() {
  return [](const auto& options) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(options)>, NoOptions>) {
      return PolicyInstance(std::unique_ptr<I>(std::make_unique<P>()));
    } else {
      return PolicyInstance(std::unique_ptr<I>(std::make_unique<P>(options)));
    }
  };
}

}  // namespace adaptsim
