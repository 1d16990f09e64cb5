// The round policies' view of a TunedJobs job (docs/sia.md §9,
// include/adaptsim/job_mapping.hpp, interval job -> round view): total, current and remaining
// iterations at the fixed batch from the validation tables, time since arrival and pre-start
// overhead. Expected values are read off `sia/traces/cifar10/validation-*.csv` by hand (rows quoted
// below).
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/gpu_type_profiles.hpp"
#include "adaptsim/interval_policy.hpp"
#include "adaptsim/job_mapping.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

using testing::DataPath;

// cifar10 has 100 epochs, so S = the iteration column's 100th row: 3178 at B = 2048, 5722 at
// 1024, and at B = 1536 the interpolation between them, (512·3178 + 512·5722)/1024 = 4450
// (`applications.py:184-194`).
TEST(TunedJobRoundView, TotalStepsAreTheValidationTableAtTheBatch) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  const PolluxApplication& app = apps.Get("cifar10", "aws");
  EXPECT_EQ(TunedJobTotalSteps(app, 2048), 3178.0);
  EXPECT_EQ(TunedJobTotalSteps(app, 1024), 5722.0);
  EXPECT_DOUBLE_EQ(TunedJobTotalSteps(app, 1536), 4450.0);
}

// Progress P_1 = 390.714… (the smallest first-row progress, validation-256.csv), P_2 = 781.598…;
// at B = 2048 the first two iteration rows are 112 and 215. Within epoch 0 the step is
// P/P_1·112; within epoch 1 it is 112 + (P − P_1)/(P_2 − P_1)·103, rounded.
TEST(TunedJobRoundView, CurrentStepInterpolatesWithinTheEpoch) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  const PolluxApplication& app = apps.Get("cifar10", "aws");
  const double p1 = app.Progress(1), p2 = app.Progress(2);
  EXPECT_NEAR(p1, 390.71438596642224, 1e-9);
  EXPECT_EQ(TunedJobCurrentStep(app, 2048, 0, 0.0), 0.0);
  EXPECT_EQ(TunedJobCurrentStep(app, 2048, 0, 100.0), 29.0);  // 28.67
  EXPECT_EQ(TunedJobCurrentStep(app, 2048, 1, p1), 112.0);
  EXPECT_EQ(TunedJobCurrentStep(app, 2048, 1, p1 + 0.6 * (p2 - p1)), 174.0);  // 173.8
  EXPECT_EQ(TunedJobCurrentStep(app, 2048, 1, p2), 215.0);
}

// The whole view of a job submitted at 1000 s, K = 4, B = 2048, 60 % into epoch 1, with a 25 s
// restart delay, in 360 s rounds: o = 360 − (1000 mod 360) + 25 = 105 s; N = 3178 − 174.
// At the end of the last epoch N is floored at 1 (`cluster.py:494-495`).
TEST(TunedJobRoundView, ViewOfAJob) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  const PolluxApplication& app = apps.Get("cifar10", "aws");
  PolluxJobSpec spec;
  spec.name = "cifar10-0";
  spec.application = "cifar10";
  spec.submission_time_s = 1000.0;
  spec.num_replicas = 4;
  spec.batch_size = 2048;
  IntervalJobView job;
  job.spec = &spec;
  job.app = &app;
  job.apps_by_group = {&app};
  job.restart_delay_s = 25.0;
  job.age_s = 500.0;
  job.epoch = 1;
  job.progress = app.Progress(1) + 0.6 * (app.Progress(2) - app.Progress(1));
  const TunedJobRoundView view = MakeTunedJobRoundView(job, 360.0, {2.0, 3.0});
  EXPECT_EQ(view.scale_factor, 4);
  EXPECT_EQ(view.throughputs, (std::vector<double>{2.0, 3.0}));
  EXPECT_EQ(view.total_steps, 3178.0);
  EXPECT_EQ(view.current_step, 174.0);
  EXPECT_EQ(view.remaining_steps, 3004.0);
  EXPECT_EQ(view.time_since_arrival_s, 500.0);
  EXPECT_DOUBLE_EQ(view.prestart_overhead_s, 105.0);

  job.epoch = app.completion_epoch();
  job.progress = app.Progress(app.max_epochs());
  const TunedJobRoundView done = MakeTunedJobRoundView(job, 360.0, {2.0});
  EXPECT_EQ(done.current_step, 3178.0);
  EXPECT_EQ(done.remaining_steps, 1.0);
}

// X per node group is gavel_tj's throughput with each group's profile and node shape.
TEST(TunedJobRoundView, ThroughputsPerGroupAreGavelsPrediction) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  PolluxJobSpec spec;
  spec.num_replicas = 4;
  spec.batch_size = 2048;
  IntervalJobView job;
  job.spec = &spec;
  job.apps_by_group = {&apps.Get("cifar10", "aws"), &apps.Get("cifar10", "rtx")};
  job.slowdown = 1.8;
  const std::vector<IntervalNodeGroup> groups = {{"aws", 6, 4, 0, 0}, {"rtx", 3, 8, 6, 0}};
  const std::vector<double> x = TunedJobThroughputs(job, groups);
  ASSERT_EQ(x.size(), 2u);
  EXPECT_NEAR(x[1], 3.124525667930045, 1e-12);  // docs/sia.md §8's check vector
  EXPECT_EQ(x[0], GavelTunedJobThroughput(*job.apps_by_group[0], 4, 6, 4, 2048, 1.8));
  // K larger than every group is refused, naming the workload field.
  spec.num_replicas = 32;
  EXPECT_THROW(CheckTunedJobFits(job, groups), InputError);
  spec.num_replicas = 24;
  EXPECT_NO_THROW(CheckTunedJobFits(job, groups));
}

