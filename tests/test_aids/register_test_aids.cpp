// Linked only into the test build of the command line (adaptsim_test_cli): adds the test-aid
// policies to the policy table before main() runs.
#include "fail_after.hpp"

namespace {

[[maybe_unused]] const bool kTestAidsRegistered = [] {
  adaptsim::testing::RegisterFailAfterPolicy();
  return true;
}();

}  // namespace
