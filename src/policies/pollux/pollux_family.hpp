// The Pollux family's table of policies (include/adaptsim/policy_family.hpp).
#pragma once

#include <vector>

#include "adaptsim/policy_family.hpp"

namespace adaptsim {

/// pollux, pollux_unaware, optimus, tiresias; interval engine.
std::vector<PolicyEntry> PolluxFamilyPolicies();

}  // namespace adaptsim
