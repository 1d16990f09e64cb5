// Shockwave's per-job metadata and remaining-time forecast (docs/policies.md §8.1-§8.2; reference
// `scheduler/JobMetaData.py` of uw-mad-dash/shockwave@8a44f4a).
//
// * Epoch durations (`JobMetaData.py:105-114`): preprofiled d_e = max(1, round(duration_e)) with
//   round-half-even, from the job's profile (docs/mechanism.md §3.1).
// * Calibration (`calibrate_profiled_epoch_duration`, `JobMetaData.py:225-288`): measured samples
//   Σ_i bs_i · thr_i · Δ · (r_i - r_{i-1}) over the throughput timeline (r_0 = 0) against the
//   samples the preprofiled durations would have processed in τ = Δ · r_m; when they differ by more
//   than 40 %, every duration becomes d_e · pre/meas. The reference evaluates the partial epoch
//   with the *current* (possibly calibrated) duration, so calibration is stateful and the number
//   of calls matters: every method below that the reference implements with a calibration calls
//   Calibrate() exactly as often as the reference does.
// * Dirichlet forecast (`dirichlet_posterior_remaining_runtime`, `JobMetaData.py:315-370`).
// Representation: calibrated durations are always d_e · scale (one scalar), so calibration is
// O(log E). Not thread-safe; one instance per job.
#pragma once

#include <cstdint>
#include <vector>

#include "adaptsim/profile.hpp"

namespace adaptsim {

class ShockwaveJobForecaster {
 public:
  /// `profile` of the job (copied), D = dataset size in samples, the round-boundary time at which
  /// the job was admitted (`timestamp_submit`), and the round length Δ in seconds.
  /// Throws InputError when the profile has no epochs or inconsistent lengths.
  ShockwaveJobForecaster(const JobProfile& profile, std::int64_t dataset_size_samples,
                         double submit_time_s, double round_duration_s);

  /// One throughput-timeline entry: the round index under which the engine records the
  /// micro-task's completion (increasing), steps/s measured and the batch size it ran at.
  void AddThroughputMeasurement(int round, double steps_per_s, int batch_size);
  /// c_j, completed epochs; clamped to [0, E] (the reference asserts it).
  void SetEpochProgress(int epochs);

  /// `calibrate_profiled_epoch_duration()`.
  void Calibrate();
  /// `dirichlet_posterior_remaining_runtime(progress)`; seconds. Calibrates once unless it
  /// returns the early 1.0.
  double RemainingRuntime(int progress);
  double RemainingRuntime() { return RemainingRuntime(epoch_progress_); }
  /// `interpolate_epoch_duration` (`shockwave.py:322-324`): calibrates, then mean of the
  /// calibrated durations of epochs 0..c (inclusive). Seconds.
  double MeanPastEpochDuration();
  /// Σ_{e<c} calibrated duration (no calibration call). Seconds.
  double CompletedEpochsDuration() const;

  int num_epochs() const { return static_cast<int>(preprofiled_s_.size()); }
  int epoch_progress() const { return epoch_progress_; }
  double submit_time_s() const { return submit_time_s_; }
  /// Current calibrated duration of epoch e, seconds.
  double EpochDuration(int e) const { return preprofiled_s_.at(e) * scale_; }
  /// pre/meas of the last calibration that changed the durations (1 = never).
  double calibration_factor() const { return scale_; }

 private:
  std::vector<double> preprofiled_s_;          ///< d_e
  std::vector<double> prefix_s_;               ///< Σ_{e<i} d_e, sequential sums (E + 1 entries)
  std::vector<int> modes_;                     ///< sorted distinct batch sizes of the profile
  std::vector<std::vector<int>> mode_prefix_;  ///< [mode][i] = #epochs < i with that bs
  std::vector<double> mode_duration_sum_s_;    ///< Σ d_e over the epochs of each mode
  double dataset_size_ = 0.0;
  double submit_time_s_ = 0.0;
  double round_s_ = 120.0;
  double scale_ = 1.0;
  int epoch_progress_ = 0;
  // Running sums over the throughput timeline (appended in increasing round order).
  double measured_samples_ = 0.0;
  int last_round_ = 0;
  bool has_measurements_ = false;
};

}  // namespace adaptsim
