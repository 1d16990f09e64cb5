// Gavel+TunedJobs as the Sia artifact runs it (docs/sia.md, "Baselines: Gavel+TunedJobs";
// `S:sia-simulator/gavel.py`, driven by `multi_simulator.py --policy=gavel --interval=360`): the
// heterogeneity-aware max-sum-throughput LP of Gavel (OSDI'20) over GPU types, time-shared in
// whole rounds on the interval engine's node groups, each job rigid at its workload CSV's
// num_replicas K and batch_size B ("TunedJobs").
//
// Each round (gavel.py:443-513), with the round length R (option round_s, 360 s):
//  1. accounting: a job seen for the first time gets job_time[j][t] = R/2 on every type t, and
//     cluster_time[t] += R/2 (gavel.py:111-125);
//  2. x = the max_sum_throughput_perf LP: maximise Σ X[j,t]·x[j,t] over x ≥ 0,
//     Σ_j K_j x[j,t] ≤ G_t, Σ_t x[j,t] ≤ 1 (`policies/max_sum_throughput.py:9-19, 39-90`, rows
//     by job name, columns by type name), solved by the round engine's MST solver
//     (typed_lp.hpp, CLP barrier without crossover: a centred point of a tie, as the reference's
//     ECOS), rounded to 5 decimals (numpy's round) and clipped to [0, 1];
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
// X[j,t] (iterations/s, constant per job; gavel.py:515-546) is GavelTunedJobThroughput below.
// Job side (ChooseBatch): the fixed batch B on the placement held (TunedJobBatch below).
// No randomness; the result depends only on the inputs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "adaptsim/interval_policy.hpp"
#include "adaptsim/policy_options.hpp"

namespace adaptsim {

class PolluxApplication;

/// Options of `gavel_tj`.
struct GavelTunedJobsOptions {
  /// Length of Gavel's rounds, s: the Sia artifact runs Gavel with `--interval=360`
  /// (`S:sia-simulator/run_experiment.sh:5`) and its Sia and Pollux at 60 s. The engine runs this
  /// policy in these rounds whatever the task's interval_s (IntervalPolicy::RoundDurationS).
  double round_s = 360.0;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("round_s",
                 "s, length of Gavel's time-sharing rounds; replaces the task's interval_s",
                 Above(0)),
          self.round_s);
  }
};

/// GPUs of the largest allocation configuration of Gavel's table on a type of `num_nodes` nodes
/// of `gpus_per_node` GPUs (`gavel.py:10-14, 59-72`): 4-GPU nodes up to 16 nodes, 8-GPU nodes up to
/// 8 nodes, so min(num_nodes, 16)·4 or min(num_nodes, 8)·8. Throws InputError(file "gavel_tj",
/// field "cluster") for nodes of another size (the reference would use the 8-GPU table).
int GavelLargestConfigurationGpus(int gpus_per_node, int num_nodes);

/// X[j,t], iterations/s, of a TunedJobs job (K = num_replicas, B = batch_size) on a type whose
/// profile is `app` (`gavel.py:515-546`): 0.1 when K exceeds the type's largest configuration
/// (GavelLargestConfigurationGpus); else placement = K packed gpus_per_node per node;
/// local = ceil(B/K − 1e-8); m_max = app.MaxLocalBszAt(placement);
/// s = ceil(local/m_max − 1e-8) − 1, and s = max(s, 1) whenever K = 1 (even when B ≤ M0);
/// m = ceil(local/(s+1) − 1e-8), then m ≤ floor(max_batch/(K(s+1))); (step, sync) = the profile
/// at (placement, m); X = 1/(step + (step − sync)·s) · (1/slowdown). Throws InputError when the
/// profile has no data there.
double GavelTunedJobThroughput(const PolluxApplication& app, int gpus_per_node, int num_nodes,
                               int num_replicas, int batch_size, double slowdown);

/// The executed batch of a TunedJobs job on `placement` (replicas per node) with the profile
/// `app` of the type it holds (`S:sia-simulator/job.py:317-385` with batch tuning off): the fixed
/// rule of models::FixedBatch at B with m_max = app.MaxLocalBszAt(placement), then the memory cap
/// m ≤ the largest local batch profiled at K replicas (app.MaxLocalBszForReplicas, when any).
/// The engine then caps m ≤ floor(max_batch/(K(s+1))).
BatchConfig GavelTunedJobBatch(const PolluxApplication& app, int batch_size,
                               const std::vector<int>& placement);

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

class GavelTunedJobsPolicy final : public IntervalPolicy {
 public:
  /// Throws InputError("policy", "gavel_tj.<option>") for an option out of range.
  explicit GavelTunedJobsPolicy(const GavelTunedJobsOptions& options);
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) override;
  /// Throws InputError(field "num_replicas") for a job larger than every GPU type.
  IntervalDecision Optimize(const IntervalClusterView& cluster) override;
  bool SupportsGpuTypes() const override { return true; }
  std::optional<double> RoundDurationS() const override { return options_.round_s; }
  /// gavel_tj_rounds: rounds decided; gavel_tj_lp_solves: LPs solved.
  std::map<std::string, double> Statistics() const override;

 private:
  GavelTunedJobsOptions options_;
  std::map<int, std::vector<double>> job_time_s_;   ///< job index -> per node group
  std::vector<double> cluster_time_s_;              ///< per node group
  std::map<int, std::vector<double>> throughputs_;  ///< job index -> X per node group
  /// job index -> (node group, type-local workers) of the previous round.
  std::map<int, std::pair<int, std::vector<int>>> previous_workers_;
  std::int64_t lp_solves_ = 0;
  std::int64_t rounds_ = 0;
};

}  // namespace adaptsim
