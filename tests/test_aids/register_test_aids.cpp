// Linked only into the test build of the command line (adaptsim_test_cli): the test aids' table of
// policies, declared as a policy family's (include/adaptsim/policy_family.hpp), added to the
// policy table before main() runs.
#include "adaptsim/registry.hpp"
#include "fail_after.hpp"

namespace {

[[maybe_unused]] const bool kTestAidsRegistered = [] {
  using namespace adaptsim;
  RegisterTestPolicy(Declared<testing::FailAfterOptions>(
      "fail_after", "TEST AID: fifo that throws after `after` allocations (option sleep_ms)",
      EngineKind::kRound, Construct<AllocationPolicy, testing::FailAfterPolicy>()));
  return true;
}();

}  // namespace
