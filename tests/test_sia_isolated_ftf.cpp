// Sia's finish-time fairness on the interval engine (docs/sia.md §12): the isolated times T_g of
// every job on every GPU type (each a single-job run with the job's fair share), the paper's
// Eq. 3 and the artifact's combination, the one-type reduction, the caps and interpolation of
// `S:sia-simulator/ftf_simulator.py`, and the new summary field in the results file.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/engine_tasks.hpp"
#include "adaptsim/gpu_type_profiles.hpp"
#include "adaptsim/interval_simulator.hpp"
#include "adaptsim/isolated_times.hpp"
#include "adaptsim/metrics.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/task.hpp"
#include "sia_workload_support.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;
using testing::DataPath;

// The caps of the artifact (ftf_simulator.py:524-544): ⌊v⌋ and ⌈v⌉ (at least 1), 0 and 1 below
// one GPU, 0 and the workload's K for a policy with fixed replicas.
TEST(IsolatedTimes, CapsFollowTheFairShare) {
  const IsolatedCaps elastic = IsolatedReplicaCaps(9.25, false, 12);
  EXPECT_EQ(elastic.lower, 9);
  EXPECT_EQ(elastic.upper, 10);
  const IsolatedCaps whole = IsolatedReplicaCaps(8.0, false, 12);
  EXPECT_EQ(whole.lower, 8);
  EXPECT_EQ(whole.upper, 8);
  const IsolatedCaps small = IsolatedReplicaCaps(0.4, false, 12);
  EXPECT_EQ(small.lower, 0);
  EXPECT_EQ(small.upper, 1);
  const IsolatedCaps fixed = IsolatedReplicaCaps(9.25, true, 12);
  EXPECT_EQ(fixed.lower, 0);
  EXPECT_EQ(fixed.upper, 12);
  EXPECT_THROW(IsolatedReplicaCaps(0.0, false, 1), std::invalid_argument);
}

// The isolated cluster (ftf_simulator.py:441-450): min(n_g, ⌊c/g⌋ + 1) nodes, the job capped at
// min(nodes·g, c); no run for c = 0 or more nodes than the type's profiled maximum.
TEST(IsolatedTimes, IsolatedClusterOfOneType) {
  const IntervalNodeGroup aws{"aws", 6, 4, 0, 16};
  int job_cap = -1;
  std::optional<IntervalNodeGroup> group = IsolatedGroup(aws, 9, job_cap);
  ASSERT_TRUE(group.has_value());
  EXPECT_EQ(group->num_nodes, 3);
  EXPECT_EQ(group->gpus_per_node, 4);
  EXPECT_EQ(group->gpu_type, "aws");
  EXPECT_EQ(job_cap, 9);
  group = IsolatedGroup(aws, 40, job_cap);
  ASSERT_TRUE(group.has_value());
  EXPECT_EQ(group->num_nodes, 6);
  EXPECT_EQ(job_cap, 24);
  EXPECT_FALSE(IsolatedGroup(aws, 0, job_cap).has_value());
  EXPECT_EQ(job_cap, 0);
  const IntervalNodeGroup one_node_profiled{"quad", 4, 4, 0, 1};
  EXPECT_TRUE(IsolatedGroup(one_node_profiled, 3, job_cap).has_value());   // 1 node
  EXPECT_FALSE(IsolatedGroup(one_node_profiled, 4, job_cap).has_value());  // 2 nodes > 1
}

// T_g (ftf_simulator.py:605-630): linear between the caps, T_hi / v below one GPU, T_hi · K / v
// for fixed replicas when K > v.
TEST(IsolatedTimes, InterpolationBetweenTheCaps) {
  EXPECT_DOUBLE_EQ(InterpolateIsolatedTime(100.0, 80.0, 9.25, false, 12), 95.0);
  EXPECT_DOUBLE_EQ(InterpolateIsolatedTime(100.0, 100.0, 8.0, false, 12), 100.0);
  EXPECT_DOUBLE_EQ(InterpolateIsolatedTime(0.0, 50.0, 0.5, false, 12), 100.0);
  EXPECT_DOUBLE_EQ(InterpolateIsolatedTime(0.0, 100.0, 6.0, true, 12), 200.0);
  EXPECT_DOUBLE_EQ(InterpolateIsolatedTime(0.0, 100.0, 16.0, true, 12), 100.0);
}

