// The GNS batch-size schedule table (docs/mechanism.md §3.3; `utils.get_gns_bs_pattern`,
// `scheduler/utils.py:801-1328`). Private to src/workload.
#pragma once

#include <string_view>
#include <vector>

namespace adaptsim::internal {

/// One epoch range [begin_epoch, end_epoch) whose batch size is B0 · multiplier.
/// end_epoch == kToEnd means "up to E".
struct GnsSegment {
  int begin_epoch;
  int end_epoch;
  int multiplier;
};
inline constexpr int kToEnd = -1;

/// A rule applies to (model, B0, sf) when E > min_epochs_exclusive.
struct GnsRule {
  std::string_view model;
  int initial_batch_size;
  int scale_factor;
  int min_epochs_exclusive;
  std::vector<GnsSegment> segments;
};

/// All rules, in the reference's order.
const std::vector<GnsRule>& GnsRules();

}  // namespace adaptsim::internal
