// The Sia family's table of policies (include/adaptsim/policy_family.hpp).
#pragma once

#include <vector>

#include "adaptsim/policy_family.hpp"

namespace adaptsim {

/// sia; interval engine, on a cluster of GPU types (docs/sia.md).
std::vector<PolicyEntry> SiaFamilyPolicies();

}  // namespace adaptsim
