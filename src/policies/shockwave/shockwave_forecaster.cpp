// Shockwave forecaster (shockwave_forecaster.hpp).
#include "shockwave_forecaster.hpp"

#include <algorithm>
#include <cmath>

#include "adaptsim/error.hpp"

namespace adaptsim {

ShockwaveJobForecaster::ShockwaveJobForecaster(const JobProfile& profile,
                                               std::int64_t dataset_size_samples,
                                               double submit_time_s, double round_duration_s)
    : dataset_size_(static_cast<double>(dataset_size_samples)),
      submit_time_s_(submit_time_s),
      round_s_(round_duration_s) {
  const std::size_t epochs = profile.duration_every_epoch_s.size();
  if (profile.num_epochs <= 0 || epochs != static_cast<std::size_t>(profile.num_epochs) ||
      profile.bs_every_epoch.size() != epochs) {
    throw InputError("profile", 0, "num_epochs",
                     "Shockwave needs a profile with >= 1 epoch and one duration and batch size "
                     "per epoch");
  }
  prefix_s_.assign(1, 0.0);
  for (double d : profile.duration_every_epoch_s) {
    // `convert_epoch_duration_in_seconds`: max(1, round(d)), Python's round-half-even.
    preprofiled_s_.push_back(std::max(1.0, std::nearbyint(d)));
    prefix_s_.push_back(prefix_s_.back() + preprofiled_s_.back());
  }
  modes_ = profile.bs_every_epoch;
  std::sort(modes_.begin(), modes_.end());
  modes_.erase(std::unique(modes_.begin(), modes_.end()), modes_.end());
  mode_prefix_.assign(modes_.size(), std::vector<int>(epochs + 1, 0));
  mode_duration_sum_s_.assign(modes_.size(), 0.0);
  for (std::size_t e = 0; e < epochs; ++e) {
    const auto m = static_cast<std::size_t>(
        std::lower_bound(modes_.begin(), modes_.end(), profile.bs_every_epoch[e]) - modes_.begin());
    for (std::size_t i = 0; i < modes_.size(); ++i) {
      mode_prefix_[i][e + 1] = mode_prefix_[i][e] + (i == m ? 1 : 0);
    }
    mode_duration_sum_s_[m] += preprofiled_s_[e];
  }
}

void ShockwaveJobForecaster::AddThroughputMeasurement(int round, double steps_per_s,
                                                      int batch_size) {
  // `measured_throughput * gavel_round_duration * (cur_round - prev_round)`, then × bs.
  const double iterations = steps_per_s * round_s_ * static_cast<double>(round - last_round_);
  measured_samples_ += static_cast<double>(batch_size) * iterations;
  last_round_ = round;
  has_measurements_ = true;
}

void ShockwaveJobForecaster::SetEpochProgress(int epochs) {
  epoch_progress_ = std::clamp(epochs, 0, num_epochs());
}

void ShockwaveJobForecaster::Calibrate() {
  if (!has_measurements_) return;
  const double horizon_s = round_s_ * last_round_;
  const int epochs = num_epochs();
  // First epoch whose preprofiled end exceeds the horizon (the loop's break), else the last.
  const auto it = std::upper_bound(prefix_s_.begin() + 1, prefix_s_.end(), horizon_s);
  const int full = static_cast<int>(it - (prefix_s_.begin() + 1));
  const int stop = std::min(full, epochs - 1);
  double preprofiled_samples = dataset_size_ * full;
  const double deficit_s = horizon_s - prefix_s_[full];
  if (deficit_s > 0.0) {
    preprofiled_samples += dataset_size_ * deficit_s / EpochDuration(stop);
  }
  if (measured_samples_ <= 0.0 || preprofiled_samples <= 0.0 ||
      std::abs(measured_samples_ - preprofiled_samples) / preprofiled_samples <= 0.4) {
    return;
  }
  scale_ = preprofiled_samples / measured_samples_;
}

double ShockwaveJobForecaster::RemainingRuntime(int progress) {
  const int epochs = num_epochs();
  progress = std::clamp(progress, 0, epochs);
  const int observed = std::min(progress + 1, epochs);
  const double prior = static_cast<double>(epochs) / static_cast<double>(modes_.size());
  double concentration_sum = 0.0;
  std::vector<double> alpha(modes_.size());
  for (std::size_t m = 0; m < modes_.size(); ++m) {
    alpha[m] = prior + mode_prefix_[m][observed];
    concentration_sum += alpha[m];
  }
  double rebased_sum = 0.0;
  std::vector<double> rebased(modes_.size());
  for (std::size_t m = 0; m < modes_.size(); ++m) {
    const double value = epochs * alpha[m] / concentration_sum;
    // One decrement per observation while the value is >= 1 (exact in binary floating point).
    const double decrements =
        value >= 1.0 ? std::min<double>(mode_prefix_[m][observed], std::floor(value)) : 0.0;
    rebased[m] = value - decrements;
    rebased_sum += rebased[m];
  }
  const int remaining = epochs - epoch_progress_;
  const int inflated = std::max(static_cast<int>(rebased_sum + 1.0), remaining);
  if (inflated <= 0 || remaining <= 0) return 1.0;
  Calibrate();  // `get_bs_epoch_duration_map`
  double runtime_s = 0.0;
  for (std::size_t m = 0; m < modes_.size(); ++m) {
    const double count = mode_prefix_[m].back();
    runtime_s += rebased[m] * (mode_duration_sum_s_[m] * scale_ / count);
  }
  runtime_s *= static_cast<double>(remaining) / static_cast<double>(inflated);
  return runtime_s;
}

double ShockwaveJobForecaster::MeanPastEpochDuration() {
  Calibrate();
  const int count = std::min(epoch_progress_ + 1, num_epochs());
  return prefix_s_[count] * scale_ / count;
}

double ShockwaveJobForecaster::CompletedEpochsDuration() const {
  return prefix_s_[epoch_progress_] * scale_;
}

}  // namespace adaptsim
