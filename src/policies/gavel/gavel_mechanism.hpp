// Gavel's priority/deficit mechanism (docs/mechanism.md §7): turns an AllocationPolicy's time
// fractions into per-round job sets. Checked exactly against the reference with gandiva_fair.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "adaptsim/gavel.hpp"
#include "adaptsim/policy.hpp"

namespace adaptsim {

/// Throws PolicyError(method "compute_allocation") unless every job of `allocation` is an active
/// job of `state` and its time fraction is a finite number in [0, 1] (values within
/// kTimeFractionTolerance outside, a solver's rounding, are accepted and clamped by the mechanism).
void CheckAllocation(const Allocation& allocation, const ClusterState& state);

/// How far outside [0, 1] an LP solution's time fraction may lie (rounding) and still be accepted.
inline constexpr double kTimeFractionTolerance = 1e-6;

/// Wraps an AllocationPolicy. State per active job i (one worker type):
///  t_i  time received since the last reset, seconds (starts at T_r/2, `scheduler.py:738-740`),
///  W    Σ time received by all jobs since the last reset plus the T_r/2 priors,
///  d_i  deficit, seconds (`_reset_time_run_so_far`, `:3498-3551`).
/// Each round: maybe re-solve (gate, `_update_priorities` `:3600-3636`), compute priorities
/// x_i / (t_i / W) (`:3667-3724`), sort by (priority, deficit, x) descending with a stable sort,
/// and greedily select jobs that fit (`_schedule_jobs_on_workers_helper`, `:1145-1265`).
class GavelMechanism final : public RoundScheduler {
 public:
  /// Reads round_duration_s and allocation_reset_interval_s of the engine's `options`.
  GavelMechanism(std::unique_ptr<AllocationPolicy> policy, const SimulationOptions& options);

  void OnJobArrived(const ActiveJobView& job) override;
  void OnJobRemoved(JobId id) override;
  void OnMicroTaskDone(const MicroTaskOutcome& outcome) override;
  RoundPlan PlanRound(const ClusterState& state) override;
  std::map<std::string, double> Statistics() const override;

 private:
  struct Entry {
    JobId id;
    double time_received_s;  // t_i, including the T_r/2 prior
    double deficit_s;        // d_i
  };
  Entry* Find(JobId id);
  void ResetTimeRunSoFar(double now_s);
  std::vector<double> Priorities() const;

  std::unique_ptr<AllocationPolicy> policy_;
  AllocationPolicyTraits traits_;
  double half_round_s_;
  double reset_interval_s_;
  std::vector<Entry> entries_;  // arrival (insertion) order
  std::map<JobId, double> allocation_;
  double worker_time_s_ = 0.0;  // W
  double last_reset_s_ = 0.0;
  bool need_to_update_allocation_ = false;
  int num_solves_ = 0;
};

}  // namespace adaptsim
