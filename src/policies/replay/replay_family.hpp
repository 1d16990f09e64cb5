// The replay family's table of policies (include/adaptsim/policy_family.hpp).
#pragma once

#include <vector>

#include "adaptsim/policy_family.hpp"

namespace adaptsim {

/// replay (plays back a recorded schedule); round engine.
std::vector<PolicyEntry> ReplayFamilyPolicies();

}  // namespace adaptsim