// Eq. 3 weighs ρ by the types' GPUs; the artifact weighs T; a type with T = 0 drops out of both;
// on one type both are JCT / T.
TEST(IsolatedTimes, EquationThreeAndTheArtifactsCombination) {
  const std::vector<int> gpus = {24, 24, 16};
  const std::vector<double> times = {100.0, 0.0, 50.0};
  // (24 · 200/100 + 16 · 200/50) / 40 = (48 + 64) / 40
  EXPECT_DOUBLE_EQ(IsolatedFtfRho(200.0, times, gpus, false), 2.8);
  // 200 / ((24 · 100 + 16 · 50) / 40) = 200 / 80
  EXPECT_DOUBLE_EQ(IsolatedFtfRho(200.0, times, gpus, true), 2.5);
  EXPECT_DOUBLE_EQ(IsolatedFtfRho(150.0, {60.0}, {64}, false), 2.5);
  EXPECT_DOUBLE_EQ(IsolatedFtfRho(150.0, {60.0}, {64}, true), 2.5);
  EXPECT_EQ(IsolatedFtfRho(150.0, {0.0, 0.0}, {4, 8}, false), 0.0);
  EXPECT_THROW(IsolatedFtfRho(1.0, {1.0}, {4, 8}, false), std::invalid_argument);
}

class SiaIsolatedFtf : public testing::SiaWorkloadTest {
 protected:
  void SetUp() override {
    WriteWorkload("adaptsim_sia_isolated",
                  "cifar10-0,0,cifar10,4,2048\n"
                  "bert-1,30,bert,2,12\n"
                  "deepspeech2-2,65,deepspeech2,4,320\n"
                  "yolov3-3,90,yolov3,2,8\n"
                  "cifar10-4,400,cifar10,8,4096\n");
  }

  TaskConfig Task(const std::string& policy, const std::string& cluster,
                  const std::string& rule) const {
    nlohmann::json extra = nlohmann::json::object();
    if (!rule.empty()) extra["--isolated-ftf"] = rule;
    return SiaTask(policy, cluster, extra);
  }

  // The JCT of workload row `job` alone by hand: submitted at its time modulo `interval_s`, on
  // `nodes` nodes of `type` (GPUs per node and profiled maximum of the Sia artifact), at most
  // `cap` GPUs, under a fresh `policy`, with the engine's Sia options.
  double AloneJct(const std::string& policy, int job, const std::string& type, int nodes, int cap,
                  double interval_s) const {
    PolluxWorkload workload = ReadPolluxWorkload(workload_.string());
    PolluxJobSpec spec = workload.jobs.at(job);
    spec.submission_time_s = std::fmod(spec.submission_time_s, interval_s);
    workload.jobs = {spec};
    const GpuTypeNodeShape shape = SiaGpuTypeNodeShape(type, "test", 0, "cluster");
    IntervalSimulationOptions options;
    options.WithNodeGroups({{type, nodes, shape.gpus_per_node, 0, shape.max_physical_nodes}});
    options.restart_delay_s_by_application = SiaRestartDelays();
    options.slowdown_by_application = SiaSlowdowns();
    options.restart_on_node_move = false;
    options.max_replicas_per_job = cap;
    GpuTypeApplications apps(DataPath("sia/traces"));
    const IntervalProfileLookup profiles =
        [&](const PolluxJobSpec& s, const IntervalNodeGroup& g) -> const PolluxApplication& {
      return apps.Get(s.application, g.gpu_type, workload.path, s.line);
    };
    PolicyInstance instance = MakePolicy(policy, nlohmann::json::object());
    auto& interval_policy = std::get<std::unique_ptr<IntervalPolicy>>(instance);
    const SimulationResult alone = SimulateIntervals(workload, profiles, *interval_policy, options);
    EXPECT_EQ(alone.status, TaskStatus::kOk) << alone.message;
    EXPECT_EQ(alone.jobs.at(0).outcome, JobOutcome::kCompleted);
    return alone.jobs.at(0).jct_s;
  }
};

