// Per-job profile (docs/mechanism.md §3.1-3.3; `utils.generate_pickle_file`,
// `scheduler/utils.py:1331-1443`).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "adaptsim/error.hpp"
#include "adaptsim/profile.hpp"
#include "adaptsim/workload.hpp"
#include "gns_rules.hpp"

namespace adaptsim {
namespace {

/// Calls `f(e, duration_s)` for every epoch e of the pattern `sizes`, duration (D / bs_e) /
/// thr(bs_e, sf), in order; a run of equal batch sizes shares one throughput look-up. Returns 0,
/// or the first batch size without a positive throughput (then stops).
template <typename F>
int ForEachEpochDuration(const JobSpec& job, const std::vector<int>& sizes, double dataset,
                         const ThroughputSource& throughputs, F&& f) {
  int run_batch_size = 0;  // batch sizes are >= 1
  double run_duration_s = 0.0;
  for (std::size_t e = 0; e < sizes.size(); ++e) {
    if (sizes[e] != run_batch_size) {
      run_batch_size = sizes[e];
      std::optional<double> thr =
          throughputs.ThroughputStepsPerS(job.model, run_batch_size, job.scale_factor);
      if (!thr || *thr <= 0) return run_batch_size;
      run_duration_s = (dataset / run_batch_size) / *thr;
    }
    f(e, run_duration_s);
  }
  return 0;
}

bool InRange(int e, int begin, int end) {
  return e >= begin && e < end;
}

// Profile critical regime of accordion (§3.2, `utils.py:741-798`).
bool InProfileCriticalRegime(std::string_view model, int b0, int e) {
  if (model == "ResNet-18") {
    int r = (b0 == 256) ? 20 : 10;
    return InRange(e, 0, r) || InRange(e, 150, 160) || InRange(e, 250, 260);
  }
  if (model == "ResNet-50") return e < 600 && e % 30 < 10;
  if (model == "LM") return e < 10;
  if (model == "Recommendation") {
    int r = (b0 == 2048) ? 40 : (b0 >= 4096 ? 10 : 30);
    return InRange(e, 0, r) || InRange(e, 60, 70) || InRange(e, 80, 90);
  }
  return true;
}

}  // namespace

std::vector<int> AccordionProfilePattern(std::string_view model, int initial_batch_size,
                                         int num_epochs) {
  std::vector<int> pattern(num_epochs, initial_batch_size);
  const ModelInfo* info = FindModel(model);
  // Only these four models have epochs outside the critical regime (InProfileCriticalRegime is
  // true at every epoch of any other model, so its pattern stays constant), and none after
  // kLastCriticalEpoch.
  constexpr int kLastCriticalEpoch = 600;
  const bool bounded =
      model == "ResNet-18" || model == "ResNet-50" || model == "LM" || model == "Recommendation";
  if (info == nullptr || !bounded) return pattern;
  const double switch_after = 0.3 * num_epochs;  // epochs e > 0.3 E leave the initial size
  const int head_end = std::min(num_epochs, kLastCriticalEpoch);
  for (int e = 0; e < head_end; ++e) {
    if (!InProfileCriticalRegime(model, initial_batch_size, e) && e > switch_after) {
      pattern[e] = info->max_batch_size;
    }
  }
  // From kLastCriticalEpoch on every epoch past 0.3 E switches: the first integer e > x is
  // floor(x) + 1. One fill instead of a test per epoch (profiles reach 10^6 epochs).
  const int tail_begin = std::max(head_end, static_cast<int>(std::floor(switch_after)) + 1);
  if (tail_begin < num_epochs) {
    std::fill(pattern.begin() + tail_begin, pattern.end(), info->max_batch_size);
  }
  return pattern;
}

std::vector<int> GnsPattern(std::string_view model, int initial_batch_size, int num_epochs,
                            int scale_factor) {
  std::vector<int> pattern(num_epochs, initial_batch_size);
  for (const internal::GnsRule& rule : internal::GnsRules()) {
    if (rule.model != model || rule.initial_batch_size != initial_batch_size ||
        rule.scale_factor != scale_factor || num_epochs <= rule.min_epochs_exclusive) {
      continue;
    }
    // Truncation quirk (§3.3): the first segment assigns, then stops at the last epoch; later
    // segments stop before assigning, so epoch E-1 changes only inside the first segment.
    bool first = true;
    for (const internal::GnsSegment& segment : rule.segments) {
      int end = segment.end_epoch == internal::kToEnd ? num_epochs : segment.end_epoch;
      for (int e = segment.begin_epoch; e < end; ++e) {
        if (!first && e + 1 >= num_epochs) break;
        pattern[e] = initial_batch_size * segment.multiplier;
        if (first && e + 1 >= num_epochs) break;
      }
      first = false;
    }
    break;
  }
  // Clamp to the model's limit (`utils.py:810-816, 1325-1327`).
  if (const ModelInfo* info = FindModel(model); info != nullptr) {
    for (int& bs : pattern) bs = std::min(bs, info->max_batch_size);
  }
  return pattern;
}

JobProfile BuildProfile(const JobSpec& job, const ThroughputSource& throughputs,
                        const std::string& trace_path) {
  const int line = job.id + 1;
  const ModelInfo* model = FindModel(job.model);
  if (model == nullptr) {
    throw InputError(trace_path, line, "job_type", "unknown model '" + job.model + "'");
  }
  const double dataset = static_cast<double>(model->dataset_size_samples);
  JobProfile profile;
  const double iterations_per_epoch = std::ceil(dataset / job.initial_batch_size);
  const double num_epochs = std::ceil(job.total_steps / iterations_per_epoch);
  if (!(num_epochs <= kMaxProfileEpochs)) {
    char message[200];
    std::snprintf(message, sizeof message,
                  "%lld steps at batch size %d are %.0f epochs of the model's dataset; at most "
                  "%.0f are supported",
                  static_cast<long long>(job.total_steps), job.initial_batch_size, num_epochs,
                  kMaxProfileEpochs);
    throw InputError(trace_path, line, "total_steps", message);
  }
  profile.num_epochs = static_cast<int>(num_epochs);
  switch (job.mode) {
    case AdaptationMode::kStatic:
      profile.bs_every_epoch.assign(profile.num_epochs, job.initial_batch_size);
      break;
    case AdaptationMode::kAccordion:
      profile.bs_every_epoch =
          AccordionProfilePattern(job.model, job.initial_batch_size, profile.num_epochs);
      break;
    case AdaptationMode::kGns:
      profile.bs_every_epoch =
          GnsPattern(job.model, job.initial_batch_size, profile.num_epochs, job.scale_factor);
      break;
  }
  // One pass; a run of equal batch sizes shares one throughput look-up (a pattern changes the
  // batch size rarely). T_excl is summed epoch by epoch, in order.
  profile.duration_every_epoch_s.resize(profile.bs_every_epoch.size());
  double* duration_s = profile.duration_every_epoch_s.data();
  const int missing = ForEachEpochDuration(job, profile.bs_every_epoch, dataset, throughputs,
                                           [&](std::size_t e, double run_duration_s) {
                                             duration_s[e] = run_duration_s;
                                             profile.exclusive_time_s += run_duration_s;
                                           });
  if (missing != 0) {
    throw InputError(trace_path, line, "job_type",
                     "no positive throughput for " + JobTypeName(job.model, missing) + " on " +
                         std::to_string(job.scale_factor) + " GPU(s) in " + throughputs.Describe());
  }
  return profile;
}

std::optional<double> ExclusiveTimeOn(const JobSpec& job, const JobProfile& profile,
                                      const ThroughputSource& throughputs) {
  const ModelInfo* model = FindModel(job.model);
  if (model == nullptr) return std::nullopt;
  double exclusive_time_s = 0.0;
  const int missing = ForEachEpochDuration(
      job, profile.bs_every_epoch, static_cast<double>(model->dataset_size_samples), throughputs,
      [&](std::size_t, double duration_s) { exclusive_time_s += duration_s; });
  if (missing != 0) return std::nullopt;
  return exclusive_time_s;
}

}  // namespace adaptsim
