#include "baseline_factories.hpp"

#include <utility>
#include <vector>

#include "adaptsim/error.hpp"
#include "adaptsim/policy_options.hpp"
#include "allox.hpp"
#include "finish_time_fairness.hpp"
#include "isolated.hpp"
#include "isolated_plus.hpp"
#include "max_sum_throughput.hpp"
#include "min_total_duration.hpp"

namespace adaptsim::internal {
namespace {

PolicyInstance Wrap(std::unique_ptr<AllocationPolicy> policy) {
  return PolicyInstance(std::move(policy));
}

// The value of string option `key` among `choices` (name → enum), or `fallback` when absent.
template <typename Enum>
Enum ChoiceOption(const nlohmann::json& options, const std::string& policy, const char* key,
                  const std::vector<std::pair<std::string, Enum>>& choices, Enum fallback,
                  const std::string& context) {
  const std::string value = StringOption(options, policy, key, "", context);
  if (value.empty()) return fallback;
  std::string known;
  for (const auto& [name, choice] : choices) {
    if (name == value) return choice;
    known += (known.empty() ? "" : ", ") + name;
  }
  throw InputError(context, 0, policy + "." + key,
                   "unknown value '" + value + "' (known: " + known + ")");
}

LpPath SolverOption(const nlohmann::json& options, const std::string& policy,
                    const std::string& context) {
  return ChoiceOption<LpPath>(options, policy, "solver",
                              {{"closed_form", LpPath::kClosedForm}, {"clp", LpPath::kClp}},
                              LpPath::kClosedForm, context);
}

int IterationsOption(const nlohmann::json& options, const std::string& policy,
                     const std::string& context) {
  const double value = NumberOption(options, policy, "max_iterations", 1000, context);
  if (!(value >= 1 && value <= 1e9 && value == static_cast<int>(value))) {
    throw InputError(context, 0, policy + ".max_iterations", "must be an integer in [1, 1e9]");
  }
  return static_cast<int>(value);
}

}  // namespace

PolicyInstance MakeMinTotalDuration(const nlohmann::json& options, const std::string& context) {
  const std::string name = "min_total_duration";
  RequireKnownOptions(options, name, {"face_rule", "solver", "max_iterations"}, context);
  MinTotalDurationOptions parsed;
  parsed.face_rule = ChoiceOption<OsspFaceRule>(options, name, "face_rule",
                                                {{"analytic_center", OsspFaceRule::kAnalyticCenter},
                                                 {"clp_barrier", OsspFaceRule::kClpBarrier},
                                                 {"vertex", OsspFaceRule::kVertex}},
                                                parsed.face_rule, context);
  parsed.solver = SolverOption(options, name, context);
  parsed.max_iterations = IterationsOption(options, name, context);
  parsed.Validate();
  return Wrap(std::make_unique<MinTotalDurationPolicy>(parsed));
}

PolicyInstance MakeFinishTimeFairness(const nlohmann::json& options, const std::string& context) {
  const std::string name = "finish_time_fairness";
  RequireKnownOptions(options, name, {"face_rule", "solver", "max_iterations"}, context);
  FinishTimeFairnessOptions parsed;
  parsed.face_rule =
      ChoiceOption<ThemisFaceRule>(options, name, "face_rule",
                                   {{"analytic_center", ThemisFaceRule::kAnalyticCenter},
                                    {"lower", ThemisFaceRule::kLower},
                                    {"fill", ThemisFaceRule::kFill},
                                    {"clp_barrier", ThemisFaceRule::kClpBarrier}},
                                   parsed.face_rule, context);
  parsed.solver = SolverOption(options, name, context);
  parsed.max_iterations = IterationsOption(options, name, context);
  parsed.Validate();
  return Wrap(std::make_unique<FinishTimeFairnessPolicy>(parsed));
}

PolicyInstance MakeMaxSumThroughput(const nlohmann::json& options, const std::string& context) {
  const std::string name = "max_sum_throughput";
  RequireKnownOptions(options, name, {"solver", "tie_tolerance", "max_iterations"}, context);
  MaxSumThroughputOptions parsed;
  parsed.solver = SolverOption(options, name, context);
  parsed.tie_tolerance =
      NumberOption(options, name, "tie_tolerance", parsed.tie_tolerance, context);
  parsed.max_iterations = IterationsOption(options, name, context);
  parsed.Validate();
  return Wrap(std::make_unique<MaxSumThroughputPolicy>(parsed));
}

PolicyInstance MakeAlloX(const nlohmann::json& options, const std::string& context) {
  RequireKnownOptions(options, "allox",
                      {"alpha", "exact_assignment_max_cells", "shift_costs_by_minimum"}, context);
  AlloXOptions parsed;
  parsed.alpha = NumberOption(options, "allox", "alpha", parsed.alpha, context);
  parsed.exact_assignment_max_cells = NumberOption(options, "allox", "exact_assignment_max_cells",
                                                   parsed.exact_assignment_max_cells, context);
  parsed.shift_costs_by_minimum = BoolOption(options, "allox", "shift_costs_by_minimum",
                                             parsed.shift_costs_by_minimum, context);
  parsed.Validate();
  return Wrap(std::make_unique<AlloXPolicy>(parsed));
}

PolicyInstance MakeIsolated(const nlohmann::json& options, const std::string& context) {
  RequireKnownOptions(options, "isolated", {}, context);
  return Wrap(std::make_unique<IsolatedPolicy>());
}

PolicyInstance MakeIsolatedPlus(const nlohmann::json& options, const std::string& context) {
  RequireKnownOptions(options, "isolated_plus", {}, context);
  return Wrap(std::make_unique<IsolatedPlusPolicy>());
}

}  // namespace adaptsim::internal
