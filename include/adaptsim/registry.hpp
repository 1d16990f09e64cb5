// The explicit table of policies (no self-registration): the tables of the policy families
// (include/adaptsim/policy_family.hpp; GavelFamilyPolicies(), ...), concatenated in a fixed order.
// Each entry names the engine that runs the policy and builds it; RunTask dispatches on that
// entry, never on an input file's name.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/policy_family.hpp"
#include "adaptsim/policy_instance.hpp"

namespace adaptsim {

/// All registered policies, in table order (then any added by RegisterTestPolicy).
const std::vector<PolicyInfo>& RegisteredPolicies();

/// The table entry of policy `name`. Throws InputError(file=context, field "policy") for an
/// unknown name, listing the known ones.
const PolicyInfo& FindPolicy(const std::string& name, const std::string& context = "policy");

/// Builds policy `name` with `options` (a JSON object of policy parameters, e.g. {"alpha": 0.2});
/// `seed` keys the policy's random streams (Pollux's genetic algorithm; the other policies are
/// deterministic and ignore it). The alternative set matches PolicyInfo::engine (kInterval ->
/// IntervalPolicy). Throws InputError(file=context, field=name or option) for an unknown name,
/// an option not in PolicyInfo::options or an out-of-range value.
PolicyInstance MakePolicy(const std::string& name, const nlohmann::json& options,
                          const std::string& context = "policy", std::uint64_t seed = 0);

/// A family of policies resolved at run time from names "SCHEME:REST" (e.g. "py:pkg.mod:Class",
/// adaptsim/python_policy.hpp), next to the table. FindPolicy, MakePolicy and PolicyIdentity hand
/// every name with a registered scheme's prefix to its functions.
struct PolicyScheme {
  /// The policy's table entry (name = the full name); throws InputError(file=context) when the
  /// name cannot be resolved.
  std::function<PolicyInfo(const std::string& name, const std::string& context)> describe;
  /// Builds the policy, as MakePolicy.
  std::function<PolicyInstance(const std::string& name, const nlohmann::json& options,
                               const std::string& context, std::uint64_t seed)>
      make;
  /// What identifies the policy's code beyond its name (e.g. a hash of its source file), part of
  /// a task's id (TaskConfig::IdentityJson).
  std::function<std::string(const std::string& name)> identity;
};

/// Registers `scheme` (letters only, used as "scheme:"); a later registration of the same scheme
/// replaces the earlier one. Call before the first policy of the scheme is looked up.
void RegisterPolicyScheme(const std::string& scheme, PolicyScheme functions);

/// The identity of a scheme policy's code (PolicyScheme::identity); "" for a table policy.
std::string PolicyIdentity(const std::string& name);

/// Adds a policy after the table, for test programs only: the test build of the command line
/// registers its test aids this way (tests/test_aids/), each declared as a family's policy is
/// (Declared<O>, include/adaptsim/policy_family.hpp); the shipped program registers nothing.
/// Must run before the first RegisteredPolicies() or MakePolicy() call (e.g. from a static
/// initialiser); throws std::logic_error afterwards or for a name already registered.
void RegisterTestPolicy(PolicyEntry entry);

}  // namespace adaptsim