// On a small mixed cluster (aws=1: 4 T4, dgx-ext=1: 8 A100, rtx=1: 8 RTX 2080Ti; 20 GPUs) each
// job's isolated time on each type equals the single-job simulation run by hand with its fair
// share 20 / n_avg (caps ⌊v⌋ and ⌈v⌉, interpolated), and its ρ is Eq. 3 of those times.
TEST_F(SiaIsolatedFtf, IsolatedTimeIsTheHandRunSingleJobSimulationOnEachType) {
  ADAPTSIM_REQUIRE_DATA();
  const SimulationResult result = RunTask(Task("sia", "aws=1,rtx=1,dgx-ext=1", "paper"));
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  ASSERT_EQ(result.isolated.time_s.size(), 5u);
  EXPECT_EQ(result.isolated.type_gpus, (std::vector<int>{4, 8, 8}));  // aws, dgx-ext, rtx
  EXPECT_FALSE(result.isolated.combine_times);
  ASSERT_EQ(result.mean_contention_by_job.size(), 5u);
  EXPECT_GT(result.policy_statistics.at("isolated_runs"), 0);
  const std::vector<std::string> types = {"aws", "dgx-ext", "rtx"};
  const std::vector<int> gpus_per_node = {4, 8, 8};
  for (int job : {1, 2}) {  // bert (submitted at 30 s), deepspeech2 (65 s: offset 5 s)
    const double n_avg = result.mean_contention_by_job[job];
    ASSERT_GE(n_avg, 1.0) << job;
    const double v = 20.0 / n_avg;
    const int lower = std::max(static_cast<int>(std::floor(v)), 1);
    const int upper = std::max(static_cast<int>(std::ceil(v)), 1);
    ASSERT_GE(v, 1.0) << "this workload keeps every fair share above one GPU";
    for (int g = 0; g < 3; ++g) {
      // one node of each type: min(1, ⌊c/g⌋ + 1) = 1 node, the job at most min(g, c) GPUs
      const double t_lower =
          AloneJct("sia", job, types[g], 1, std::min(gpus_per_node[g], lower), 60.0);
      const double t_upper =
          AloneJct("sia", job, types[g], 1, std::min(gpus_per_node[g], upper), 60.0);
      const double expected = upper > lower ? t_lower + (t_upper - t_lower) * (v - lower) : t_lower;
      EXPECT_DOUBLE_EQ(result.isolated.time_s[job][g], expected) << job << " " << types[g];
      EXPECT_GT(expected, 0.0);
    }
    const JobResult& out = result.jobs[job];
    const auto& t = result.isolated.time_s[job];
    const double rho = (4 * out.jct_s / t[0] + 8 * out.jct_s / t[1] + 8 * out.jct_s / t[2]) / 20;
    EXPECT_DOUBLE_EQ(out.ftf_rho_type_weighted, rho) << job;
  }
  // The summary: worst, mean and unfair fraction of the jobs' Eq. 3 ρ.
  double worst = 0.0, sum = 0.0;
  int unfair = 0;
  for (const JobResult& job : result.jobs) {
    worst = std::max(worst, job.ftf_rho_type_weighted);
    sum += job.ftf_rho_type_weighted;
    unfair += job.ftf_rho_type_weighted > 1.0;
  }
  EXPECT_DOUBLE_EQ(result.summary.worst_ftf_rho_type_weighted, worst);
  EXPECT_DOUBLE_EQ(result.summary.mean_ftf_rho_type_weighted, sum / 5);
  EXPECT_DOUBLE_EQ(result.summary.unfair_fraction_type_weighted, unfair / 5.0);
}

