// Per-job dynamic-adaptation profile (docs/mechanism.md §3.1-3.3, `utils.generate_pickle_file`,
// `scheduler/utils.py:1331-1443`). Computed once per job; used for the exclusive time (FTF
// denominator, deadline rule) and by Shockwave's forecaster — not for the simulated batch size.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "adaptsim/job.hpp"
#include "adaptsim/throughput.hpp"

namespace adaptsim {

struct JobProfile {
  int num_epochs = 0;                          ///< E = ceil(S / ceil(D / B0))
  std::vector<int> bs_every_epoch;             ///< E entries, samples per iteration
  std::vector<double> duration_every_epoch_s;  ///< E entries, (D / bs_e) / thr(bs_e, sf), seconds
  double exclusive_time_s = 0.0;               ///< T_excl = Σ duration_every_epoch_s
};

/// Most epochs a profile may have (one entry per epoch; the traces' jobs have at most a few
/// thousand). More is a malformed `total_steps`, not a job to simulate.
inline constexpr double kMaxProfileEpochs = 1e6;

/// Builds the profile of `job`. Throws InputError (naming the trace line) when the model is
/// unknown, total_steps gives more than kMaxProfileEpochs epochs, or a batch size of the pattern
/// has no throughput.
JobProfile BuildProfile(const JobSpec& job, const ThroughputSource& throughputs,
                        const std::string& trace_path);

/// The exclusive time of `job`'s batch-size pattern `profile.bs_every_epoch` under another
/// throughput table (a GPU type other than the one `profile` was built on): Σ_e (D / bs_e) /
/// thr(bs_e, sf), summed epoch by epoch as BuildProfile sums T_excl, so that the table `profile`
/// was built on gives exactly `profile.exclusive_time_s`. nullopt when a batch size of the pattern
/// has no positive throughput there (the job cannot run on that type, e.g. ResNet-50 at batch size
/// 128 on K80). The per-type isolated time of the type-weighted ρ (docs/mechanism.md §12.9).
std::optional<double> ExclusiveTimeOn(const JobSpec& job, const JobProfile& profile,
                                      const ThroughputSource& throughputs);

/// Accordion profile pattern (§3.2, `utils.py:741-798`): length `num_epochs`.
std::vector<int> AccordionProfilePattern(std::string_view model, int initial_batch_size,
                                         int num_epochs);

/// GNS pattern (§3.3, `utils.py:801-1328`) including the truncation quirk and the clamp.
std::vector<int> GnsPattern(std::string_view model, int initial_batch_size, int num_epochs,
                            int scale_factor);

}  // namespace adaptsim
