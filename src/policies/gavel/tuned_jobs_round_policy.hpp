// What every "+TunedJobs" round policy on the interval engine shares (docs/sia.md §9): jobs seen
// through the round view (adaptsim/job_mapping.hpp; X[j,t] computed once per job), the matrix
// order of Gavel's policies (rows by job name, columns by type name; `S:sia-simulator/policies/
// policy.py:26-43`), Gavel's time-sharing of the policy's fractions in whole rounds
// (gavel_rounds.hpp), rounds of the policy's own length (IntervalPolicy::RoundDurationS), and the
// job side: the fixed batch B on the placement held (GavelTunedJobBatch). A policy derives from
// it and computes x each round (gavel_tj, themis_tj); Optimize is the template method.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "adaptsim/gavel_rounds.hpp"
#include "adaptsim/interval_policy.hpp"
#include "adaptsim/job_mapping.hpp"

namespace adaptsim {

class TunedJobsRoundPolicy : public IntervalPolicy {
 public:
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) final;
  bool SupportsGpuTypes() const final { return true; }
  std::optional<double> RoundDurationS() const final { return round_s_; }
  /// Every job runs on its workload num_replicas (TunedJobs).
  bool FixedReplicas() const final { return true; }
  /// One round (the template every "+TunedJobs" time-sharing policy follows): step 1 of
  /// gavel_rounds.hpp for the jobs seen for the first time, each checked (CheckTunedJobFits) and
  /// its X[j,t] computed (TunedJobThroughputs, once per job); the round view of every job in the
  /// reference's matrix order (rows by job name, stable; columns by type name;
  /// `S:sia-simulator/policies/policy.py:26-43`); the derived policy's Fractions; x mapped back to
  /// the view's job order and cluster type order; steps 3-6 of gavel_rounds.hpp. Throws
  /// InputError(field "num_replicas") for a job larger than every GPU type, and Fractions' errors.
  IntervalDecision Optimize(const IntervalClusterView& cluster) final;

 protected:
  /// `round_s` > 0, the policy's round length (validated by the derived policy's options).
  explicit TunedJobsRoundPolicy(double round_s) : round_s_(round_s) {}

  /// The policy's time fractions x[r·n + c] (m×n, row-major) for `views` (m jobs, rows in the
  /// matrix order; throughputs[c] per column) on `capacities` (C_c GPUs per column, n columns in
  /// the matrix order). Called once per round, also with no job.
  virtual std::vector<double> Fractions(const std::vector<TunedJobRoundView>& views,
                                        const std::vector<int>& capacities) = 0;

 private:
  double round_s_;
  GavelRounds time_sharing_;
  std::map<int, std::vector<double>> throughputs_;  ///< job index -> X per node group
};

}  // namespace adaptsim
