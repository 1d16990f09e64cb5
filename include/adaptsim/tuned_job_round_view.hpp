// The round policies' view of a TunedJobs job of the interval engine (docs/sia.md §9): the one
// mapping from a Pollux/Sia workload row (model, num_replicas K, batch_size B, a profile per GPU
// type; progress in scale-invariant iterations with statistical efficiency) to what Gavel's
// round policies read (scale factor, throughput in iterations/s per GPU type, total, current and
// remaining iterations, time since arrival, pre-start overhead), as the Sia artifact builds it
// (`S:sia-simulator/cluster.py:464-500`, `gavel.py:151-200, 515-546`). Every "+TunedJobs" round
// policy on the interval engine (gavel_tj, themis_tj) reads its jobs through it; the job side of
// the same jobs (the executed batch) is here too.
//
// Per job j and node group t (GPU type of g_t GPUs per node, n_t nodes):
//  * scale factor s_j = K (the CSV's num_replicas, uncapped; cluster.py:79-81, 487);
//  * X[j,t], iterations/s at the fixed batch B: GavelTunedJobThroughput (gavel.py:515-546);
//  * total iterations S_j = Iteration(B, completion_epoch) of the first group's profile (the
//    validation files are shared by the types; cluster.py:489-493, `applications.py:184-194`);
//  * current iteration c_j = round(I(e−1) + (P − P_e)/(P_{e+1} − P_e)·(I(e) − I(e−1))), e the
//    completed epochs, P the job's progress, P_e = Progress(e), I(e) = Iteration(B, e),
//    I(−1) = 0, Python's round (half to even) (`applications.py:196-206`);
//  * remaining iterations N_j = max(1, S_j − c_j) (cluster.py:494-495);
//  * time since arrival τ_j = now − submission (cluster.py:488);
//  * pre-start overhead o_j = R − (submission mod R) + the model's restart delay, R the round
//    length (gavel.py:167-171; rescale_time = the application's delay, cluster.py:496).
// Statistical efficiency does not enter the round view: at the fixed batch B the job advances
// one iteration per optimizer step, and the engine's progress (efficiency-weighted) maps back to
// iterations through the validation table at B (c_j above), as in the reference.
#pragma once

#include <vector>

#include "adaptsim/interval_policy.hpp"

namespace adaptsim {

class PolluxApplication;

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
/// m ≤ the largest local batch profiled at K replicas (app.MaxLocalBszAtReplicas, when any).
/// The engine then caps m ≤ floor(max_batch/(K(s+1))).
BatchConfig GavelTunedJobBatch(const PolluxApplication& app, int batch_size,
                               const std::vector<int>& placement);

/// Shockwave's iteration time, s, of a TunedJobs job on a type whose profile is `app`
/// (`S:sia-simulator/shockwave.py:950-976`): GavelTunedJobThroughput's steps with the type's
/// global largest local batch app.max_local_bsz() as m_max (not the placement's) and no
/// out-of-reach value: placement = K packed gpus_per_node per node, s = ceil(ceil(B/K −
/// 1e-8)/m_max − 1e-8) − 1 (≥ 1 when K = 1), m = ceil(local/(s+1) − 1e-8) ≤
/// floor(max_batch/(K(s+1))), then (step + (step − sync)·s)·slowdown (the reference divides by
/// its calibration factor 1/slowdown). Throws InputError(field "num_replicas") when K exceeds
/// the type's gpus_per_node·num_nodes GPUs, and the profile's errors.
double ShockwaveTunedJobIterationTime(const PolluxApplication& app, int gpus_per_node,
                                      int num_nodes, int num_replicas, int batch_size,
                                      double slowdown);

/// The mean of ShockwaveTunedJobIterationTime over the node groups (`shockwave.py:990-995`,
/// every real type of the cluster) for `num_replicas` K' and `batch_size` B' (shockwave_tj caps K
/// and sets ncf's B, docs/sia.md §11), each group's profile and the job's slowdown, s. A group
/// whose profile has no data at the predicted (placement, batch) — the reference asserts there,
/// `shockwave.py:973` (deepspeech2 at K = 12, B = 640 on dgx-ext) — is left out of the mean;
/// InputError(field "batch_size") when every group is.
double TunedJobMeanIterationTime(const IntervalJobView& job,
                                 const std::vector<IntervalNodeGroup>& groups, int num_replicas,
                                 int batch_size);

/// S_j: iterations to complete at batch `batch_size` = app.Iteration(B, completion_epoch)
/// (`cluster.py:492-493`).
double TunedJobTotalSteps(const PolluxApplication& app, int batch_size);

/// c_j: iterations done at batch `batch_size` after `epoch` completed epochs and `progress`
/// scale-invariant iterations, rounded half to even (`applications.py:196-206`). Requires
/// Progress(epoch) <= progress <= Progress(epoch + 1).
double TunedJobCurrentStep(const PolluxApplication& app, int batch_size, int epoch,
                           double progress);

/// Throws InputError(workload line, field "num_replicas") when K exceeds the GPUs of every node
/// group: the reference would never place such a job.
void CheckTunedJobFits(const IntervalJobView& job, const std::vector<IntervalNodeGroup>& groups);

/// X[j,t] on every node group (GavelTunedJobThroughput with the group's profile, shape and the
/// job's slowdown), in group order.
std::vector<double> TunedJobThroughputs(const IntervalJobView& job,
                                        const std::vector<IntervalNodeGroup>& groups);

/// The round view of one job (the header's quantities).
struct TunedJobRoundView {
  int scale_factor = 1;             ///< s_j = K, GPUs
  std::vector<double> throughputs;  ///< X[j,t], iterations/s per node group
  double total_steps = 0.0;         ///< S_j, iterations
  double current_step = 0.0;        ///< c_j, iterations
  double remaining_steps = 1.0;     ///< N_j = max(1, S_j − c_j), iterations
  double time_since_arrival_s = 0.0;
  double prestart_overhead_s = 0.0;  ///< o_j, s
};

/// The view of `job` with rounds of `round_s` seconds. `throughputs` = the job's X[j,t]
/// (TunedJobThroughputs; constant per job, so callers compute it once).
TunedJobRoundView MakeTunedJobRoundView(const IntervalJobView& job, double round_s,
                                        std::vector<double> throughputs);

}  // namespace adaptsim
