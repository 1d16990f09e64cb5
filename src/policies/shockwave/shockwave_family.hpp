// The Shockwave family's table of policies (include/adaptsim/policy_family.hpp).
#pragma once

#include <vector>

#include "adaptsim/policy_family.hpp"

namespace adaptsim {

/// shockwave (a RoundScheduler); round engine.
std::vector<PolicyEntry> ShockwaveFamilyPolicies();

}  // namespace adaptsim
