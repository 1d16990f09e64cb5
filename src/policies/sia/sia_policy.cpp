// The Sia policy's round (sia_policy.hpp).
#include "sia_policy.hpp"

#include <algorithm>

#include "adaptsim/policy_options.hpp"
#include "sia_ilp.hpp"
#include "sia_placement.hpp"
#include "sia_utility.hpp"

namespace adaptsim {

SiaPolicy::SiaPolicy(const SiaOptions& options) : options_(options) {
  ValidateOptions(options_, {"policy", "sia"});
}

std::vector<SiaAllocation> SiaPolicy::Optimize(const std::vector<SiaNodeGroup>& groups,
                                               const std::vector<SiaJob>& jobs) {
  ++rounds_;
  const std::vector<SiaConfiguration> configurations = SiaConfigurations(groups);
  const SiaMatrix goodput = BuildSiaGoodputMatrix(groups, configurations, jobs, options_);
  // The previous configuration as a column of this round's matrix (`prev_allocs_v2`).
  std::vector<std::optional<int>> previous(jobs.size()), forced(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    auto it = previous_.find(jobs[i].id);
    if (it == previous_.end()) continue;
    auto column = std::find(configurations.begin(), configurations.end(), it->second);
    if (column == configurations.end()) continue;
    previous[i] = static_cast<int>(column - configurations.begin());
    // `sia.py:1023-1028`: a job restoring a checkpoint keeps its configuration.
    if (jobs[i].scaling_underway) forced[i] = previous[i];
  }
  const SiaMatrix utility = SiaUtilityMatrix(goodput, jobs, previous, options_);
  SiaIlpResult result = SolveSiaIlp(utility, configurations, groups, forced, options_, &cbc_);
  nodes_ += result.nodes;
  if (result.status != MilpStatus::kOptimal) ++not_optimal_;
  if (result.status == MilpStatus::kFeasible) {
    diagnostics_ = "Sia ILP stopped at the node limit (mip_max_nodes) in round " +
                   std::to_string(rounds_) + ": the allocation is feasible but not proven optimal";
  }
  if (!result.HasSolution()) {
    diagnostics_ = "Sia ILP without a solution (" + ToString(result.status) + ") in round " +
                   std::to_string(rounds_) + "; every job left unallocated";
  }
  std::vector<std::optional<SiaConfiguration>> chosen(jobs.size());
  previous_.clear();
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (!result.chosen[i]) continue;
    chosen[i] = configurations[*result.chosen[i]];
    previous_[jobs[i].id] = *chosen[i];
  }
  const std::vector<std::vector<int>> nodes = SiaPlaceJobs(groups, chosen);
  std::vector<SiaAllocation> allocations(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) allocations[i] = {chosen[i], nodes[i]};
  return allocations;
}

std::map<std::string, double> SiaPolicy::Statistics() const {
  return {{"sia_rounds", static_cast<double>(rounds_)},
          {"sia_ilp_not_optimal", static_cast<double>(not_optimal_)},
          {"sia_ilp_nodes", static_cast<double>(nodes_)}};
}

}  // namespace adaptsim
