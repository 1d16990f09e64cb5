// Sia's utility matrix (sia_utility.hpp).
#include "sia_utility.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/error.hpp"

namespace adaptsim {

double SiaPolicyRestartPenalty(const std::string& application) {
  auto has = [&](const char* part) { return application.find(part) != std::string::npos; };
  if (has("deepspeech")) return 25;
  if (has("imagenet")) return 250;
  if (has("cifar")) return 30;
  if (has("bert")) return 120;
  if (has("yolov3")) return 45;
  return 30;
}

double SiaRestartPenaltyOf(const SiaJob& job, const SiaOptions& options) {
  return options.restart_penalty == SiaRestartPenalty::kPolicyTable
             ? SiaPolicyRestartPenalty(job.application)
             : job.engine_restart_delay_s;
}

double SiaReallocationFactor(const SiaJob& job, const SiaOptions& options) {
  const double delta = SiaRestartPenaltyOf(job, options);
  // `sia.py:739`; also when age and δ are both 0 (a job submitted this instant, δ = 0).
  if (job.age_s < delta || job.age_s + delta <= 0) return 1.0;
  if (options.restart_factor == SiaRestartFactor::kAge) {
    return std::max(job.age_s - job.num_restarts * delta, 0.0) / (job.age_s + delta);
  }
  return std::max(1 + job.used_gpu_seconds, 0.0) /
         (1 + job.used_gpu_seconds + job.wasted_gpu_seconds + delta);
}

SiaMatrix SiaUtilityMatrix(const SiaMatrix& goodput, const std::vector<SiaJob>& jobs,
                           const std::vector<std::optional<int>>& previous,
                           const SiaOptions& options) {
  if (static_cast<int>(jobs.size()) != goodput.rows ||
      static_cast<int>(previous.size()) != goodput.rows) {
    throw InputError("sia", 0, "previous", "one job and one previous configuration per row");
  }
  SiaMatrix utility = goodput;
  const float p = static_cast<float>(options.p);
  const float clip = static_cast<float>(options.goodput_clip);
  for (int i = 0; i < utility.rows; ++i) {
    if (previous[i]) {
      if (*previous[i] < 0 || *previous[i] >= utility.cols) {
        throw InputError("sia", 0, "previous", "configuration out of range");
      }
      // `sia.py:896-900`: every column but the previous one, scaled by r_i in float32.
      const float factor = static_cast<float>(SiaReallocationFactor(jobs[i], options));
      for (int c = 0; c < utility.cols; ++c) {
        if (c != *previous[i]) utility.at(i, c) *= factor;
      }
    }
    for (int c = 0; c < utility.cols; ++c) {
      // `sia.py:908-914`: np.power, np.round(decimals=2) (x·100, rint, /100 in float32), clip.
      float value = std::pow(utility.at(i, c), p);
      value = std::nearbyint(value * 100.0f) / 100.0f;
      if (value > clip) value = clip;
      utility.at(i, c) = value;
    }
  }
  return utility;
}

}  // namespace adaptsim