// The isolated runs change nothing of the run itself; without them the type-weighted ρ is the
// static ρ (as before); the artifact's rule combines the same times differently; the whole
// task is deterministic.
TEST_F(SiaIsolatedFtf, OffByDefaultAndTheRunItselfUnchanged) {
  ADAPTSIM_REQUIRE_DATA();
  const SimulationResult off = RunTask(Task("sia", "aws=1,rtx=1,dgx-ext=1", ""));
  const SimulationResult paper = RunTask(Task("sia", "aws=1,rtx=1,dgx-ext=1", "paper"));
  const SimulationResult artifact = RunTask(Task("sia", "aws=1,rtx=1,dgx-ext=1", "artifact"));
  ASSERT_EQ(off.status, TaskStatus::kOk) << off.message;
  EXPECT_TRUE(off.isolated.time_s.empty());
  EXPECT_EQ(off.policy_statistics.count("isolated_runs"), 0u);
  testing::ExpectSameRun(off, paper);
  testing::ExpectSameRun(off, artifact);
  for (std::size_t j = 0; j < off.jobs.size(); ++j) {
    EXPECT_EQ(off.jobs[j].ftf_rho_type_weighted, off.jobs[j].ftf_rho) << j;
    EXPECT_EQ(paper.jobs[j].ftf_rho, off.jobs[j].ftf_rho) << j;
    EXPECT_EQ(artifact.isolated.time_s[j], paper.isolated.time_s[j]) << j;
    EXPECT_TRUE(artifact.isolated.combine_times);
    EXPECT_DOUBLE_EQ(artifact.jobs[j].ftf_rho_type_weighted,
                     IsolatedFtfRho(artifact.jobs[j].jct_s, artifact.isolated.time_s[j],
                                    artifact.isolated.type_gpus, true))
        << j;
  }
  const SimulationResult again = RunTask(Task("sia", "aws=1,rtx=1,dgx-ext=1", "paper"));
  for (std::size_t j = 0; j < off.jobs.size(); ++j) {
    EXPECT_EQ(again.isolated.time_s[j], paper.isolated.time_s[j]) << j;
    EXPECT_EQ(again.jobs[j].ftf_rho_type_weighted, paper.jobs[j].ftf_rho_type_weighted) << j;
  }
}

// One GPU type (aws=2, 8 GPUs): Eq. 3 has one term of weight 1, ρ = JCT / T_aws.
TEST_F(SiaIsolatedFtf, OneTypeReducesToJctOverIsolatedTime) {
  ADAPTSIM_REQUIRE_DATA();
  const SimulationResult result = RunTask(Task("sia", "aws=2", "paper"));
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  EXPECT_EQ(result.isolated.type_gpus, (std::vector<int>{8}));
  for (std::size_t j = 0; j < result.jobs.size(); ++j) {
    ASSERT_EQ(result.isolated.time_s[j].size(), 1u);
    ASSERT_GT(result.isolated.time_s[j][0], 0.0);
    EXPECT_DOUBLE_EQ(result.jobs[j].ftf_rho_type_weighted,
                     result.jobs[j].jct_s / result.isolated.time_s[j][0])
        << j;
  }
}

// A TunedJobs policy (fixed replicas): T_g = the job alone on its workload K GPUs, times
// max(1, K / v) (ftf_simulator.py:542-544, 621-630).
TEST_F(SiaIsolatedFtf, FixedReplicasRunOnTheirWorkloadGpusSlowedByTheShare) {
  ADAPTSIM_REQUIRE_DATA();
  const SimulationResult result = RunTask(Task("gavel_tj", "aws=1,rtx=1,dgx-ext=1", "paper"));
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  const int job = 4;  // cifar10, K = 8, submitted at 400 s: offset 40 s in 360 s rounds
  const double v = 20.0 / std::max(result.mean_contention_by_job[job], 1.0);
  // aws: 1 node of 4 GPUs cannot hold K = 8: no isolated run there (T = 0); on dgx-ext and rtx
  // min(1, ⌊8/8⌋ + 1) = 1 node.
  EXPECT_EQ(result.isolated.time_s[job][0], 0.0);
  for (int g : {1, 2}) {
    const std::string type = g == 1 ? "dgx-ext" : "rtx";
    const double alone = AloneJct("gavel_tj", job, type, 1, 8, 360.0);
    EXPECT_DOUBLE_EQ(result.isolated.time_s[job][g], alone * std::max(1.0, 8.0 / v)) << type;
  }
}

// The unfair fraction is a column of the results file's summary (schema version 6), read back
// as written.
TEST_F(SiaIsolatedFtf, UnfairFractionIsStoredAndReadBack) {
  ADAPTSIM_REQUIRE_DATA();
  const TaskConfig task = Task("sia", "aws=1,rtx=1,dgx-ext=1", "paper");
  const SimulationResult result = RunTask(task);
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  const fs::path file = dir_ / "isolated.h5";
  WriteShard(file.string(), MakeTaskRecord(task, 0, result, 0), Provenance{});
  const std::vector<SummaryRow> rows = ReadSummary(file.string());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].metrics.unfair_fraction_type_weighted,
            result.summary.unfair_fraction_type_weighted);
  EXPECT_EQ(rows[0].metrics.worst_ftf_rho_type_weighted,
            result.summary.worst_ftf_rho_type_weighted);
}

}  // namespace
}  // namespace adaptsim
