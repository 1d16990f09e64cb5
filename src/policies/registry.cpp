// The policy table. Names follow the reference's `--policy` strings; each entry's options are its
// options struct's declaration (policy_options.hpp).
#include "adaptsim/registry.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <type_traits>

#include "adaptsim/error.hpp"
#include "adaptsim/policy_options.hpp"
#include "gavel/allox.hpp"
#include "gavel/fifo.hpp"
#include "gavel/finish_time_fairness.hpp"
#include "gavel/gandiva_fair.hpp"
#include "gavel/isolated.hpp"
#include "gavel/isolated_plus.hpp"
#include "gavel/max_min_fairness.hpp"
#include "gavel/max_sum_throughput.hpp"
#include "gavel/min_total_duration.hpp"
#include "pollux/optimus.hpp"
#include "pollux/pollux.hpp"
#include "pollux/tiresias.hpp"
#include "replay/replay.hpp"
#include "shockwave/shockwave.hpp"

namespace adaptsim {
namespace {

/// Builds a policy from its (checked) JSON options, its input's name and the task seed.
using Factory = std::function<PolicyInstance(const nlohmann::json& options,
                                             const std::string& context, std::uint64_t seed)>;

struct Entry {
  PolicyInfo info;
  Factory factory;
};

std::vector<PolicyOption> WithEngineOptions(std::vector<PolicyOption> options) {
  std::vector<PolicyOption> all = IntervalEngineOptions();
  for (PolicyOption& option : options) {
    std::erase_if(all, [&](const PolicyOption& o) { return o.name == option.name; });
  }
  options.insert(options.end(), all.begin(), all.end());
  return options;
}

/// The entry of a policy whose options are the declaration of O: PolicyInfo::options lists O's
/// options (and the interval engine's keys for an interval policy), and the factory parses the
/// JSON into O (InputError(context, "<name>.<option>")) and hands it to `make` — `make(O)`, or
/// `make(O, seed)` for a policy with random streams.
template <typename O, typename Make>
Entry Declared(std::string name, std::string description, EngineKind engine, Make make) {
  std::vector<PolicyOption> options = DescribeOptions<O>();
  if (engine == EngineKind::kInterval) options = WithEngineOptions(std::move(options));
  Factory factory = [name, make](const nlohmann::json& json, const std::string& context,
                                 std::uint64_t seed) {
    O parsed = ParseOptions<O>(json, {context, name});
    if constexpr (std::is_invocable_v<Make, O, std::uint64_t>) {
      return make(std::move(parsed), seed);
    } else {
      return make(std::move(parsed));
    }
  };
  return {{std::move(name), std::move(description), engine, std::move(options)},
          std::move(factory)};
}

/// `make` for a policy P of interface I built from its options struct (without arguments when
/// the struct is NoOptions).
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

const std::vector<Entry>& Table() {
  using enum EngineKind;
  static const std::vector<Entry> kTable = {
      Declared<FifoOptions>("fifo",
                            "first in, first out; non-preemptive, the reference's admission "
                            "(option respect_capacity)",
                            kRound, Construct<AllocationPolicy, FifoPolicy>()),
      Declared<NoOptions>("gandiva_fair", "Gandiva-Fair: equal time share min(1, G/m) per job",
                          kRound, Construct<AllocationPolicy, GandivaFairPolicy>()),
      Declared<MaxMinFairnessOptions>("max_min_fairness",
                                      "Gavel/LAS max-min fairness (closed form; option face_rule)",
                                      kRound, Construct<AllocationPolicy, MaxMinFairnessPolicy>()),
      Declared<ReplayOptions>(
          "replay", "plays back a recorded per_round_schedule (option schedule=PATH)", kRound,
          [](const ReplayOptions& options) {
            return PolicyInstance(std::unique_ptr<RoundScheduler>(
                std::make_unique<ReplayPolicy>(ReplayPolicy::FromJsonFile(options.schedule))));
          }),
      Declared<PolluxOptions>(
          "pollux", "Pollux (OSDI'21) goodput GA; interval engine (options p, interval_s, ...)",
          kInterval,
          [](PolluxOptions options, std::uint64_t seed) {
            options.seed = seed;
            return PolicyInstance(
                std::unique_ptr<IntervalPolicy>(std::make_unique<PolluxPolicy>(options)));
          }),
      Declared<NoOptions>("optimus", "Optimus+Oracle (Pollux artifact); interval engine", kInterval,
                          Construct<IntervalPolicy, OptimusPolicy>()),
      Declared<NoOptions>("tiresias", "Tiresias 2-queue LAS (Pollux artifact); interval engine",
                          kInterval, Construct<IntervalPolicy, TiresiasPolicy>()),
      Declared<ShockwaveOptions>(
          "shockwave",
          "Shockwave: NSW over a planning window (options: config=JSON, reference keys)", kRound,
          Construct<RoundScheduler, ShockwavePolicy>()),
      Declared<MinTotalDurationOptions>(
          "min_total_duration", "OSSP: smallest horizon T (reference bisection); option face_rule",
          kRound, Construct<AllocationPolicy, MinTotalDurationPolicy>()),
      Declared<FinishTimeFairnessOptions>(
          "finish_time_fairness", "Themis: minimise the worst finish-time ratio; option face_rule",
          kRound, Construct<AllocationPolicy, FinishTimeFairnessPolicy>()),
      Declared<MaxSumThroughputOptions>(
          "max_sum_throughput_perf", "MST: maximise the sum of raw throughputs (symmetric ties)",
          kRound, Construct<AllocationPolicy, MaxSumThroughputPolicy>()),
      Declared<MaxSumThroughputOptions>("max_sum_throughput", "alias of max_sum_throughput_perf",
                                        kRound,
                                        Construct<AllocationPolicy, MaxSumThroughputPolicy>()),
      Declared<AlloXOptions>("allox",
                             "AlloX: min-cost assignment of the oldest jobs (option alpha)", kRound,
                             Construct<AllocationPolicy, AlloXPolicy>()),
      Declared<NoOptions>("isolated", "equal GPU share: x = min(1, G/(m s))", kRound,
                          Construct<AllocationPolicy, IsolatedPolicy>()),
      Declared<NoOptions>("isolated_plus", "x = min(1, G/m) with strict-priority selection", kRound,
                          Construct<AllocationPolicy, IsolatedPlusPolicy>()),
  };
  return kTable;
}

// Policies added by RegisterTestPolicy (test programs only), and whether the table was read.
struct TestPolicies {
  std::vector<Entry> entries;
  bool sealed = false;
};

TestPolicies& ExtraPolicies() {
  static TestPolicies extra;
  return extra;
}

// The table followed by the test programs' additions; reading it seals the additions.
const std::vector<Entry>& AllEntries() {
  static const std::vector<Entry> kAll = [] {
    ExtraPolicies().sealed = true;
    std::vector<Entry> all = Table();
    for (const Entry& entry : ExtraPolicies().entries) all.push_back(entry);
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

const Entry& FindEntry(const std::string& name, const std::string& context) {
  for (const Entry& entry : AllEntries()) {
    if (entry.info.name == name) return entry;
  }
  std::string known;
  for (const Entry& entry : AllEntries()) known += (known.empty() ? "" : ", ") + entry.info.name;
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

const std::vector<PolicyOption>& IntervalEngineOptions() {
  static const std::vector<PolicyOption> kOptions = {
      {"interval_s", 60.0, "s, scheduling interval of the interval engine"},
      {"restart_delay_s", 30.0, "s without progress after each (re)allocation"},
      {"interference", 0.0,
       "slowdown in [0, 1) of distributed jobs sharing a node with another distributed job"},
      {"gpus_per_node", 4,
       "GPUs per node, integer in [1, 9] (default 4 on a Pollux workload, the catalogue's node "
       "size on a trace)"},
  };
  return kOptions;
}

void RegisterTestPolicy(PolicyInfo info, PolicyFactory factory) {
  TestPolicies& extra = ExtraPolicies();
  if (extra.sealed) {
    throw std::logic_error("RegisterTestPolicy('" + info.name +
                           "') after the policy table was read");
  }
  for (const Entry& entry : Table()) {
    if (entry.info.name == info.name) {
      throw std::logic_error("RegisterTestPolicy: '" + info.name + "' is already registered");
    }
  }
  for (const Entry& entry : extra.entries) {
    if (entry.info.name == info.name) {
      throw std::logic_error("RegisterTestPolicy: '" + info.name + "' is already registered");
    }
  }
  extra.entries.push_back(
      {std::move(info),
       [factory = std::move(factory)](const nlohmann::json& options, const std::string& context,
                                      std::uint64_t) { return factory(options, context); }});
}

const std::vector<PolicyInfo>& RegisteredPolicies() {
  static const std::vector<PolicyInfo> kInfos = [] {
    std::vector<PolicyInfo> infos;
    for (const Entry& entry : AllEntries()) infos.push_back(entry.info);
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
  const Entry& entry = FindEntry(name, context);
  RequireDeclaredOptions(entry.info, options, context);
  return entry.factory(options, context, seed);
}

std::string_view ToString(EngineKind engine) {
  return engine == EngineKind::kInterval ? "interval" : "round";
}

}  // namespace adaptsim
