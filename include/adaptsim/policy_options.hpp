// Reading a policy's JSON options with clear errors (shared by the policy factories).
#pragma once

#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

namespace adaptsim::internal {

/// Throws InputError(context, field=<policy>.<key>) for a key not in `allowed`.
void RequireKnownOptions(const nlohmann::json& options, const std::string& policy,
                         std::initializer_list<const char*> allowed, const std::string& context);

/// The number at `key`, or `fallback` when absent; throws InputError if not a number.
double NumberOption(const nlohmann::json& options, const std::string& policy, const char* key,
                    double fallback, const std::string& context);

/// The boolean at `key`, or `fallback` when absent; throws InputError if not a boolean.
bool BoolOption(const nlohmann::json& options, const std::string& policy, const char* key,
                bool fallback, const std::string& context);

/// The string at `key`, or `fallback` when absent; throws InputError if not a string.
std::string StringOption(const nlohmann::json& options, const std::string& policy, const char* key,
                         const std::string& fallback, const std::string& context);

}  // namespace adaptsim::internal
