// The policy table. Names follow the reference's `--policy` strings.
#include "adaptsim/registry.hpp"

#include <functional>
#include <stdexcept>

#include "adaptsim/error.hpp"
#include "policies/baseline_factories.hpp"
#include "policies/fifo.hpp"
#include "policies/gandiva_fair.hpp"
#include "policies/interval_registry.hpp"
#include "policies/max_min_fairness.hpp"
#include "policies/policy_options.hpp"
#include "policies/replay.hpp"
#include "policies/shockwave.hpp"

namespace adaptsim {
namespace {

struct Entry {
  PolicyInfo info;
  PolicyFactory factory;
};

PolicyInstance Allocation(std::unique_ptr<AllocationPolicy> policy) {
  PolicyInstance instance;
  instance.allocation = std::move(policy);
  return instance;
}

PolicyInstance MakeMaxMinFairness(const nlohmann::json& options, const std::string& context) {
  internal::RequireKnownOptions(options, "max_min_fairness", {"face_rule", "face_position"},
                                context);
  MaxMinFairnessOptions parsed;
  std::string rule = internal::StringOption(options, "max_min_fairness", "face_rule", "", context);
  if (rule == "lower") parsed.face_position = 0.0;
  if (rule == "centre" || rule == "center") parsed.face_position = 0.5;
  if (rule == "fill") parsed.face_position = 1.0;
  if (!rule.empty() && rule != "lower" && rule != "centre" && rule != "center" && rule != "fill") {
    throw InputError(context, 0, "max_min_fairness.face_rule",
                     "unknown face rule '" + rule + "' (known: lower, centre, fill)");
  }
  parsed.face_position = internal::NumberOption(options, "max_min_fairness", "face_position",
                                                parsed.face_position, context);
  if (!(parsed.face_position >= 0.0 && parsed.face_position <= 1.0)) {
    throw InputError(context, 0, "max_min_fairness.face_position", "must be in [0, 1]");
  }
  return Allocation(std::make_unique<MaxMinFairnessPolicy>(parsed));
}

PolicyInstance MakeReplay(const nlohmann::json& options, const std::string& context) {
  internal::RequireKnownOptions(options, "replay", {"schedule"}, context);
  std::string path = internal::StringOption(options, "replay", "schedule", "", context);
  if (path.empty()) {
    throw InputError(context, 0, "replay.schedule",
                     "replay needs option 'schedule' (a results JSON with per_round_schedule)");
  }
  PolicyInstance instance;
  instance.round_scheduler = std::make_unique<ReplayPolicy>(ReplayPolicy::FromJsonFile(path));
  return instance;
}

const std::vector<Entry>& Table() {
  static const std::vector<Entry> kTable = {
      {{"fifo",
        "first in, first out; non-preemptive, the reference's admission (option "
        "respect_capacity)"},
       [](const nlohmann::json& o, const std::string& c) {
         internal::RequireKnownOptions(o, "fifo", {"respect_capacity"}, c);
         FifoOptions parsed;
         parsed.respect_capacity =
             internal::BoolOption(o, "fifo", "respect_capacity", parsed.respect_capacity, c);
         return Allocation(std::make_unique<FifoPolicy>(parsed));
       }},
      {{"gandiva_fair", "Gandiva-Fair: equal time share min(1, G/m) per job"},
       [](const nlohmann::json& o, const std::string& c) {
         internal::RequireKnownOptions(o, "gandiva_fair", {}, c);
         return Allocation(std::make_unique<GandivaFairPolicy>());
       }},
      {{"max_min_fairness", "Gavel/LAS max-min fairness (closed form; option face_rule)"},
       MakeMaxMinFairness},
      {{"replay", "plays back a recorded per_round_schedule (option schedule=PATH)"}, MakeReplay},
      {{"pollux",
        "Pollux (OSDI'21) goodput GA; Pollux .csv workloads (options p, interval_s, ...)"},
       [](const nlohmann::json& o, const std::string& c) {
         return IntervalPolicyRegistryEntry("pollux", o, c);
       }},
      {{"optimus", "Optimus+Oracle (Pollux artifact); Pollux .csv workloads"},
       [](const nlohmann::json& o, const std::string& c) {
         return IntervalPolicyRegistryEntry("optimus", o, c);
       }},
      {{"tiresias", "Tiresias 2-queue LAS (Pollux artifact); Pollux .csv workloads"},
       [](const nlohmann::json& o, const std::string& c) {
         return IntervalPolicyRegistryEntry("tiresias", o, c);
       }},
      {{"shockwave",
        "Shockwave: NSW over a planning window (options: config=JSON, reference keys)"},
       [](const nlohmann::json& o, const std::string& c) {
         PolicyInstance instance;
         instance.round_scheduler =
             std::make_unique<ShockwavePolicy>(ShockwaveConfigFromOptions(o, c));
         return instance;
       }},
      {{"min_total_duration", "OSSP: smallest horizon T (reference bisection); option face_rule"},
       internal::MakeMinTotalDuration},
      {{"finish_time_fairness", "Themis: minimise the worst finish-time ratio; option face_rule"},
       internal::MakeFinishTimeFairness},
      {{"max_sum_throughput_perf", "MST: maximise the sum of raw throughputs (symmetric ties)"},
       internal::MakeMaxSumThroughput},
      {{"max_sum_throughput", "alias of max_sum_throughput_perf"}, internal::MakeMaxSumThroughput},
      {{"allox", "AlloX: min-cost assignment of the oldest jobs (option alpha, default 0.2)"},
       internal::MakeAlloX},
      {{"isolated", "equal GPU share: x = min(1, G/(m s))"}, internal::MakeIsolated},
      {{"isolated_plus", "x = min(1, G/m) with strict-priority selection"},
       internal::MakeIsolatedPlus},
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

}  // namespace

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
  extra.entries.push_back({std::move(info), std::move(factory)});
}

const std::vector<PolicyInfo>& RegisteredPolicies() {
  static const std::vector<PolicyInfo> kInfos = [] {
    std::vector<PolicyInfo> infos;
    for (const Entry& entry : AllEntries()) infos.push_back(entry.info);
    return infos;
  }();
  return kInfos;
}

PolicyInstance MakePolicy(const std::string& name, const nlohmann::json& options,
                          const std::string& context) {
  for (const Entry& entry : AllEntries()) {
    if (entry.info.name == name) return entry.factory(options, context);
  }
  std::string known;
  for (const Entry& entry : AllEntries()) known += (known.empty() ? "" : ", ") + entry.info.name;
  throw InputError(context, 0, "policy", "unknown policy '" + name + "' (known: " + known + ")");
}

}  // namespace adaptsim
