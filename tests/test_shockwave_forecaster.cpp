// Shockwave's forecaster (docs/policies.md §8.1-§8.2; `JobMetaData.py`): hand-computed values.
#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/profile.hpp"
#include "policies/shockwave/shockwave_forecaster.hpp"

namespace adaptsim {
namespace {

// E = 4 epochs, batch sizes [32, 32, 64, 64], preprofiled durations [10, 10, 5, 5] s.
JobProfile SmallProfile() {
  JobProfile profile;
  profile.num_epochs = 4;
  profile.bs_every_epoch = {32, 32, 64, 64};
  profile.duration_every_epoch_s = {10.2, 9.5, 5.0, 4.5};  // rounds half-even to 10, 10, 5, 4
  profile.exclusive_time_s = 29.2;
  return profile;
}

TEST(ShockwaveForecaster, EpochDurationsRoundHalfEvenWithFloorOne) {
  JobProfile profile;
  profile.num_epochs = 4;
  profile.bs_every_epoch = {8, 8, 8, 8};
  profile.duration_every_epoch_s = {0.4, 2.5, 3.5, 10.2};
  ShockwaveJobForecaster f(profile, 100, 0.0, 120.0);
  EXPECT_EQ(f.EpochDuration(0), 1.0);  // max(1, round(0.4) = 0)
  EXPECT_EQ(f.EpochDuration(1), 2.0);  // round(2.5) = 2 (half to even)
  EXPECT_EQ(f.EpochDuration(2), 4.0);  // round(3.5) = 4
  EXPECT_EQ(f.EpochDuration(3), 10.0);
}

// Dirichlet at c = 0: α = {32: 2+1, 64: 2} → rebased {2.4, 1.6}; one decrement for the observed
// 32 → {1.4, 1.6}; inflated = int(3.0 + 1) = 4 = remaining; d̄ = {10, 4.5}: R = 14 + 7.2 = 21.2.
TEST(ShockwaveForecaster, DirichletAtStart) {
  ShockwaveJobForecaster f(SmallProfile(), 1000, 0.0, 120.0);
  EXPECT_NEAR(f.RemainingRuntime(), 1.4 * 10.0 + 1.6 * 4.5, 1e-12);
}

// c = 2: observed [32, 32, 64] → α = {4, 3}, rebased {16/7, 12/7}; decrements 2 and 1 →
// {2/7, 5/7}; inflated = max(int(1 + 1), 2) = 2; R = (2/7·10 + 5/7·4.5) · 2/2.
TEST(ShockwaveForecaster, DirichletMidway) {
  ShockwaveJobForecaster f(SmallProfile(), 1000, 0.0, 120.0);
  f.SetEpochProgress(2);
  EXPECT_NEAR(f.RemainingRuntime(), 2.0 / 7.0 * 10.0 + 5.0 / 7.0 * 4.5, 1e-12);
  EXPECT_NEAR(f.CompletedEpochsDuration(), 20.0, 1e-12);
  EXPECT_NEAR(f.MeanPastEpochDuration(), 25.0 / 3.0, 1e-12);  // mean of epochs 0..2
}

// Remaining epochs <= 0 returns the reference's 1.0.
TEST(ShockwaveForecaster, FinishedJobForecastsOneSecond) {
  ShockwaveJobForecaster f(SmallProfile(), 1000, 0.0, 120.0);
  f.SetEpochProgress(4);
  EXPECT_EQ(f.RemainingRuntime(), 1.0);
  f.SetEpochProgress(99);  // clamped to E
  EXPECT_EQ(f.epoch_progress(), 4);
}

// τ = 120 s covers all 29 s of profile: pre = 4·1000 + 1000·(120-29)/4 = 26750 samples.
// Measured 13375 samples (half) → |Δ|/pre = 0.5 > 0.4 → durations × 2. The reference evaluates
// the partial epoch with the *calibrated* duration, so a second call sees pre = 4000 + 1000·91/8
// = 15375, |Δ|/pre = 0.13 <= 0.4 and keeps the factor: calibration is stateful.
TEST(ShockwaveForecaster, CalibrationIsStatefulLikeTheReference) {
  ShockwaveJobForecaster f(SmallProfile(), 1000, 0.0, 120.0);
  f.Calibrate();
  EXPECT_EQ(f.calibration_factor(), 1.0);  // no measurements: unchanged
  f.AddThroughputMeasurement(1, 13375.0 / (10.0 * 120.0), 10);
  f.Calibrate();
  EXPECT_NEAR(f.calibration_factor(), 2.0, 1e-12);
  EXPECT_NEAR(f.EpochDuration(0), 20.0, 1e-12);
  f.Calibrate();
  EXPECT_NEAR(f.calibration_factor(), 2.0, 1e-12);
}

// Within 40 % nothing changes; the measured sum weights each sample by the round gap.
TEST(ShockwaveForecaster, CalibrationWithinToleranceKeepsProfile) {
  ShockwaveJobForecaster f(SmallProfile(), 1000, 0.0, 120.0);
  // Two entries: rounds 1 and 2 → samples = bs·thr·120·1 + bs·thr·120·1.
  f.AddThroughputMeasurement(1, 25000.0 / (10.0 * 240.0), 10);
  f.AddThroughputMeasurement(2, 25000.0 / (10.0 * 240.0), 10);
  // τ = 240 s: pre = 4000 + 1000·(240-29)/4 = 56750 vs measured 25000 → factor 2.27.
  f.Calibrate();
  EXPECT_NEAR(f.calibration_factor(), 56750.0 / 25000.0, 1e-12);
}

TEST(ShockwaveForecaster, RejectsEmptyProfile) {
  JobProfile empty;
  EXPECT_THROW(ShockwaveJobForecaster(empty, 1000, 0.0, 120.0), InputError);
}

}  // namespace
}  // namespace adaptsim
