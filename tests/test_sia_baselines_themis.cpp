// Themis+TunedJobs as the Sia artifact runs it (`themis_tj`, docs/sia.md §10;
// `S:sia-simulator/policies/finish_time_fairness.py:43-138` through `gavel.py`): the round's
// fractions on hand-checkable instances, and whole runs on a small mixed cluster in 360 s rounds,
// deterministic.
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"
#include "policies/gavel/themis_tuned_jobs.hpp"
#include "sia_workload_support.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

TunedJobRoundView View(int scale_factor, std::vector<double> throughputs, double steps,
                       double age_s = 0.0, double prestart_s = 0.0) {
  TunedJobRoundView view;
  view.scale_factor = scale_factor;
  view.throughputs = std::move(throughputs);
  view.total_steps = steps;
  view.remaining_steps = steps;
  view.time_since_arrival_s = age_s;
  view.prestart_overhead_s = prestart_s;
  return view;
}

// Two equal jobs (K = 4, 1 it/s, 100 iterations, pre-start 40 s) on 4 GPUs: iso = 1·4/max(2·4, 4)
// = 0.5 it/s, E = 40 + 100/0.5 = 240 s; ρ_j = (100/x_j)/240 with x_1 + x_2 ≤ 1, so x = (0.5,
// 0.5) and ρ* = 200/240.
TEST(ThemisTunedJobsFractions, EqualJobsShareEqually) {
  for (ThemisFacePoint point : {ThemisFacePoint::kCentred, ThemisFacePoint::kVertex}) {
    const ThemisTunedJobsRound round = ThemisTunedJobsFractions(
        {View(4, {1.0}, 100, 0, 40), View(4, {1.0}, 100, 0, 40)}, {4}, point);
    EXPECT_DOUBLE_EQ(round.expected_isolated_s[0], 240.0);
    EXPECT_NEAR(round.rho, 200.0 / 240.0, 1e-9);
    EXPECT_NEAR(round.x[0], 0.5, 1e-6);
    EXPECT_NEAR(round.x[1], 0.5, 1e-6);
    EXPECT_FALSE(round.vertex_fallback);
  }
}

// K = 4 and K = 2 (1 it/s, 100 iterations) on 4 GPUs: iso = 4/max(8, 4)·1 = 0.5 and
// 4/max(4, 4)·1 = 1, so E = 200 and 100 s; ρ = 0.5/x_A = 1/x_B with 4x_A + 2x_B ≤ 4 gives
// ρ* = 1 at x = (0.5, 1): the smaller job, whose isolated time is shorter, gets more time.
TEST(ThemisTunedJobsFractions, IsolatedShareDependsOnTheScaleFactor) {
  const ThemisTunedJobsRound round = ThemisTunedJobsFractions(
      {View(4, {1.0}, 100), View(2, {1.0}, 100)}, {4}, ThemisFacePoint::kCentred);
  EXPECT_DOUBLE_EQ(round.expected_isolated_s[0], 200.0);
  EXPECT_DOUBLE_EQ(round.expected_isolated_s[1], 100.0);
  EXPECT_NEAR(round.rho, 1.0, 1e-9);
  EXPECT_NEAR(round.x[0], 0.5, 1e-6);
  EXPECT_NEAR(round.x[1], 1.0, 1e-6);
}

// One job (K = 4, 150 iterations) at 1 it/s on type 0 and 2 it/s on type 1, 4 GPUs each:
// iso = 1·4/8 + 2·4/8 = 1.5, E = 100 s; ρ = (150/(x_0 + 2x_1))/100 is smallest at x = (0, 1),
// ρ* = 0.75: the fast type, all of it.
TEST(ThemisTunedJobsFractions, TwoTypesTheFasterOne) {
  const ThemisTunedJobsRound round =
      ThemisTunedJobsFractions({View(4, {1.0, 2.0}, 150)}, {4, 4}, ThemisFacePoint::kCentred);
  EXPECT_DOUBLE_EQ(round.expected_isolated_s[0], 100.0);
  EXPECT_NEAR(round.rho, 0.75, 1e-9);
  EXPECT_NEAR(round.x[0], 0.0, 1e-6);
  EXPECT_NEAR(round.x[1], 1.0, 1e-6);
}