// Shockwave's iteration time (`shockwave.py:950-976`). On aws, K = 1 at B = 2048: local 2048,
// aws's largest local batch 1024, so s = 1, m = 1024, the row (1, 1024) = (0.70209…, 0.00054…),
// time = (step + (step − sync))·1.8. On dgx-ext at K = 4, B = 16384 the type's global m_max 4096
// gives s = 0 and m = min(4096, 4096/4) = 1024, where Gavel's placement m_max 2051 gives s = 1 and
// m = 4096/8 = 512: the two predictions differ only in that rule.
TEST(TunedJobRoundView, ShockwaveIterationTimeUsesTheTypesGlobalLocalBatch) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  const PolluxApplication& aws = apps.Get("cifar10", "aws");
  const double step = 0.7020925283432007, sync = 0.0005468864023685456;
  EXPECT_NEAR(ShockwaveTunedJobIterationTime(aws, 4, 6, 1, 2048, 1.8), (step + (step - sync)) * 1.8,
              1e-12);
  const PolluxApplication& dgx = apps.Get("cifar10", "dgx-ext");
  const StepTimes at1024 = dgx.Throughput({4}, 1024);
  EXPECT_NEAR(ShockwaveTunedJobIterationTime(dgx, 8, 2, 4, 16384, 1.2), at1024.step_time_s * 1.2,
              1e-12);
  const StepTimes at512 = dgx.Throughput({4}, 512);
  EXPECT_NEAR(GavelTunedJobThroughput(dgx, 8, 2, 4, 16384, 1.2),
              1.0 / (at512.step_time_s + (at512.step_time_s - at512.sync_time_s)) / 1.2, 1e-12);
  // More replicas than the type has GPUs: the reference asserts; adaptsim refuses.
  EXPECT_THROW(ShockwaveTunedJobIterationTime(aws, 4, 1, 8, 2048, 1.8), InputError);

  // The mean over the node groups (shockwave.py:990-995).
  PolluxJobSpec spec;
  spec.num_replicas = 1;
  spec.batch_size = 2048;
  IntervalJobView job;
  job.spec = &spec;
  job.apps_by_group = {&aws, &dgx};
  job.slowdown = 1.8;
  const std::vector<IntervalNodeGroup> groups = {{"aws", 6, 4, 0, 0}, {"dgx-ext", 2, 8, 6, 0}};
  EXPECT_DOUBLE_EQ(TunedJobMeanIterationTime(job, groups, 1, 2048),
                   (ShockwaveTunedJobIterationTime(aws, 4, 6, 1, 2048, 1.8) +
                    ShockwaveTunedJobIterationTime(dgx, 8, 2, 1, 2048, 1.8)) /
                       2);
}

// deepspeech2 at K = 12, B = 640: on dgx-ext (2 × 8 GPUs) the prediction's batch (53 on (8, 4))
// lies outside the profile, where the reference asserts (`shockwave.py:973`); the mean leaves
// that type out. With no type left it falls back to the executed batch's time.
TEST(TunedJobRoundView, MeanIterationTimeLeavesOutTypesWithoutProfileData) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  const PolluxApplication& aws = apps.Get("deepspeech2", "aws");
  const PolluxApplication& dgx = apps.Get("deepspeech2", "dgx-ext");
  EXPECT_THROW(ShockwaveTunedJobIterationTime(dgx, 8, 2, 12, 640, 1.0), InputError);
  PolluxJobSpec spec;
  spec.name = "deepspeech2-0";
  spec.num_replicas = 12;
  spec.batch_size = 640;
  IntervalJobView job;
  job.spec = &spec;
  job.apps_by_group = {&aws, &dgx};
  const std::vector<IntervalNodeGroup> groups = {{"aws", 6, 4, 0, 0}, {"dgx-ext", 2, 8, 6, 0}};
  EXPECT_DOUBLE_EQ(TunedJobMeanIterationTime(job, groups, 12, 640),
                   ShockwaveTunedJobIterationTime(aws, 4, 6, 12, 640, 1.0));
  // dgx-ext alone (an isolated run there): the batch the job executes on (8, 4) — 640 over 12
  // GPUs is 54 per GPU, beyond the placement's 40, so one accumulation step of 27, capped at
  // floor(640 / 24) = 26 by the largest batch, 640.
  job.apps_by_group = {&dgx};
  const StepTimes at26 = dgx.Throughput({8, 4}, 26);
  const double executed = at26.step_time_s + (at26.step_time_s - at26.sync_time_s);
  EXPECT_DOUBLE_EQ(TunedJobExecutedIterationTime(dgx, 8, 2, 12, 640, 1.0), executed);
  EXPECT_DOUBLE_EQ(TunedJobMeanIterationTime(job, {groups[1]}, 12, 640), executed);
  // With the type's whole profile beyond reach (K larger than its GPUs) it stays an input error.
  try {
    TunedJobMeanIterationTime(job, {{"dgx-ext", 1, 8, 6, 0}}, 12, 640);
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "batch_size");
  }
}

}  // namespace
}  // namespace adaptsim
