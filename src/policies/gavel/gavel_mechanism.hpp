// Gavel's priority/deficit mechanism (docs/mechanism.md §7): turns an AllocationPolicy's time
// fractions into per-round job sets. Checked exactly against the reference with gandiva_fair.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "adaptsim/gavel.hpp"
#include "adaptsim/policy.hpp"
#include "adaptsim/python_random.hpp"

namespace adaptsim {

/// Throws PolicyError(method "compute_allocation") unless every job of `allocation` is an active
/// job of `state` and each of its time fractions is a finite number in [0, 1] (values within
/// kTimeFractionTolerance outside, a solver's rounding, are accepted and clamped by the
/// mechanism); on a cluster of several GPU types the allocation must be time_fraction_by_type,
/// with one fraction per type of state.cluster.
void CheckAllocation(const Allocation& allocation, const ClusterState& state);

/// How far outside [0, 1] an LP solution's time fraction may lie (rounding) and still be accepted.
inline constexpr double kTimeFractionTolerance = 1e-6;

/// Wraps an AllocationPolicy. State per active job i and GPU type k (one type on a homogeneous
/// cluster; docs/mechanism.md §7, §12):
///  t_ik  time received on type k since the last reset, seconds (starts at T_r/2 on every type,
///        `scheduler.py:738-740`),
///  W_k   Σ time received on type k by all jobs since the last reset plus the T_r/2 priors,
///  d_ik  deficit on type k, seconds (`_reset_time_run_so_far`, `:3498-3551`).
/// Each round: maybe re-solve (gate, `_update_priorities` `:3600-3636`); the round's type order
/// (reverse name order, shuffled with CPython's random.Random(seed + 5) when the policy declares
/// it, `:1288-1301`); per type in that order the priorities x_ik / (t_ik / W_k) (`:3667-3724`),
/// sorted by (priority, deficit, x) descending with a stable sort; the per-type lists
/// concatenated; one greedy pass selects each job at most once, on the first type that reaches
/// it with room (`_schedule_jobs_on_workers_helper`, `:1145-1265`).
class GavelMechanism final : public RoundScheduler {
 public:
  /// Reads round_duration_s and allocation_reset_interval_s of the engine's `options`; `seed` is
  /// the task's (the GPU-type shuffle's random.Random(seed + 5)).
  GavelMechanism(std::unique_ptr<AllocationPolicy> policy, const SimulationOptions& options,
                 std::uint64_t seed);

  void OnJobArrived(const ActiveJobView& job) override;
  void OnJobRemoved(JobId id) override;
  void OnMicroTaskDone(const MicroTaskOutcome& outcome) override;
  RoundPlan PlanRound(const ClusterState& state) override;
  std::map<std::string, double> Statistics() const override;
  bool SupportsSeveralGpuTypes() const override { return traits_.several_gpu_types; }

 private:
  struct Entry {
    JobId id;
    std::vector<double> time_received_s;  // t_ik, including the T_r/2 prior
    std::vector<double> deficit_s;        // d_ik
  };
  Entry* Find(JobId id);
  void Resize(std::size_t num_types);
  void ResetTimeRunSoFar(double now_s);
  void Solve(const ClusterState& state);
  std::vector<int> TypeOrder(int num_types);

  std::unique_ptr<AllocationPolicy> policy_;
  AllocationPolicyTraits traits_;
  double half_round_s_;
  double reset_interval_s_;
  PythonRandom type_shuffler_;  // `_worker_type_shuffler`, random.Random(seed + 5) (`:508-509`)
  std::size_t num_types_ = 1;
  std::vector<Entry> entries_;                       // arrival (insertion) order
  std::map<JobId, std::vector<double>> allocation_;  // x_ik, one entry per type
  std::vector<double> worker_time_s_;                // W_k
  double last_reset_s_ = 0.0;
  bool need_to_update_allocation_ = false;
  int num_solves_ = 0;
};

}  // namespace adaptsim
