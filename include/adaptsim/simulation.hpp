// The Simulation seam: one interface, two engines. The round-based Gavel/Shockwave engine
// (adaptsim/simulator.hpp, RoundSimulation) and the interval engine of the Pollux family
// (adaptsim/interval_simulator.hpp, IntervalSimulation) each own their inputs, options struct
// and policy interface (adaptsim/policy.hpp, adaptsim/interval_policy.hpp) and return the same
// engine-neutral SimulationResult. The task stage (RunTask) picks the engine from the policy table
// (PolicyInfo::engine, adaptsim/registry.hpp) and computes the summary metrics once
// (ComputeMetrics, adaptsim/metrics.hpp) on the finished result. docs/architecture.md.
#pragma once

#include <cstdint>
#include <functional>

#include "adaptsim/error.hpp"
#include "adaptsim/result.hpp"

namespace adaptsim {

/// Called after every round (round engine) or interval (interval engine) with the record just
/// appended (progress reporting, tracing, budgets: throwing from it abandons the run).
using RoundObserver = std::function<void(const RoundResult&)>;

/// How long a run may go on: not part of its configuration or id (a budget only decides whether
/// a run ends as "timeout"; a finished result does not depend on it). `adaptsim sweep
/// --task-timeout*` sets it (docs/sweeps.md §2).
struct RunBudget {
  std::int64_t max_rounds = 0;   ///< rounds (round engine) or intervals (interval engine) before
                                 ///< status "timeout"; 0 = none
  double max_wall_time_s = 0.0;  ///< wall-clock seconds before status "timeout"; 0 = none

  /// Throws InputError("run budget", 0, field, ...) for a negative limit.
  void Validate() const {
    if (max_rounds < 0) throw InputError("run budget", 0, "max_rounds", "must be >= 0");
    if (!(max_wall_time_s >= 0)) {
      throw InputError("run budget", 0, "max_wall_time_s", "must be >= 0");
    }
  }
};

/// One configured run of an engine: inputs loaded, policy built. Not thread-safe; run once.
class Simulation {
 public:
  virtual ~Simulation() = default;
  /// Runs to completion or a budget (status "timeout"). Returns per-job, per-round and per-GPU
  /// records, the makespan, policy statistics and wall time; the other summary metrics and the
  /// static ρ are left for ComputeMetrics. Throws InputError for bad input found while running
  /// (e.g. a throughput look-up outside the data).
  virtual SimulationResult Run(const RoundObserver& observer) = 0;
};

}  // namespace adaptsim
