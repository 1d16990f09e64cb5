// The explicit table of policies (names in one table, no self-registration).
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

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/policy.hpp"

namespace adaptsim {

/// The two implementations of the Simulation seam (adaptsim/simulation.hpp).
enum class EngineKind {
  kRound,     ///< round-based Gavel/Shockwave engine (adaptsim/simulator.hpp)
  kInterval,  ///< interval engine of the Pollux family (adaptsim/interval_simulator.hpp)
};
/// "round" | "interval".
std::string_view ToString(EngineKind engine);

/// One option of a policy (a key of its JSON options, `--policy-option KEY=VALUE`).
struct PolicyOption {
  std::string name;              ///< the key
  nlohmann::json default_value;  ///< the value used when the key is absent
  std::string doc;               ///< meaning, units and accepted values, one line
};

struct PolicyInfo {
  std::string name;         ///< CLI name, as the reference's `--policy`
  std::string description;  ///< one line for `adaptsim run --policy help`
  EngineKind engine = EngineKind::kRound;
  /// Every option the policy accepts, with its default (for the table's policies the only
  /// source of `adaptsim run --policy help`, docs/policies.md §10 and `adaptsim.policies()`;
  /// MakePolicy rejects any other key). Empty for a scheme policy (its options are its own).
  std::vector<PolicyOption> options = {};
  /// Whether the policy draws random numbers from the task's seed (pollux's genetic algorithm).
  /// The engines draw none, so on a fixed trace the other policies give the same result for every
  /// seed (docs/sweeps.md §1); a Python policy is not given the seed (docs/python.md §4).
  bool uses_seed = false;
};

/// The interval engine's own option keys (interval_s, restart_delay_s, interference,
/// gpus_per_node), accepted by every interval-engine policy and read by the engine
/// (adaptsim/interval_simulator.hpp, IntervalSimulationOptions).
const std::vector<PolicyOption>& IntervalEngineOptions();

/// A constructed policy, one of the three policy interfaces: an AllocationPolicy (Gavel-style;
/// the round engine runs it through the Gavel mechanism, MakeRoundScheduler), a RoundScheduler
/// (drives the round engine directly) or an IntervalPolicy (the interval engine).
using PolicyInstance =
    std::variant<std::unique_ptr<AllocationPolicy>, std::unique_ptr<RoundScheduler>,
                 std::unique_ptr<IntervalPolicy>>;

/// Builds a policy from its options; `context` names the input for error messages.
using PolicyFactory =
    std::function<PolicyInstance(const nlohmann::json& options, const std::string& context)>;

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

/// Knobs of the Gavel mechanism that runs an AllocationPolicy in the round engine
/// (policies/gavel_mechanism.hpp); defaults are the round engine's (SimulationOptions).
struct GavelMechanismOptions {
  double round_duration_s = 120.0;              ///< T_r; a job's time prior is T_r / 2
  double allocation_reset_interval_s = 1000.0;  ///< reset gate of the re-solves (§7.4)
};

/// The round engine's scheduler for a round-engine policy: an AllocationPolicy is wrapped in the
/// Gavel mechanism, a RoundScheduler is returned as it is. An IntervalPolicy is a programming
/// error (checked): RunTask hands it to the interval engine.
std::unique_ptr<RoundScheduler> MakeRoundScheduler(PolicyInstance policy,
                                                   const GavelMechanismOptions& options);

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
/// registers its test aids this way (tests/test_aids/); the shipped program registers nothing.
/// Must run before the first RegisteredPolicies() or MakePolicy() call (e.g. from a static
/// initialiser); throws std::logic_error afterwards or for a name already registered.
void RegisterTestPolicy(PolicyInfo info, PolicyFactory factory);

}  // namespace adaptsim
