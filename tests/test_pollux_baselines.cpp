// Tiresias and Optimus+Oracle on the Pollux workloads reproduce every per-job JCT of the artifact
// (docs/pollux.md §0, §4.5; shared/data/pollux/results-jobload/{tiresias,optimus}-1.0).
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/task.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

using testing::DataPath;

TaskConfig PolluxTask(const std::string& workload, const std::string& policy) {
  TaskConfig task;
  task.trace_path = DataPath("pollux/workloads/" + workload + ".csv");
  task.throughputs_path = DataPath("pollux/traces");
  task.policy = policy;
  task.simulation.num_gpus = 64;
  return task;
}

nlohmann::json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

void ExpectEveryJct(const std::string& policy, const std::string& workload) {
  const nlohmann::json expected = ReadJson(
      DataPath("pollux/results-jobload/" + policy + "-1.0/summary.json"))["jcts"][workload];
  SimulationResult result = RunTask(PolluxTask(workload, policy));
  ASSERT_EQ(result.status, TaskStatus::kOk);
  ASSERT_EQ(result.jobs.size(), expected.size());
  int mismatches = 0;
  double sum = 0.0;
  for (const JobResult& job : result.jobs) {
    const std::string name = job.workload + "-" + std::to_string(job.id);
    ASSERT_TRUE(expected.contains(name)) << name;
    EXPECT_EQ(job.outcome, JobOutcome::kCompleted) << name;
    mismatches += job.jct_s != expected[name].get<double>();
    EXPECT_DOUBLE_EQ(job.jct_s, expected[name].get<double>()) << policy << " " << name;
    sum += job.jct_s;
  }
  EXPECT_EQ(mismatches, 0);
  ::testing::Test::RecordProperty("mean_jct_s", std::to_string(sum / result.jobs.size()));
}

TEST(PolluxBaselines, TiresiasWorkload6EveryJct) {
  ADAPTSIM_REQUIRE_DATA();
  ExpectEveryJct("tiresias", "workload-6");
}

TEST(PolluxBaselines, TiresiasWorkload2EveryJct) {
  ADAPTSIM_REQUIRE_DATA();
  ExpectEveryJct("tiresias", "workload-2");
}

TEST(PolluxBaselines, OptimusWorkload6EveryJct) {
  ADAPTSIM_REQUIRE_DATA();
  ExpectEveryJct("optimus", "workload-6");
}

TEST(PolluxBaselines, OptimusWorkload2EveryJct) {
  ADAPTSIM_REQUIRE_DATA();
  ExpectEveryJct("optimus", "workload-2");
}

TEST(PolluxBaselines, ReproducedJctFilesAgreeWithSummaries) {
  ADAPTSIM_REQUIRE_DATA();
  for (const std::string policy : {"tiresias", "optimus"}) {
    const nlohmann::json reproduced =
        ReadJson(DataPath("pollux/derived/reproduced_" + policy + "_workload-6_jcts.json"));
    SimulationResult result = RunTask(PolluxTask("workload-6", policy));
    for (const JobResult& job : result.jobs) {
      const std::string name = job.workload + "-" + std::to_string(job.id);
      EXPECT_DOUBLE_EQ(job.jct_s, reproduced.at(name).get<double>()) << policy << " " << name;
    }
  }
}

}  // namespace
}  // namespace adaptsim
