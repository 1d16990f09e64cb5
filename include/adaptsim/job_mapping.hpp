// The job mapping between the two worlds of adaptsim (docs/sia.md §9): one component, both
// directions, documented side by side there.
//
// A round policy (Gavel's allocation policies, Themis's finish-time fairness, Shockwave's planner)
// reads a job as a scale factor, a throughput in iterations/s per GPU type and a number of
// iterations done and left. An interval-engine job is a Pollux/Sia workload row (model,
// num_replicas K, batch_size B, a profile per GPU type) whose progress is counted in
// scale-invariant iterations weighted by statistical efficiency (docs/pollux.md §2).
//
// * Interval job -> round view (the "+TunedJobs" policies gavel_tj and themis_tj on the interval
//   engine, as the Sia artifact builds it: `S:sia-simulator/cluster.py:464-500`,
//   `gavel.py:151-200, 515-546`). Per job j and node group t (GPU type of g_t GPUs per node, n_t
//   nodes):
//    - scale factor s_j = K (the CSV's num_replicas, uncapped; cluster.py:79-81, 487);
//    - X[j,t], iterations/s at the fixed batch B: GavelTunedJobThroughput (gavel.py:515-546);
//    - total iterations S_j = Iteration(B, completion_epoch) of the first group's profile (the
//      validation files are shared by the types; cluster.py:489-493, `applications.py:184-194`);
//    - current iteration c_j = round(I(e−1) + (P − P_e)/(P_{e+1} − P_e)·(I(e) − I(e−1))), e the
//      completed epochs, P the job's progress, P_e = Progress(e), I(e) = Iteration(B, e),
//      I(−1) = 0, Python's round (half to even) (`applications.py:196-206`);
//    - remaining iterations N_j = max(1, S_j − c_j) (cluster.py:494-495);
//    - time since arrival τ_j = now − submission (cluster.py:488);
//    - pre-start overhead o_j = R − (submission mod R) + the model's restart delay, R the round
//      length (gavel.py:167-171; rescale_time = the application's delay, cluster.py:496).
//   Statistical efficiency does not enter the round view: at the fixed batch B the job advances
//   one iteration per optimizer step, and the engine's progress (efficiency-weighted) maps back
//   to iterations through the validation table at B (c_j above), as in the reference. The job
//   side of the same jobs (the executed batch, GavelTunedJobBatch) is here too.
//
// * Trace job -> interval job (Pollux on the Shockwave traces, `pollux_canonical`; docs/pollux.md
//   "Pollux on the Shockwave traces"): a `.trace` workload becomes a Pollux workload, one
//   synthetic application per trace job. Per job j (model, B0, scale factor sf, adaptation mode,
//   total steps S; docs/mechanism.md §1.1):
//    - K = sf, B = B0 (the workload row's num_replicas and batch_size);
//    - epochs and schedule: the job's Shockwave profile (adaptsim/profile.hpp, BuildProfile):
//      E = ceil(S / ceil(D / B0)) epochs of D samples, batch B_e per epoch (static: B0;
//      accordion / gns: the reference's patterns), exclusive time T_excl on sf GPUs (the ρ
//      denominator of the round engine; from the task's throughputs table when it is one, else
//      the catalogue);
//    - true throughput: the catalogue's fitted Pollux model of the job's model
//      (data/catalog/v100.toml; docs/throughput-model.md): step = T_optim(N, K, m),
//      sync = T_optim − T_grad, so the engine's T_iter = s·T_grad + T_optim (docs/pollux.md §1.2);
//    - statistical efficiency: pre-conditioned gradient noise scale φ_e per epoch, with
//      E_e(M) = (φ_e + M0)/(φ_e + M) (docs/pollux.md §2.2; McCandlish et al. 2018, eq. 2.7-2.11):
//        static    — the job does not adapt its batch: total batch fixed at M0 = B0 (like the
//                    artifact's ncf), max batch B0, φ_e = B0 (only K changes);
//        accordion — φ_e = B_e: small in Accordion's critical regimes (B_e = B0), large (= the
//                    model's max batch) outside them (Agarwal et al., MLSys'21);
//        gns       — φ_e = B_e: the GNS schedule sets the batch to the measured noise scale
//                    (McCandlish et al. 2018 §2.2, B_crit ≈ B_noise);
//      batch range [M0, the model's max batch], per-GPU batch [1, max batch], K ≤ 1 for models
//      that are not distributed (Recommendation);
//    - work: the progress the job's own schedule accumulates, Σ_e (D/M0)·E_e(B_e) scale-invariant
//      iterations (epoch boundaries at the partial sums), so the trace's schedule run alone on
//      its sf GPUs takes exactly its Shockwave exclusive time (up to integer per-GPU batches),
//      and a different batch choice changes the work as the noise-scale model says;
//    - iterations per epoch at batch b: D / b (the synthetic validation table), so the round view
//      of such a job reads back s_j = sf and S_j = E·D/B0, the trace job's whole epochs at B0.
//
// The names are the policies' and the task's vocabulary (namespace adaptsim, not models::): the
// component sits in the models stage only so that both users — the Gavel family (policies) and
// the task stage — can include it.
#pragma once

