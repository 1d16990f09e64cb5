// Unit tests that state the mathematics of the mechanism and the first policies.
#include <gtest/gtest.h>

#include "adaptsim/adaptation.hpp"
#include "engine/placement.hpp"
#include "policies/gavel/fifo.hpp"
#include "policies/gavel/gandiva_fair.hpp"
#include "policies/gavel/max_min_fairness.hpp"

namespace adaptsim::testing {
namespace {

// A cluster state with jobs of the given scale factors (weights 1).
struct Fixture {
  std::vector<JobSpec> specs;
  ClusterState state;
  Fixture(std::vector<int> scale_factors, int gpus) {
    specs.resize(scale_factors.size());
    for (std::size_t i = 0; i < scale_factors.size(); ++i) {
      specs[i].id = static_cast<JobId>(i);
      specs[i].scale_factor = scale_factors[i];
    }
    state.num_gpus = gpus;
    for (const JobSpec& spec : specs) {
      ActiveJobView view;
      view.id = spec.id;
      view.spec = &spec;
      view.scale_factor = spec.scale_factor;
      view.throughput_steps_per_s = 1.0;
      state.jobs.push_back(view);
    }
  }
};

TEST(MaxMinFairness, ContendedIsCOverMTimesScaleFactor) {
  Fixture f({1, 2, 4, 1, 1, 1, 1, 1, 1, 1}, 4);  // m = 10 > C = 4
  Allocation a = MaxMinFairnessPolicy({}).ComputeAllocation(f.state);
  for (const JobSpec& spec : f.specs) {
    EXPECT_DOUBLE_EQ(a.time_fraction.at(spec.id), 4.0 / (10.0 * spec.scale_factor));
  }
}

TEST(MaxMinFairness, UncontendedFaceRules) {
  // C = 4, s = [1, 2, 1]: t* = 1, lower bounds [1, 0.5, 1], one GPU of slack for the s=2 job.
  Fixture f({1, 2, 1}, 4);
  EXPECT_DOUBLE_EQ(MaxMinFairnessPolicy({0.0}).ComputeAllocation(f.state).time_fraction.at(1), 0.5);
  EXPECT_DOUBLE_EQ(MaxMinFairnessPolicy({0.5}).ComputeAllocation(f.state).time_fraction.at(1),
                   0.75);
  EXPECT_DOUBLE_EQ(MaxMinFairnessPolicy({1.0}).ComputeAllocation(f.state).time_fraction.at(1), 1.0);
  EXPECT_DOUBLE_EQ(MaxMinFairnessPolicy({0.5}).ComputeAllocation(f.state).time_fraction.at(0), 1.0);
}

TEST(GandivaFair, EqualShareIgnoringScaleFactor) {
  Fixture crowded({1, 2, 4, 8}, 2);
  for (auto [id, x] : GandivaFairPolicy().ComputeAllocation(crowded.state).time_fraction) {
    EXPECT_DOUBLE_EQ(x, 0.5) << id;
  }
  Fixture sparse({1, 2}, 8);
  for (auto [id, x] : GandivaFairPolicy().ComputeAllocation(sparse.state).time_fraction) {
    EXPECT_DOUBLE_EQ(x, 1.0) << id;
  }
}

TEST(Fifo, AdmitsInIdOrderAndStopsAtFirstMisfit) {
  for (bool respect_capacity : {false, true}) {
    Fixture f({2, 4, 1, 1}, 4);  // job 0 (2 GPUs) fits, job 1 (4) does not: stop, job 2 waits
    FifoOptions options;
    options.respect_capacity = respect_capacity;
    FifoPolicy fifo(options);
    Allocation a = fifo.ComputeAllocation(f.state);
    EXPECT_EQ(a.time_fraction.at(0), 1.0);
    EXPECT_EQ(a.time_fraction.at(1), 0.0);
    EXPECT_EQ(a.time_fraction.at(2), 0.0);
    // Job 0 leaves: job 1 now fits and keeps the queue order.
    f.state.jobs.erase(f.state.jobs.begin());
    a = fifo.ComputeAllocation(f.state);
    EXPECT_EQ(a.time_fraction.at(1), 1.0);
    EXPECT_EQ(a.time_fraction.at(2), 0.0);
  }
}

// docs/policies.md §4.3: a completed job's place goes to the queue head if it fits in the GPUs
// counted so far, before the running jobs with larger ids are subtracted (`fifo.py:101-131`).
TEST(Fifo, ReferenceAdmitsReplacementBeforeSubtractingLaterJobs) {
  for (bool respect_capacity : {false, true}) {
    Fixture f({1, 1, 2}, 2);  // jobs 0 and 1 (1 GPU each) run, job 2 (2 GPUs) queues
    FifoOptions options;
    options.respect_capacity = respect_capacity;
    FifoPolicy fifo(options);
    Allocation a = fifo.ComputeAllocation(f.state);
    EXPECT_EQ(a.time_fraction.at(2), 0.0);
    f.state.jobs.erase(f.state.jobs.begin());  // job 0 completes; job 1 still runs
    a = fifo.ComputeAllocation(f.state);
    EXPECT_EQ(a.time_fraction.at(1), 1.0);
    // Reference: job 0 is visited with 2 GPUs counted free, job 2 (2 GPUs) is admitted, then
    // job 1 is subtracted: 3 GPUs admitted on 2. respect_capacity: 1 GPU free, job 2 waits.
    EXPECT_EQ(a.time_fraction.at(2), respect_capacity ? 0.0 : 1.0) << respect_capacity;
  }
}

TEST(Placement, LargestFirstKeepsPreviousGpusElseLowestFree) {
  RoundPlan plan{{{0, {}}, {1, {}}, {2, {}}}, {}};
  std::map<JobId, int> sf{{0, 1}, {1, 2}, {2, 1}};
  std::map<JobId, std::vector<int>> previous{{2, {3}}, {1, {0, 3}}};
  // Job 1 (2 GPUs) goes first; its previous GPUs {0, 3} are free, so it keeps them. Job 2's
  // previous GPU 3 is now taken, so jobs 0 and 2 get the lowest free ids 1 and 2.
  std::vector<ScheduledJob> placed = PlaceRound(plan, Cluster::Homogeneous(4), sf, previous);
  ASSERT_EQ(placed.size(), 3u);
  EXPECT_EQ(placed[0].id, 1);
  EXPECT_EQ(placed[0].worker_ids, (std::vector<int>{0, 3}));
  EXPECT_EQ(placed[1].id, 0);
  EXPECT_EQ(placed[1].worker_ids, std::vector<int>{1});
  EXPECT_EQ(placed[2].id, 2);
  EXPECT_EQ(placed[2].worker_ids, std::vector<int>{2});
  RoundPlan too_big{{{0, {}}, {1, {}}, {2, {}}}, {}};
  EXPECT_THROW(PlaceRound(too_big, Cluster::Homogeneous(3), sf, {}), std::logic_error);
}

TEST(Adaptation, RescalePreservesEpochCount) {
  // The reference's worked example (`scheduler.py:4872-4902`): Recommendation, bs 4096, 3500
  // iterations = 121 epochs of ceil(117907/4096) = 29; at bs 8192 an epoch is 15 iterations, so
  // the total becomes 121 · 15 = 1815, not 1750.
  const ModelInfo& model = *FindModel("Recommendation");
  AdaptationState state{4096, 3500, 58, BatchSizeRequest::kNone};
  RescaleToBatchSize(model, 8192, state);
  EXPECT_EQ(state.total_steps, 1815);
  EXPECT_EQ(state.steps_run, 2 * 15);  // 58 iterations = 2 epochs (ceil), 15 iterations each
  EXPECT_EQ(state.batch_size, 8192);
}

TEST(Adaptation, AccordionGrowsOutsideAndShrinksInsideCriticalRegime) {
  JobSpec job;
  job.model = "LM";
  job.initial_batch_size = 10;
  job.mode = AdaptationMode::kAccordion;
  const ModelInfo& lm = *FindModel("LM");
  const std::int64_t per_epoch = 5968;  // ceil(59675 / 10)
  AdaptationState early{10, 100 * per_epoch, 5 * per_epoch, BatchSizeRequest::kNone};
  EXPECT_EQ(EvaluateAdaptation(job, lm, early), BatchSizeRequest::kNone);  // epoch 5 < 10
  AdaptationState late{10, 100 * per_epoch, 11 * per_epoch, BatchSizeRequest::kNone};
  EXPECT_EQ(EvaluateAdaptation(job, lm, late), BatchSizeRequest::kGrow);
  late.request = BatchSizeRequest::kGrow;
  EXPECT_EQ(RequestedBatchSize(job, lm, late), 80);
  AdaptationState large_in_cr{80, 100 * 746, 3 * 746, BatchSizeRequest::kNone};
  EXPECT_EQ(EvaluateAdaptation(job, lm, large_in_cr), BatchSizeRequest::kShrink);
  job.initial_batch_size = 80;  // already at the maximum: requests are rejected
  late.batch_size = 80;
  EXPECT_EQ(RequestedBatchSize(job, lm, late), 80);
}

TEST(Adaptation, GnsDoublesOncePerRequestFollowingThePattern) {
  JobSpec job;
  job.model = "LM";
  job.initial_batch_size = 10;
  job.scale_factor = 1;
  job.mode = AdaptationMode::kGns;
  const ModelInfo& lm = *FindModel("LM");
  AdaptationState state{10, 1000 * 5968, 10 * 5968, BatchSizeRequest::kNone};
  // Epoch 10: pattern[11] = 20 > 10, so the job asks for more.
  EXPECT_EQ(EvaluateAdaptation(job, lm, state), BatchSizeRequest::kGrow);
  state.request = BatchSizeRequest::kGrow;
  EXPECT_EQ(RequestedBatchSize(job, lm, state), 20);
  state.batch_size = 80;  // at the model's top: no request
  EXPECT_EQ(EvaluateAdaptation(job, lm, state), BatchSizeRequest::kNone);
}

}  // namespace
}  // namespace adaptsim::testing
