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
  if (info == nullptr || model == "Transformer") return pattern;
  // These four models have no critical regime from epoch kLastCriticalEpoch on (see
  // InProfileCriticalRegime), so a long profile skips the per-epoch test there.
  constexpr int kLastCriticalEpoch = 600;
  const bool bounded =
      model == "ResNet-18" || model == "ResNet-50" || model == "LM" || model == "Recommendation";
  for (int e = 0; e < num_epochs; ++e) {
    const bool critical = !(bounded && e >= kLastCriticalEpoch) &&
                          InProfileCriticalRegime(model, initial_batch_size, e);
    if (!critical && e > 0.3 * num_epochs) {
      pattern[e] = info->max_batch_size;
    }
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
  profile.duration_every_epoch_s.reserve(profile.num_epochs);
  // A run of equal batch sizes shares one look-up (a pattern changes the batch size rarely).
  int run_batch_size = 0;  // batch sizes are >= 1
  double run_duration_s = 0.0;
  for (int bs : profile.bs_every_epoch) {
    if (bs != run_batch_size) {
      std::optional<double> thr = throughputs.ThroughputStepsPerS(job.model, bs, job.scale_factor);
      if (!thr || *thr <= 0) {
        throw InputError(trace_path, line, "job_type",
                         "no positive throughput for " + JobTypeName(job.model, bs) + " on " +
                             std::to_string(job.scale_factor) + " GPU(s) in " +
                             throughputs.Describe());
      }
      run_batch_size = bs;
      run_duration_s = (dataset / bs) / *thr;
    }
    profile.duration_every_epoch_s.push_back(run_duration_s);
    profile.exclusive_time_s += run_duration_s;
  }
  return profile;
}

}  // namespace adaptsim
