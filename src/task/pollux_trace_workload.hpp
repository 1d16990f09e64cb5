// Pollux on the Shockwave traces (docs/pollux.md "Pollux on the Shockwave
// traces"): a `.trace` workload becomes a Pollux workload for the interval engine, one synthetic
// application per trace job.
//
// Per job j (model, B0, scale factor sf, adaptation mode, total steps S; docs/mechanism.md §1.1):
//  * epochs and schedule: the job's Shockwave profile (adaptsim/profile.hpp, BuildProfile):
//    E = ceil(S / ceil(D / B0)) epochs of D samples, batch B_e per epoch (static: B0; accordion /
//    gns: the reference's patterns), exclusive time T_excl on sf GPUs (the ρ denominator of the
//    round engine; from the task's throughputs table when it is one, else the catalogue);
//  * true throughput: the catalogue's fitted Pollux model of the job's model
//    (data/catalog/v100.toml; docs/throughput-model.md): step = T_optim(N, K, m),
//    sync = T_optim − T_grad, so the engine's T_iter = s·T_grad + T_optim (docs/pollux.md §1.2);
//  * statistical efficiency: pre-conditioned gradient noise scale φ_e per epoch, with
//    E_e(M) = (φ_e + M0)/(φ_e + M) (docs/pollux.md §2.2; McCandlish et al. 2018, eq. 2.7-2.11):
//      static    — the job does not adapt its batch: total batch fixed at M0 = B0 (like the
//                  artifact's ncf), max batch B0, φ_e = B0 (only K changes);
//      accordion — φ_e = B_e: small in Accordion's critical regimes (B_e = B0), large (= the
//                  model's max batch) outside them (Agarwal et al., MLSys'21);
//      gns       — φ_e = B_e: the GNS schedule sets the batch to the measured noise scale
//                  (McCandlish et al. 2018 §2.2, B_crit ≈ B_noise);
//    batch range [M0, the model's max batch], per-GPU batch [1, max batch], K ≤ 1 for models
//    that are not distributed (Recommendation);
//  * work: the progress the job's own schedule accumulates, Σ_e (D/M0)·E_e(B_e) scale-invariant
//    iterations (epoch boundaries at the partial sums), so the trace's schedule run alone on its
//    sf GPUs takes exactly its Shockwave exclusive time (up to integer per-GPU batches), and a
//    different batch choice changes the work as the noise-scale model says.
#pragma once

#include <string>
#include <vector>

#include "adaptsim/catalogue_file.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"

namespace adaptsim {

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
