// Gavel's time-sharing in whole rounds on the interval engine's node groups, as the Sia artifact
// runs it (`S:sia-simulator/gavel.py:111-125, 249-441, 443-513`; docs/sia.md, "Baselines:
// Gavel+TunedJobs"): whatever round policy gives the time fractions x[j,t] (gavel_tj's
// max-sum-throughput LP, themis_tj's finish-time fairness), the same accounting, priorities,
// selection and worker placement turn them into one round's allocation. With the round length R:
//  1. accounting: a job seen for the first time gets job_time[j][t] = R/2 on every type t, and
//     cluster_time[t] += R/2 (gavel.py:111-125);
//  2. (the policy's x);
//  3. priority[j][t] = x[j,t] / (job_time[j][t] / cluster_time[t]), 0 where x = 0
//     (gavel.py:249-274);
//  4. selection: every (job, type) entry in cluster type order then job order, sorted by
//     (priority, x) descending and stable; walking it, a job is scheduled on the entry's type
//     unless it is already scheduled, the type is full or K_j exceeds its free GPUs — smaller
//     jobs backfill and zero-priority entries take leftover GPUs (gavel.py:284-330);
//  5. workers, per type in cluster order, by descending K: a job that ran on this type in the
//     previous round keeps its workers if none is taken yet; the others take the lowest free
//     workers from a server pointer, server by server (gavel.py:332-441); worker w of a type is on
//     its node w / g_t. A job not scheduled gets nothing (suspended; when scheduled again it is
//     re-allocated and the engine charges its restart delay);
//  6. each scheduled job: job_time[j][t] += R, cluster_time[t] += R (gavel.py:505-510).
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "adaptsim/interval_policy.hpp"

namespace adaptsim {

/// One (job, type) entry of a round's selection (gavel.py:294-305).
struct GavelEntry {
  int job = 0;              ///< position in the round's job list
  int type = 0;             ///< node group, cluster order
  double priority = 0.0;    ///< x / (job_time / cluster_time), 0 where x = 0
  double allocation = 0.0;  ///< x[j,t]
};

/// The selection of step 4: `entries` sorted by (priority, allocation) descending, stable, then
/// walked; returns the type chosen per job (−1 = not scheduled). `num_replicas` per job, `gpus`
/// per type.
std::vector<int> GavelSelectJobs(std::vector<GavelEntry> entries,
                                 const std::vector<int>& num_replicas,
                                 const std::vector<int>& gpus);

/// Worker assignment of step 5 on one type of `num_servers` servers × `gpus_per_server`:
/// `jobs` = (job key, K) of the jobs scheduled there in selection order; `previous` = the workers
/// (type-local ids, ascending) each job held on this type in the previous round. Returns the
/// workers of each job, in the order taken (`gavel.py:332-358, 392-427`).
std::map<int, std::vector<int>> GavelAssignWorkers(const std::vector<std::pair<int, int>>& jobs,
                                                   const std::map<int, std::vector<int>>& previous,
                                                   int num_servers, int gpus_per_server);

/// Steps 1 and 3-6, with their state across rounds (job and cluster times, previous workers).
/// One instance per simulation.
class GavelRounds {
 public:
  /// Step 1 for the jobs of `cluster` not seen before (R = cluster.interval_s). Returns, per job
  /// of the view, whether it is new.
  std::vector<bool> AddJobs(const IntervalClusterView& cluster);
  /// Steps 3-6: `x` = x[j,t], m×n row-major in the view's job order and cluster type order;
  /// `num_replicas` per job.
  IntervalDecision Schedule(const IntervalClusterView& cluster, const std::vector<double>& x,
                            const std::vector<int>& num_replicas);

 private:
  std::map<int, std::vector<double>> job_time_s_;  ///< job index -> per node group
  std::vector<double> cluster_time_s_;             ///< per node group
  /// job index -> (node group, type-local workers) of the previous round.
  std::map<int, std::pair<int, std::vector<int>>> previous_workers_;
};

}  // namespace adaptsim
