// The explicit table of policies (names in one table, no self-registration).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/policy.hpp"

namespace adaptsim {

struct PolicyInfo {
  std::string name;         ///< CLI name, as the reference's `--policy`
  std::string description;  ///< one line for `adaptsim run --policy help`
};

/// A constructed policy: exactly one of the two members is set.
struct PolicyInstance {
  std::unique_ptr<AllocationPolicy> allocation;     ///< Gavel-style; the engine wraps it
  std::unique_ptr<RoundScheduler> round_scheduler;  ///< drives rounds directly
};

/// Builds a policy from its options; `context` names the input for error messages.
using PolicyFactory =
    std::function<PolicyInstance(const nlohmann::json& options, const std::string& context)>;

/// All registered policies, in table order (then any added by RegisterTestPolicy).
const std::vector<PolicyInfo>& RegisteredPolicies();

/// Builds policy `name` with `options` (a JSON object of policy parameters, e.g. {"alpha": 0.2}).
/// Throws InputError(file=context, field=name or option) for an unknown name, an unknown option
/// or an out-of-range value.
PolicyInstance MakePolicy(const std::string& name, const nlohmann::json& options,
                          const std::string& context = "policy");

/// Adds a policy after the table, for test programs only: the test build of the command line
/// registers its test aids this way (tests/test_aids/); the shipped program registers nothing.
/// Must run before the first RegisteredPolicies() or MakePolicy() call (e.g. from a static
/// initialiser); throws std::logic_error afterwards or for a name already registered.
void RegisterTestPolicy(PolicyInfo info, PolicyFactory factory);

}  // namespace adaptsim
