// A constructed policy, as a policy family's factory returns it and the policy table hands it on
// (include/adaptsim/registry.hpp): part of the policy interface, so that the families need not
// include the table that lists them.
#pragma once

#include <memory>
#include <variant>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/policy.hpp"

namespace adaptsim {

/// A constructed policy, one of the three policy interfaces: an AllocationPolicy (Gavel-style;
/// the round engine runs it through the Gavel mechanism, MakeRoundScheduler in adaptsim/gavel.hpp),
/// a RoundScheduler (drives the round engine directly) or an IntervalPolicy (the interval engine).
using PolicyInstance =
    std::variant<std::unique_ptr<AllocationPolicy>, std::unique_ptr<RoundScheduler>,
                 std::unique_ptr<IntervalPolicy>>;

}  // namespace adaptsim
