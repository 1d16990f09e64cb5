// Factories of the Shockwave-paper baselines for the policy table (registry.cpp), parsing each
// policy's JSON options with clear InputErrors (field = "<policy>.<option>").
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "adaptsim/policy_instance.hpp"

namespace adaptsim::internal {

/// options: face_rule ∈ {analytic_center, clp_barrier, vertex}, solver ∈ {closed_form, clp},
/// max_iterations (> 0).
PolicyInstance MakeMinTotalDuration(const nlohmann::json& options, const std::string& context);
/// options: face_rule ∈ {analytic_center, lower, fill, clp_barrier}, solver, max_iterations.
PolicyInstance MakeFinishTimeFairness(const nlohmann::json& options, const std::string& context);
/// options: solver ∈ {closed_form, clp}, tie_tolerance ∈ [0, 1e-3], max_iterations.
PolicyInstance MakeMaxSumThroughput(const nlohmann::json& options, const std::string& context);
/// options: alpha (>= 0, default 0.2).
PolicyInstance MakeAlloX(const nlohmann::json& options, const std::string& context);
/// no options.
PolicyInstance MakeIsolated(const nlohmann::json& options, const std::string& context);
PolicyInstance MakeIsolatedPlus(const nlohmann::json& options, const std::string& context);

}  // namespace adaptsim::internal
