// What every "+TunedJobs" round policy on the interval engine shares (docs/sia.md §9): jobs seen
// through the round view (adaptsim/job_mapping.hpp; X[j,t] computed once per job), the matrix
// order of Gavel's policies (rows by job name, columns by type name; `S:sia-simulator/policies/
// policy.py:26-43`), Gavel's time-sharing of the policy's fractions in whole rounds
// (gavel_rounds.hpp), rounds of the policy's own length (IntervalPolicy::RoundDurationS), and the
// job side: the fixed batch B on the placement held (GavelTunedJobBatch). A policy derives from
// it and computes x each round (gavel_tj, themis_tj).
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "adaptsim/interval_policy.hpp"
#include "gavel_rounds.hpp"

namespace adaptsim {

class TunedJobsRoundPolicy : public IntervalPolicy {
 public:
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) final;
  bool SupportsGpuTypes() const final { return true; }
  std::optional<double> RoundDurationS() const final { return round_s_; }
  /// Every job runs on its workload num_replicas (TunedJobs).
  bool FixedReplicas() const final { return true; }

 protected:
  /// `round_s` > 0, the policy's round length (validated by the derived policy's options).
  explicit TunedJobsRoundPolicy(double round_s) : round_s_(round_s) {}

  /// Step 1 of gavel_rounds.hpp for the jobs seen for the first time, each checked
  /// (CheckTunedJobFits: InputError for a job larger than every type) and its X[j,t] computed
  /// (TunedJobThroughputs). Returns K per job of the view.
  std::vector<int> AddJobs(const IntervalClusterView& cluster);
  /// X[j,t] of a job added before, per node group (cluster order).
  const std::vector<double>& Throughputs(int job_index) const { return throughputs_.at(job_index); }
  /// The reference's matrix order: `rows` = positions in the view sorted by job name (stable),
  /// `columns` = node groups sorted by type name.
  struct MatrixOrder {
    std::vector<int> rows;
    std::vector<int> columns;
  };
  static MatrixOrder OrderOf(const IntervalClusterView& cluster);
  /// Steps 3-6 of gavel_rounds.hpp: `x` m×n in the view's job order and cluster type order.
  IntervalDecision Schedule(const IntervalClusterView& cluster, const std::vector<double>& x,
                            const std::vector<int>& num_replicas) {
    return time_sharing_.Schedule(cluster, x, num_replicas);
  }

 private:
  double round_s_;
  GavelRounds time_sharing_;
  std::map<int, std::vector<double>> throughputs_;  ///< job index -> X per node group
};

}  // namespace adaptsim
