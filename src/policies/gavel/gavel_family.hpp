// The Gavel family's table of policies (include/adaptsim/policy_family.hpp): the allocation
// policies that the Gavel mechanism runs in rounds (include/adaptsim/gavel.hpp).
#pragma once

#include <vector>

#include "adaptsim/policy_family.hpp"

namespace adaptsim {

/// fifo, fifo_perf, gandiva_fair, max_min_fairness(_perf), min_total_duration(_perf),
/// finish_time_fairness(_perf), max_sum_throughput_perf (and its alias max_sum_throughput), allox,
/// isolated, isolated_plus; round engine.
std::vector<PolicyEntry> GavelFamilyPolicies();

}  // namespace adaptsim
