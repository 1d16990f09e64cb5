// Shared pieces of the tests that run the interval engine on small workloads in the Sia format
// (docs/sia.md §5): a fixture that writes a workload CSV into a fresh directory and builds a task
// on it with the Sia profiles, the seven-job TunedJobs workload of the baseline tests, and the
// check that two runs of one task agree.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/result.hpp"
#include "adaptsim/task_fields.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {

/// The columns of the Sia artifact's workload CSV.
inline constexpr const char* kSiaWorkloadHeader = "name,time,application,num_replicas,batch_size\n";

/// Seven TunedJobs jobs of four applications (rows after the header): they ask for more GPUs than a
/// one-node-per-type cluster (aws=1,rtx=1,dgx-ext=1: 20 GPUs) has, so jobs time-share.
inline constexpr const char* kSevenTunedJobs =
    "cifar10-0,0,cifar10,4,2048\n"
    "bert-1,30,bert,2,24\n"
    "deepspeech2-2,60,deepspeech2,4,320\n"
    "yolov3-3,90,yolov3,2,16\n"
    "cifar10-4,400,cifar10,8,4096\n"
    "cifar10-5,500,cifar10,8,2048\n"
    "cifar10-6,700,cifar10,1,256\n";

/// A test on a workload CSV of its own: `WriteWorkload` creates a fresh directory named after
/// `prefix` and writes the header and `rows` to `workload_`; the directory is removed after the
/// test.
class SiaWorkloadTest : public ::testing::Test {
 protected:
  void WriteWorkload(const std::string& prefix, const std::string& rows) {
    dir_ = FreshTestDirectory(prefix);
    workload_ = dir_ / "workload.csv";
    std::ofstream(workload_) << kSiaWorkloadHeader << rows;
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  /// The task `adaptsim run --trace <workload_> --throughputs <traces> --policy <policy>
  /// --cluster <cluster>` plus `extra` flags (e.g. {{"--seed", "3"}}); `traces` defaults to the
  /// Sia profiles of the reference data.
  TaskConfig SiaTask(const std::string& policy, const std::string& cluster,
                     nlohmann::json extra = nlohmann::json::object(),
                     const std::string& traces = DataPath("sia/traces")) const {
    extra["--trace"] = workload_.string();
    extra["--throughputs"] = traces;
    extra["--policy"] = policy;
    extra["--cluster"] = cluster;
    return TaskConfigFromArguments(extra, ArgumentNames::kFlag, "command line");
  }

  std::filesystem::path dir_, workload_;
};

/// Two runs of one task agree: every job's JCT and restarts, and the cluster's GPU busy time.
inline void ExpectSameRun(const SimulationResult& first, const SimulationResult& second) {
  ASSERT_EQ(second.jobs.size(), first.jobs.size());
  for (std::size_t i = 0; i < first.jobs.size(); ++i) {
    EXPECT_EQ(second.jobs[i].jct_s, first.jobs[i].jct_s) << i;
    EXPECT_EQ(second.jobs[i].restarts, first.jobs[i].restarts) << i;
  }
  EXPECT_EQ(second.gpu_busy_time_s, first.gpu_busy_time_s);
}

/// What the rounds of a TunedJobs run on aws=1,rtx=1,dgx-ext=1 show (worker ids: aws 0-3,
/// dgx-ext 4-11, rtx 12-19), checked on the way: every round lasts `round_s`, and every running
/// job holds exactly its workload row's num_replicas workers, all of one GPU type.
struct TunedJobsRounds {
  bool time_shared = false;  ///< some round ran fewer jobs than were active
  std::set<int> types_used;  ///< 0 aws, 1 dgx-ext, 2 rtx
};
inline TunedJobsRounds CheckTunedJobsRounds(const SimulationResult& result,
                                            const PolluxWorkload& workload, double round_s) {
  TunedJobsRounds seen;
  for (const RoundResult& round : result.rounds) {
    EXPECT_DOUBLE_EQ(round.end_s - round.start_s, round_s) << round.round_index;
    seen.time_shared = seen.time_shared ||
                       round.running_job_ids.size() < static_cast<std::size_t>(round.active_jobs);
    for (std::size_t r = 0; r < round.running_job_ids.size(); ++r) {
      const std::vector<int>& workers = round.worker_ids[r];
      EXPECT_EQ(static_cast<int>(workers.size()),
                workload.jobs[round.running_job_ids[r]].num_replicas);
      std::set<int> types;
      for (int worker : workers) types.insert(worker < 4 ? 0 : worker < 12 ? 1 : 2);
      EXPECT_EQ(types.size(), 1u) << "a job spans GPU types in round " << round.round_index;
      seen.types_used.insert(types.begin(), types.end());
    }
  }
  return seen;
}

}  // namespace adaptsim::testing
