// The policies of the interval engine (pollux, optimus, tiresias) by name, and their entries in
// the main policy table (registry.cpp). They run on Pollux workloads (.csv) through
// RunPolluxTask (include/adaptsim/pollux_task.hpp); the round engine cannot run them, so their
// PolicyInstance is a round scheduler that reports that as an InputError instead of crashing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/registry.hpp"

namespace adaptsim {

/// Builds interval policy `name` with `options` (JSON object); `seed` keys Pollux's GA stream.
/// Throws InputError(context, field) for an unknown name or a bad option.
std::unique_ptr<IntervalPolicy> MakeIntervalPolicy(const std::string& name,
                                                   const nlohmann::json& options,
                                                   const std::string& context,
                                                   std::uint64_t seed = 0);

/// True for the interval engine's policies: pollux, optimus, tiresias.
bool IsIntervalPolicy(const std::string& name);

/// Registry entry: validates `options` like MakeIntervalPolicy, returns a round scheduler whose
/// PlanRound throws InputError("policy '<name>' runs on Pollux workloads (.csv) ...").
PolicyInstance IntervalPolicyRegistryEntry(const std::string& name, const nlohmann::json& options,
                                           const std::string& context);

}  // namespace adaptsim
