// The policy registry: the table as the families' tables concatenated, the table's option metadata
// (every declared option is accepted at its default, every undeclared key is rejected) and the
// scheme mechanism behind "py:MODULE:CLASS" (RegisterPolicyScheme: look-up, construction, the code
// identity in the task id).
#include <memory>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/task.hpp"
#include "policies/gavel/gavel_family.hpp"
#include "policies/pollux/pollux_family.hpp"
#include "policies/replay/replay_family.hpp"
#include "policies/shockwave/shockwave_family.hpp"
#include "policies/sia/sia_family.hpp"

namespace adaptsim {
namespace {

// The table is the families' tables, concatenated in the order of the families: each family's
// entries appear unchanged (name, description, engine, options), every name once.
TEST(Registry, TheTableIsTheFamiliesTablesConcatenated) {
  std::vector<PolicyEntry> families;
  for (auto family : {GavelFamilyPolicies, ShockwaveFamilyPolicies, PolluxFamilyPolicies,
                      ReplayFamilyPolicies, SiaFamilyPolicies}) {
    std::vector<PolicyEntry> entries = family();
    EXPECT_FALSE(entries.empty());
    for (PolicyEntry& entry : entries) families.push_back(std::move(entry));
  }
  const std::vector<PolicyInfo>& table = RegisteredPolicies();
  ASSERT_EQ(table.size(), families.size());
  std::set<std::string> names;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const PolicyInfo& listed = table[i];
    const PolicyInfo& declared = families[i].info;
    EXPECT_EQ(listed.name, declared.name) << "row " << i;
    EXPECT_TRUE(names.insert(listed.name).second) << listed.name << " is listed twice";
    EXPECT_EQ(listed.description, declared.description) << listed.name;
    EXPECT_EQ(listed.engine, declared.engine) << listed.name;
    // The table adds nothing: an interval policy takes no engine keys (the interval engine's
    // options are the task's, TaskConfig::interval).
    ASSERT_EQ(listed.options.size(), declared.options.size()) << listed.name;
    for (std::size_t k = 0; k < listed.options.size(); ++k) {
      EXPECT_EQ(listed.options[k].name, declared.options[k].name) << listed.name;
      EXPECT_EQ(listed.options[k].default_value, declared.options[k].default_value) << listed.name;
      EXPECT_EQ(listed.options[k].doc, declared.options[k].doc) << listed.name;
    }
  }
  // The families' entries build the interface of their engine.
  for (const PolicyEntry& entry : families) {
    if (entry.info.name == "replay") continue;  // needs a schedule file
    const PolicyInstance policy = entry.make(nlohmann::json::object(), "test", 1);
    const bool interval = std::holds_alternative<std::unique_ptr<IntervalPolicy>>(policy);
    EXPECT_EQ(interval, entry.info.engine == EngineKind::kInterval) << entry.info.name;
  }
}

TEST(Registry, EveryDeclaredOptionHasADocAndItsDefaultIsAccepted) {
  int checked = 0;
  for (const PolicyInfo& info : RegisteredPolicies()) {
    for (const PolicyOption& option : info.options) {
      EXPECT_FALSE(option.doc.empty()) << info.name << "." << option.name;
      if (option.default_value.is_null()) {
        // A required option (replay's schedule) says so.
        EXPECT_EQ(option.doc.rfind("required", 0), 0u) << info.name << "." << option.name;
        continue;
      }
      const nlohmann::json options = {{option.name, option.default_value}};
      EXPECT_NO_THROW(MakePolicy(info.name, options)) << info.name << "." << option.name;
      ++checked;
    }
  }
  EXPECT_GT(checked, 30);
}

// The interval engine's options are the task's (TaskConfig::interval), not any policy's.
TEST(Registry, IntervalPoliciesDoNotTakeTheEngineOptions) {
  int checked = 0;
  for (const PolicyInfo& info : RegisteredPolicies()) {
    if (info.engine != EngineKind::kInterval) continue;
    for (const char* engine : {"interval_s", "restart_delay_s", "interference", "gpus_per_node"}) {
      for (const PolicyOption& option : info.options) EXPECT_NE(option.name, engine) << info.name;
      EXPECT_THROW(MakePolicy(info.name, {{engine, 1}}), InputError) << info.name << "." << engine;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 32);  // pollux, pollux_unaware, optimus, tiresias, sia, gavel_tj, themis_tj,
                           // shockwave_tj
}

TEST(Registry, AnUndeclaredOptionIsRejectedNamingPolicyAndKey) {
  for (const PolicyInfo& info : RegisteredPolicies()) {
    try {
      MakePolicy(info.name, {{"no_such_option", 1}}, "spec.toml");
      ADD_FAILURE() << info.name << " accepted an undeclared option";
    } catch (const InputError& error) {
      EXPECT_EQ(error.file(), "spec.toml");
      EXPECT_EQ(error.field(), info.name + ".no_such_option") << info.name;
    }
  }
}

// A scheme whose functions record their calls.
struct Calls {
  int describe = 0;
  int make = 0;
  nlohmann::json options;
  std::uint64_t seed = 0;
  std::string identity = "sha1:aaaa";
};

Calls& TestSchemeCalls() {
  static Calls calls;
  return calls;
}

void RegisterTestScheme() {
  PolicyScheme scheme;
  scheme.describe = [](const std::string& name, const std::string& context) {
    ++TestSchemeCalls().describe;
    if (name == "testscheme:missing") {
      throw InputError(context, 0, "policy", "cannot resolve '" + name + "'");
    }
    return PolicyInfo{name, "a policy of the test scheme", EngineKind::kInterval};
  };
  scheme.make = [](const std::string& name, const nlohmann::json& options, const std::string&,
                   std::uint64_t seed) {
    (void)name;
    ++TestSchemeCalls().make;
    TestSchemeCalls().options = options;
    TestSchemeCalls().seed = seed;
    return MakePolicy("tiresias", nlohmann::json::object());
  };
  scheme.identity = [](const std::string&) { return TestSchemeCalls().identity; };
  RegisterPolicyScheme("testscheme", scheme);
}

TEST(Registry, SchemeNamesAreResolvedByTheSchemeAndDescribedOnce) {
  RegisterTestScheme();
  const int before = TestSchemeCalls().describe;
  const PolicyInfo& info = FindPolicy("testscheme:pkg.mod:Class");
  EXPECT_EQ(info.name, "testscheme:pkg.mod:Class");
  EXPECT_EQ(info.engine, EngineKind::kInterval);
  EXPECT_EQ(&FindPolicy("testscheme:pkg.mod:Class"), &info);  // cached, stable reference
  EXPECT_EQ(TestSchemeCalls().describe, before + 1);
  try {
    FindPolicy("testscheme:missing", "spec.toml");
    ADD_FAILURE() << "an unresolvable scheme name was found";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "spec.toml");
    EXPECT_EQ(error.field(), "policy");
  }
}

TEST(Registry, SchemeMakeGetsTheOptionsAndSeedUnchecked) {
  RegisterTestScheme();
  const nlohmann::json options = {{"anything", 3}, {"interval_s", 30}};
  PolicyInstance policy = MakePolicy("testscheme:pkg.mod:Class", options, "policy", 42);
  EXPECT_TRUE(std::holds_alternative<std::unique_ptr<IntervalPolicy>>(policy));
  EXPECT_EQ(TestSchemeCalls().options, options);
  EXPECT_EQ(TestSchemeCalls().seed, 42u);
}

TEST(Registry, UnregisteredSchemeIsAnUnknownPolicy) {
  try {
    FindPolicy("nosuchscheme:pkg.mod:Class", "spec.toml");
    ADD_FAILURE() << "an unregistered scheme was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "policy");
    EXPECT_NE(std::string(error.what()).find("unknown policy"), std::string::npos);
  }
  EXPECT_EQ(PolicyIdentity("nosuchscheme:pkg.mod:Class"), "");
}

TEST(Registry, TheSchemeIdentityIsPartOfTheTaskId) {
  RegisterTestScheme();
  EXPECT_EQ(PolicyIdentity("tiresias"), "");
  TaskConfig task;
  task.trace_path = "workload.csv";
  task.throughputs_path = "traces";
  task.policy = "testscheme:pkg.mod:Class";
  TestSchemeCalls().identity = "sha1:aaaa";
  EXPECT_EQ(PolicyIdentity(task.policy), "sha1:aaaa");
  const std::string first = task.Id();
  TestSchemeCalls().identity = "sha1:bbbb";  // the policy's source changed
  const std::string second = task.Id();
  EXPECT_NE(first, second);
  TestSchemeCalls().identity = "sha1:aaaa";
  EXPECT_EQ(task.Id(), first);
}

}  // namespace
}  // namespace adaptsim
