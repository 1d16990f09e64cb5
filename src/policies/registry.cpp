// The policy table. Names follow the reference's `--policy` strings.
#include "adaptsim/registry.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>

#include "adaptsim/error.hpp"
#include "baseline_factories.hpp"
#include "fifo.hpp"
#include "gandiva_fair.hpp"
#include "max_min_fairness.hpp"
#include "optimus.hpp"
#include "policy_options.hpp"
#include "pollux.hpp"
#include "replay.hpp"
#include "shockwave.hpp"
#include "tiresias.hpp"

namespace adaptsim {
namespace {

using Factory = std::function<PolicyInstance(const nlohmann::json&, const std::string&)>;
using SeededFactory =
    std::function<PolicyInstance(const nlohmann::json&, const std::string&, std::uint64_t seed)>;

/// One policy: `factory` builds it, or `seeded` for a policy with random streams.
struct Entry {
  PolicyInfo info;
  Factory factory;
  SeededFactory seeded = nullptr;
};

PolicyInstance Allocation(std::unique_ptr<AllocationPolicy> policy) {
  return PolicyInstance(std::move(policy));
}

PolicyInstance Scheduler(std::unique_ptr<RoundScheduler> scheduler) {
  return PolicyInstance(std::move(scheduler));
}

PolicyInstance Interval(std::unique_ptr<IntervalPolicy> policy) {
  return PolicyInstance(std::move(policy));
}

void RequireObject(const nlohmann::json& options, const std::string& name,
                   const std::string& context) {
  if (!options.is_object()) throw InputError(context, 0, name, "options must be an object");
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
  return Scheduler(std::make_unique<ReplayPolicy>(ReplayPolicy::FromJsonFile(path)));
}

// Options shared by several policies.
PolicyOption FaceRuleOption(const char* default_rule, const char* choices) {
  return {"face_rule", default_rule,
          std::string("point of a non-unique optimal face (docs/policies.md §6): ") + choices};
}
const PolicyOption kSolverOption = {
    "solver", "closed_form",
    "closed_form (exact, the reference's optimum) | clp (the LP solved by CLP)"};
const PolicyOption kMaxIterationsOption = {
    "max_iterations", 1000, "CLP iteration limit per LP (solver = clp), integer in [1, 1e9]"};

std::vector<PolicyOption> WithEngineOptions(std::vector<PolicyOption> options) {
  std::vector<PolicyOption> all = IntervalEngineOptions();
  for (PolicyOption& option : options) {
    std::erase_if(all, [&](const PolicyOption& o) { return o.name == option.name; });
  }
  options.insert(options.end(), all.begin(), all.end());
  return options;
}

const std::vector<Entry>& Table() {
  static const std::vector<Entry> kTable = {
      {{"fifo",
        "first in, first out; non-preemptive, the reference's admission (option "
        "respect_capacity)",
        EngineKind::kRound,
        {{"respect_capacity", false,
          "admit a job only while the admitted jobs' GPUs fit the cluster (false = the "
          "reference's admission, which may over-admit)"}}},
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
      {{"max_min_fairness",
        "Gavel/LAS max-min fairness (closed form; option face_rule)",
        EngineKind::kRound,
        {FaceRuleOption("centre", "lower | centre | fill (face_position 0, 0.5, 1)"),
         {"face_position", 0.5,
          "position on the optimal face, in [0, 1] (0 = lower bounds, 1 = fill the cluster); "
          "overrides face_rule"}}},
       MakeMaxMinFairness},
      {{"replay",
        "plays back a recorded per_round_schedule (option schedule=PATH)",
        EngineKind::kRound,
        {{"schedule", nullptr,
          "required: path of a results JSON with per_round_schedule (no default)"}}},
       MakeReplay},
      {{"pollux", "Pollux (OSDI'21) goodput GA; interval engine (options p, interval_s, ...)",
        EngineKind::kInterval,
        WithEngineOptions({
            {"p", -1.0, "power-mean exponent of the fitness (<= 1; more negative = fairer)"},
            {"restart_delay_s", 30.0,
             "s, re-allocation delay in the fitness's restart factor and in the engine"},
            {"interference_avoidance", true,
             "forbid two distributed jobs on one node (the artifact's default)"},
            {"population", 100, "genetic algorithm population size, integer >= 1"},
            {"generations", 100,
             "genetic algorithm generations (the initial population counts), integer >= 1"},
            {"crossover_probability", 0.9, "probability that two parents cross over, [0, 1]"},
        })},
       nullptr,
       [](const nlohmann::json& o, const std::string& c, std::uint64_t seed) {
         RequireObject(o, "pollux", c);
         return Interval(PolluxPolicy::FromOptions(o, c, seed));
       }},
      {{"optimus", "Optimus+Oracle (Pollux artifact); interval engine", EngineKind::kInterval,
        IntervalEngineOptions()},
       [](const nlohmann::json& o, const std::string& c) {
         RequireObject(o, "optimus", c);
         return Interval(OptimusPolicy::FromOptions(o, c));
       }},
      {{"tiresias", "Tiresias 2-queue LAS (Pollux artifact); interval engine",
        EngineKind::kInterval, IntervalEngineOptions()},
       [](const nlohmann::json& o, const std::string& c) {
         RequireObject(o, "tiresias", c);
         return Interval(TiresiasPolicy::FromOptions(o, c));
       }},
      {{"shockwave",
        "Shockwave: NSW over a planning window (options: config=JSON, reference keys)",
        EngineKind::kRound,
        {
            {"config", "",
             "path of a Shockwave configuration JSON read first (\"\" = none); the other "
             "options override its keys"},
            {"future_rounds", 20, "T, the planning window in rounds, integer >= 1"},
            {"k", 1e-3, "weight of the makespan term k · max remaining time, 1/s, >= 0"},
            {"lambda", 12.0, "exponent of the fairness weight rho^lambda, >= 0"},
            {"rhomax", 1.0, "rho_max, bound of the finish-time fairness rows, > 0"},
            {"log_approximation_bases",
             {0.0, 0.2, 0.4, 0.6, 0.8, 1.0},
             "breakpoints of the piecewise-linear log, increasing in [0, 1] from 0"},
            {"gpu_ram", 16.0, "GB; read and unused, as in the reference"},
            {"solver", "structured",
             "structured | structured_reference | general (CBC on the whole MILP)"},
            {"solver_rel_gap", 1e-3, "relative MIP gap of the general solver, >= 0"},
            {"solver_timeout", 15.0, "s per MILP call, applied only when solver_wall_clock"},
            {"solver_num_threads", 24, "read; CBC runs single-threaded (deterministic)"},
            {"solver_max_nodes", 20000, "CBC node limit per MILP call, integer >= 1"},
            {"solver_wall_clock", false,
             "apply solver_timeout (results then depend on the machine)"},
        }},
       [](const nlohmann::json& o, const std::string& c) {
         return Scheduler(std::make_unique<ShockwavePolicy>(ShockwaveConfigFromOptions(o, c)));
       }},
      {{"min_total_duration",
        "OSSP: smallest horizon T (reference bisection); option face_rule",
        EngineKind::kRound,
        {FaceRuleOption("analytic_center", "analytic_center | clp_barrier | vertex"), kSolverOption,
         kMaxIterationsOption}},
       internal::MakeMinTotalDuration},
      {{"finish_time_fairness",
        "Themis: minimise the worst finish-time ratio; option face_rule",
        EngineKind::kRound,
        {FaceRuleOption("analytic_center", "analytic_center | lower | fill | clp_barrier"),
         kSolverOption, kMaxIterationsOption}},
       internal::MakeFinishTimeFairness},
      {{"max_sum_throughput_perf",
        "MST: maximise the sum of raw throughputs (symmetric ties)",
        EngineKind::kRound,
        {kSolverOption,
         {"tie_tolerance", 1e-9, "relative throughput difference treated as a tie, [0, 1e-3]"},
         kMaxIterationsOption}},
       internal::MakeMaxSumThroughput},
      {{"max_sum_throughput",
        "alias of max_sum_throughput_perf",
        EngineKind::kRound,
        {kSolverOption,
         {"tie_tolerance", 1e-9, "relative throughput difference treated as a tie, [0, 1e-3]"},
         kMaxIterationsOption}},
       internal::MakeMaxSumThroughput},
      {{"allox",
        "AlloX: min-cost assignment of the oldest jobs (option alpha, default 0.2)",
        EngineKind::kRound,
        {{"alpha", 0.2, "share of the unallocated jobs considered each solve, finite, >= 0"},
         {"exact_assignment_max_cells", 4194304.0,
          "largest m'*n*m' matrix solved by the SciPy-exact assignment; larger ones by the "
          "structured optimum (docs/policies.md 3.4), >= 0"}}},
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
    for (Entry& entry : all) entry.info.uses_seed = entry.seeded != nullptr;
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

/// Every key of `options` is one of info.options (the table is the only list of a policy's
/// options); InputError(context, "<policy>.<key>") otherwise.
void RequireDeclaredOptions(const PolicyInfo& info, const nlohmann::json& options,
                            const std::string& context) {
  if (!options.is_object()) return;  // the factory reports a non-object
  for (const auto& item : options.items()) {
    const std::string& key = item.key();  // not a structured binding: clang 14 cannot capture one
    const bool declared = std::any_of(info.options.begin(), info.options.end(),
                                      [&](const PolicyOption& o) { return o.name == key; });
    if (declared) continue;
    std::string known;
    for (const PolicyOption& o : info.options) known += (known.empty() ? "" : ", ") + o.name;
    throw InputError(context, 0, info.name + "." + key,
                     "unknown option for policy '" + info.name +
                         "' (known: " + (known.empty() ? "none" : known) + ")");
  }
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
  return entry.seeded ? entry.seeded(options, context, seed) : entry.factory(options, context);
}

std::string_view ToString(EngineKind engine) {
  return engine == EngineKind::kInterval ? "interval" : "round";
}

}  // namespace adaptsim
