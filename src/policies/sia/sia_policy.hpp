// The Sia policy (Jayaram Subramanya et al., SOSP'23) as the reference simulator defines it
// (docs/sia.md; `S:sia-simulator/sia.py`), independent of any engine: each round it takes the
// cluster's GPU types and, per active job, its goodput estimates per type, and returns one
// configuration (GPU type, nodes, GPUs) per job, or none, with its node placement.
//
// One round (`sia.py:576-840`):
//   configurations (sia_configurations.hpp) -> normalised goodput S (sia_goodput_matrix.hpp)
//   -> utility A with the re-allocation factor (sia_utility.hpp) -> ILP on CBC (sia_ilp.hpp)
//   -> placement (sia_placement.hpp).
// State across rounds: each job's configuration of the previous round (keyed by SiaJob::id,
// dropped when the job leaves), which the re-allocation factor spares and a job still restoring
// a checkpoint (SiaJob::scaling_underway) keeps. No randomness; CBC runs single-threaded with
// node and gap limits only, so a round's result depends only on its inputs and the state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/cbc_solver.hpp"
#include "sia_configurations.hpp"
#include "sia_goodput_matrix.hpp"
#include "sia_options.hpp"

namespace adaptsim {

/// One round's decision for one job.
struct SiaAllocation {
  std::optional<SiaConfiguration> configuration;  ///< nullopt = unallocated (suspended)
  std::vector<int> nodes;  ///< node id within the type of each GPU; empty when unallocated
};

class SiaPolicy {
 public:
  /// Throws InputError("sia", "sia.<option>") for an option out of range.
  explicit SiaPolicy(const SiaOptions& options);

  /// Decides one round for `jobs` (the active jobs, in workload order) on `groups` (one node
  /// group per GPU type, in cluster order). Returns one allocation per job. Throws InputError for
  /// inconsistent inputs (sia_goodput_matrix.hpp, sia_configurations.hpp).
  std::vector<SiaAllocation> Optimize(const std::vector<SiaNodeGroup>& groups,
                                      const std::vector<SiaJob>& jobs);

  /// Counters since construction: rounds, ILP solves without a proven optimum, CBC nodes.
  std::map<std::string, double> Statistics() const;
  /// A note when a round's ILP stopped at the node limit (a feasible, unproven allocation) or
  /// ended without a solution (every job was left unallocated); the latest such round.
  const std::string& Diagnostics() const { return diagnostics_; }

 private:
  SiaOptions options_;
  std::map<int, SiaConfiguration> previous_;  ///< by job id
  std::int64_t rounds_ = 0, not_optimal_ = 0, nodes_ = 0;
  std::string diagnostics_;
  CbcSession cbc_;  ///< CBC's driver, kept across rounds (docs/performance.md, "Sia whole runs")
};

}  // namespace adaptsim