// Three one-GPU jobs on 4 GPUs (iso = 1, E = 100 s each), job C waiting 1000 s already: its ρ is
// at least (1000 + 100)/100 = 11 (x_C = 1), so ρ* = 11 and A and B only need x ≥ 1/11. The face
// is {x_C = 1} × [1/11, 1]²: "vertex" takes its corner (1, 1, 1); "centred" a point inside,
// the same for the two identical jobs.
TEST(ThemisTunedJobsFractions, NonUniqueFaceCentredOrVertex) {
  const std::vector<TunedJobRoundView> views = {View(1, {1.0}, 100), View(1, {1.0}, 100),
                                                View(1, {1.0}, 100, 1000)};
  const ThemisTunedJobsRound vertex =
      ThemisTunedJobsFractions(views, {4}, ThemisFacePoint::kVertex);
  EXPECT_NEAR(vertex.rho, 11.0, 1e-9);
  for (double x : vertex.x) EXPECT_NEAR(x, 1.0, 1e-6);
  const ThemisTunedJobsRound centred =
      ThemisTunedJobsFractions(views, {4}, ThemisFacePoint::kCentred);
  EXPECT_FALSE(centred.vertex_fallback);
  EXPECT_NEAR(centred.x[2], 1.0, 1e-6);
  for (int j : {0, 1}) {
    EXPECT_GT(centred.x[j], 1.0 / 11 + 0.05) << j;
    EXPECT_LT(centred.x[j], 1.0 - 0.05) << j;
  }
  EXPECT_NEAR(centred.x[0], centred.x[1], 1e-6);
}

class ThemisTunedJobsRun : public testing::SiaWorkloadTest {
 protected:
  void SetUp() override { WriteWorkload("adaptsim_themis_tj", testing::kSevenTunedJobs); }

  TaskConfig Task(const std::string& cluster, const std::string& face_point) const {
    TaskConfig task = SiaTask("themis_tj", cluster);
    task.interval.interval_s = WrittenNumber{60.0, false};
    task.policy_options = {{"face_point", face_point}};
    return task;
  }
};

// aws=1 (4 T4), dgx-ext=1 (8 A100), rtx=1 (8 RTX 2080Ti), both face points: every job completes;
// each running job holds exactly its CSV GPU count on one type; rounds are 360 s although the
// task's interval is 60 s; the same task gives the same result.
TEST_F(ThemisTunedJobsRun, SmallMixedClusterIn360SecondRoundsDeterministically) {
  ADAPTSIM_REQUIRE_DATA();
  const PolluxWorkload workload = ReadPolluxWorkload(workload_.string());
  for (const char* face_point : {"centred", "vertex"}) {
    const TaskConfig task = Task("aws=1,rtx=1,dgx-ext=1", face_point);
    const SimulationResult first = RunTask(task);
    ASSERT_EQ(first.status, TaskStatus::kOk) << first.message;
    ASSERT_EQ(first.jobs.size(), 7u);
    for (const JobResult& job : first.jobs) {
      EXPECT_EQ(job.outcome, JobOutcome::kCompleted) << face_point << " " << job.id;
    }
    const testing::TunedJobsRounds rounds = testing::CheckTunedJobsRounds(first, workload, 360.0);
    EXPECT_TRUE(rounds.time_shared);
    EXPECT_GT(first.policy_statistics.at("themis_tj_rounds"), 0);
    EXPECT_EQ(first.policy_statistics.at("themis_tj_vertex_fallbacks"), 0);

    const SimulationResult second = RunTask(task);
    testing::ExpectSameRun(first, second);
  }
}

// A job larger than every GPU type is an error naming its workload row.
TEST_F(ThemisTunedJobsRun, AJobLargerThanEveryTypeIsAnInputError) {
  ADAPTSIM_REQUIRE_DATA();
  std::ofstream(workload_) << "name,time,application,num_replicas,batch_size\n"
                              "cifar10-0,0,cifar10,16,4096\n";
  try {
    RunTask(Task("aws=1,rtx=1", "centred"));
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "num_replicas");
    EXPECT_EQ(error.line(), 2);
  }
}

}  // namespace
}  // namespace adaptsim