#include <string>
#include <vector>

#include "adaptsim/catalogue_file.hpp"
#include "adaptsim/interval_policy.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"

namespace adaptsim {

// ---- Interval job -> round view -----------------------------------------------------------

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
/// `shockwave.py:973` (deepspeech2 at K = 12, B = 640 on dgx-ext) — is left out of the mean.
/// When every group is (a cluster of that one type, as an isolated run on dgx-ext, docs/sia.md
/// §12), the mean of TunedJobExecutedIterationTime over the groups instead; InputError(field
/// "batch_size") when that has no data either.
double TunedJobMeanIterationTime(const IntervalJobView& job,
                                 const std::vector<IntervalNodeGroup>& groups, int num_replicas,
                                 int batch_size);

/// The iteration time, s, of a TunedJobs job at the batch it executes on K = `num_replicas` GPUs
/// packed gpus_per_node per node of a type whose profile is `app`: GavelTunedJobBatch (B at the
/// placement's m_max, the memory cap), the engine's cap m ≤ floor(max_batch/(K(s+1))), then
/// (step + (step − sync)·s)·slowdown. The engine's own timing of that placement (adaptsim's
/// fallback for TunedJobMeanIterationTime, docs/sia.md §11; no reference formula). Throws
/// InputError(field "num_replicas") when K exceeds the type's GPUs, and the profile's errors.
double TunedJobExecutedIterationTime(const PolluxApplication& app, int gpus_per_node, int num_nodes,
                                     int num_replicas, int batch_size, double slowdown);

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

// ---- Trace job -> interval job ------------------------------------------------------------

/// The statistical-efficiency inputs of one trace job (see the header comment).
struct TraceJobEfficiency {
  int init_batch_size = 0;          ///< M0 = B0
  int max_batch_size = 0;           ///< B0 (static) or the model's max batch
  int fixed_batch_size = 0;         ///< B0 for static jobs, else 0
  std::vector<double> noise_scale;  ///< φ_e per epoch, samples
  std::vector<double> progress;     ///< progress gained per epoch along the trace's schedule
};

/// The model above for `job`, whose Shockwave profile has schedule `bs_every_epoch`.
/// `dataset_size_samples` = D, `model_max_batch_size` = the model's max batch.
TraceJobEfficiency TraceEfficiencyModel(const JobSpec& job, const std::vector<int>& bs_every_epoch,
                                        double dataset_size_samples, int model_max_batch_size);

/// A trace converted for the interval engine.
struct PolluxTraceInputs {
  PolluxWorkload workload;               ///< one job per trace line, application = "job-<id>"
  std::vector<double> exclusive_time_s;  ///< per job, Shockwave's T_excl under the catalogue
};

/// Builds the workload and registers one synthetic application per job in `apps`. T_excl (the ρ
/// denominator) comes from `exclusive_source` when given — the task's measured table, so ρ has
/// the round engine's denominators — else from the catalogue. Throws InputError (trace file,
/// line) for a model missing from the catalogue or without a workload description, or a profile
/// without throughput.
PolluxTraceInputs BuildPolluxTraceInputs(const Trace& trace, const Catalogue& catalogue,
                                         PolluxApplications& apps,
                                         const ThroughputSource* exclusive_source = nullptr);

/// The catalogue behind a trace task's `throughputs`: a `.toml` catalogue is read; a
/// Shockwave/Gavel throughputs JSON is fitted on the fly exactly as `adaptsim fit-throughput
/// --gpus-per-node 2` built data/catalog/v100.toml (deterministic). InputError on a bad file.
Catalogue LoadPolluxTraceCatalogue(const std::string& throughputs_path);

}  // namespace adaptsim
