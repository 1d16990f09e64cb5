// Interval policies by name (pollux, optimus, tiresias).
#include "policies/interval_registry.hpp"

#include "adaptsim/error.hpp"
#include "policies/optimus.hpp"
#include "policies/pollux.hpp"
#include "policies/tiresias.hpp"

namespace adaptsim {
namespace {

class NeedsPolluxWorkload : public RoundScheduler {
 public:
  explicit NeedsPolluxWorkload(std::string name) : name_(std::move(name)) {}
  RoundPlan PlanRound(const ClusterState&) override {
    throw InputError("policy", 0, "policy",
                     "policy '" + name_ +
                         "' runs in the interval engine (RunTask dispatches it: a .csv Pollux "
                         "workload, or a .trace with a catalogue/throughputs file), not in the "
                         "round engine");
  }

 private:
  std::string name_;
};

}  // namespace

std::unique_ptr<IntervalPolicy> MakeIntervalPolicy(const std::string& name,
                                                   const nlohmann::json& options,
                                                   const std::string& context, std::uint64_t seed) {
  if (!options.is_object()) throw InputError(context, 0, name, "options must be an object");
  if (name == "pollux") return PolluxPolicy::FromOptions(options, context, seed);
  if (name == "optimus") return OptimusPolicy::FromOptions(options, context);
  if (name == "tiresias") return TiresiasPolicy::FromOptions(options, context);
  throw InputError(
      context, 0, "policy",
      "policy '" + name + "' does not run on Pollux workloads (known: pollux, optimus, tiresias)");
}

bool IsIntervalPolicy(const std::string& name) {
  return name == "pollux" || name == "optimus" || name == "tiresias";
}

PolicyInstance IntervalPolicyRegistryEntry(const std::string& name, const nlohmann::json& options,
                                           const std::string& context) {
  MakeIntervalPolicy(name, options, context);
  PolicyInstance instance;
  instance.round_scheduler = std::make_unique<NeedsPolluxWorkload>(name);
  return instance;
}

}  // namespace adaptsim
