// The policy table: the policy families' tables (include/adaptsim/policy_family.hpp), concatenated.
// Names follow the reference's `--policy` strings; each entry's options are its options struct's
// declaration (include/adaptsim/policy_options.hpp).
#include "adaptsim/registry.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

#include "adaptsim/error.hpp"
#include "gavel/gavel_family.hpp"
#include "pollux/pollux_family.hpp"
#include "replay/replay_family.hpp"
#include "shockwave/shockwave_family.hpp"
#include "sia/sia_family.hpp"

namespace adaptsim {
namespace {

/// The policy families, in table order: each contributes its own table of policies
/// (include/adaptsim/policy_family.hpp). A new family adds its folder and one line here.
constexpr std::vector<PolicyEntry> (*kFamilies[])() = {
    GavelFamilyPolicies,  ShockwaveFamilyPolicies, PolluxFamilyPolicies,
    ReplayFamilyPolicies, SiaFamilyPolicies,
};

/// The families' tables, concatenated.
const std::vector<PolicyEntry>& Table() {
  static const std::vector<PolicyEntry> kTable = [] {
    std::vector<PolicyEntry> table;
    for (auto family : kFamilies) {
      for (PolicyEntry& entry : family()) table.push_back(std::move(entry));
    }
    return table;
  }();
  return kTable;
}

// Policies added by RegisterTestPolicy (test programs only), and whether the table was read.
struct TestPolicies {
  std::vector<PolicyEntry> entries;
  bool sealed = false;
};

TestPolicies& ExtraPolicies() {
  static TestPolicies extra;
  return extra;
}

// The table followed by the test programs' additions; reading it seals the additions.
const std::vector<PolicyEntry>& AllEntries() {
  static const std::vector<PolicyEntry> kAll = [] {
    ExtraPolicies().sealed = true;
    std::vector<PolicyEntry> all = Table();
    for (const PolicyEntry& entry : ExtraPolicies().entries) all.push_back(entry);
    return all;
  }();
  return kAll;
}

// Schemes registered by RegisterPolicyScheme, and the entries they described (stable references
// for FindPolicy).
struct Schemes {
  std::map<std::string, PolicyScheme> functions;
  std::map<std::string, PolicyInfo> described;
};

Schemes& RegisteredSchemes() {
  static Schemes schemes;
  return schemes;
}

/// The scheme of `name` ("py" for "py:mod:Class") when it is registered, else nullptr.
const PolicyScheme* SchemeOf(const std::string& name) {
  const std::size_t colon = name.find(':');
  if (colon == std::string::npos) return nullptr;
  const auto& functions = RegisteredSchemes().functions;
  auto it = functions.find(name.substr(0, colon));
  return it == functions.end() ? nullptr : &it->second;
}

const PolicyEntry& FindEntry(const std::string& name, const std::string& context) {
  for (const PolicyEntry& entry : AllEntries()) {
    if (entry.info.name == name) return entry;
  }
  std::string known;
  for (const PolicyEntry& entry : AllEntries())
    known += (known.empty() ? "" : ", ") + entry.info.name;
  throw InputError(context, 0, "policy", "unknown policy '" + name + "' (known: " + known + ")");
}

/// The one check of a table policy's option keys: `options` is an object (or null = none) whose
/// every key is one of info.options; InputError(context, "<policy>.<key>") otherwise.
void RequireDeclaredOptions(const PolicyInfo& info, const nlohmann::json& options,
                            const std::string& context) {
  if (!options.is_null() && !options.is_object()) {
    throw InputError(context, 0, info.name, "policy options must be a table of KEY = VALUE");
  }
  std::vector<std::string> known;
  for (const PolicyOption& option : info.options) known.push_back(option.name);
  RequireKnownKeys(options, known, {context, info.name}, "option for policy '" + info.name + "'");
}

}  // namespace

void RegisterTestPolicy(PolicyEntry entry) {
  TestPolicies& extra = ExtraPolicies();
  const std::string& name = entry.info.name;
  if (extra.sealed) {
    throw std::logic_error("RegisterTestPolicy('" + name + "') after the policy table was read");
  }
  auto named = [&](const PolicyEntry& other) { return other.info.name == name; };
  if (std::any_of(Table().begin(), Table().end(), named) ||
      std::any_of(extra.entries.begin(), extra.entries.end(), named)) {
    throw std::logic_error("RegisterTestPolicy: '" + name + "' is already registered");
  }
  extra.entries.push_back(std::move(entry));
}

const std::vector<PolicyInfo>& RegisteredPolicies() {
  static const std::vector<PolicyInfo> kInfos = [] {
    std::vector<PolicyInfo> infos;
    for (const PolicyEntry& entry : AllEntries()) infos.push_back(entry.info);
    return infos;
  }();
  return kInfos;
}

void RegisterPolicyScheme(const std::string& scheme, PolicyScheme functions) {
  RegisteredSchemes().functions[scheme] = std::move(functions);
}

std::string PolicyIdentity(const std::string& name) {
  const PolicyScheme* scheme = SchemeOf(name);
  return scheme && scheme->identity ? scheme->identity(name) : std::string();
}

const PolicyInfo& FindPolicy(const std::string& name, const std::string& context) {
  if (const PolicyScheme* scheme = SchemeOf(name)) {
    auto& described = RegisteredSchemes().described;
    auto it = described.find(name);
    if (it == described.end()) it = described.emplace(name, scheme->describe(name, context)).first;
    return it->second;
  }
  return FindEntry(name, context).info;
}

PolicyInstance MakePolicy(const std::string& name, const nlohmann::json& options,
                          const std::string& context, std::uint64_t seed) {
  if (const PolicyScheme* scheme = SchemeOf(name)) {
    return scheme->make(name, options, context, seed);
  }
  const PolicyEntry& entry = FindEntry(name, context);
  RequireDeclaredOptions(entry.info, options, context);
  return entry.make(options, context, seed);
}

}  // namespace adaptsim
