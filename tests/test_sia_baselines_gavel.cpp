// Gavel+TunedJobs as the Sia artifact runs it (`gavel_tj`, docs/sia.md "Baselines:
// Gavel+TunedJobs"; `S:sia-simulator/gavel.py`): the throughput X[j,t] on the profiles, the
// batch the engine runs, the priority/selection order and the worker retention on hand-built
// rounds, and whole runs on a small mixed cluster in 360 s rounds, deterministic. Also the
// interval engine's free node-only moves on a cluster of GPU types (`job.py:524-542`).
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/gpu_type_profiles.hpp"
#include "adaptsim/interval_simulator.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"
#include "policies/gavel/gavel_tuned_jobs.hpp"
#include "sia_workload_support.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

using testing::DataPath;

// X[j,t] equals gavel.py:515-546's arithmetic on the profile rows. Each expected value was
// computed from the CSV rows with the reference's steps (docs/sia.md, "Baselines:
// Gavel+TunedJobs", check vectors): placement packed g_t per node, local = ceil(B/K),
// m_max = the placement's largest profiled local batch, s, m, the row (or the linear
// interpolation between the two rows around m), X = 1/(step + (step − sync)·s) / slowdown.
TEST(GavelTunedJobThroughput, EqualsTheReferenceArithmeticOnTheProfiles) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  struct Case {
    const char* app;
    const char* type;
    int gpus_per_node, nodes, replicas, batch;
    double slowdown, expected;
  };
  const Case cases[] = {
      // (4,) on rtx: m = 512 between the rows 363 and 513, s = 0.
      {"cifar10", "rtx", 8, 3, 4, 2048, 1.8, 3.124525667930045},
      // K = 1 at B = M0 = 128: s is forced to 1 (gavel.py:531-532), m = 64, the row itself.
      {"cifar10", "aws", 4, 6, 1, 128, 1.8, 4.6623173450382955},
      // (4, 2) on aws = the profiled placement "24": m = 342.
      {"cifar10", "aws", 4, 6, 6, 2048, 1.8, 2.066972620841626},
      // (8,) on dgx-ext at its largest local batch 48.
      {"bert", "dgx-ext", 8, 2, 8, 384, 1.2, 2.422613288419467},
      // (4, 4, 4) on aws, m = 53 between the rows 40 and 57.
      {"deepspeech2", "aws", 4, 6, 12, 640, 1.2, 0.4693020643444417},
  };
  for (const Case& c : cases) {
    const PolluxApplication& app = apps.Get(c.app, c.type);
    const double x =
        GavelTunedJobThroughput(app, c.gpus_per_node, c.nodes, c.replicas, c.batch, c.slowdown);
    EXPECT_NEAR(x, c.expected, 1e-12 * c.expected) << c.app << " on " << c.type;
  }
  // K beyond the type's largest configuration (one rtx node: 8 GPUs) gets 0.1, uncalibrated.
  EXPECT_EQ(GavelTunedJobThroughput(apps.Get("cifar10", "rtx"), 8, 1, 16, 4096, 1.8), 0.1);
  // Largest configurations: 4-GPU nodes up to 16, 8-GPU nodes up to 8.
  EXPECT_EQ(GavelLargestConfigurationGpus(4, 6), 24);
  EXPECT_EQ(GavelLargestConfigurationGpus(4, 40), 64);
  EXPECT_EQ(GavelLargestConfigurationGpus(8, 3), 24);
  EXPECT_EQ(GavelLargestConfigurationGpus(8, 20), 64);
  EXPECT_THROW(GavelLargestConfigurationGpus(2, 4), InputError);
}

// The executed batch is job.py's fixed rule, which forces s >= 1 at K = 1 only when B > M0 —
// unlike the policy's prediction above — and caps m at the largest local batch profiled at K.
TEST(GavelTunedJobBatch, IsTheArtifactsFixedBatchRule) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  const PolluxApplication& cifar_aws = apps.Get("cifar10", "aws");
  const BatchConfig one = GavelTunedJobBatch(cifar_aws, 128, {1});  // B = M0
  EXPECT_EQ(one.atomic_bsz, 128);
  EXPECT_EQ(one.accum_steps, 0);
  const BatchConfig one_large = GavelTunedJobBatch(cifar_aws, 2048, {1});  // B > M0
  EXPECT_EQ(one_large.accum_steps, 1);
  EXPECT_EQ(one_large.atomic_bsz, 1024);
  const BatchConfig six = GavelTunedJobBatch(cifar_aws, 2048, {4, 2});
  EXPECT_EQ(six.atomic_bsz, 342);
  EXPECT_EQ(six.accum_steps, 0);
  // deepspeech2 on aws: the largest local batch profiled at 12 replicas bounds m.
  const PolluxApplication& ds2 = apps.Get("deepspeech2", "aws");
  const int cap = ds2.MaxLocalBszAtReplicas(12);
  ASSERT_GT(cap, 0);
  const BatchConfig twelve = GavelTunedJobBatch(ds2, 640, {4, 4, 4});
  EXPECT_LE(twelve.atomic_bsz, cap);
  EXPECT_EQ(ds2.MaxLocalBszAtReplicas(1000), 0);  // no such placement
}

// A hand-built round on two types (8 and 4 GPUs): entries sorted by (priority, x) descending,
// stable — ties in type order, then job order —; a job too large for what is left is skipped and
// smaller jobs behind it backfill; zero-priority entries take the leftover GPUs.
TEST(GavelSelectJobs, PriorityOrderTiesBackfillAndLeftovers) {
  const std::vector<int> gpus = {8, 4};
  const std::vector<int> replicas = {4, 8, 2, 4, 2, 2};
  std::vector<GavelEntry> entries;
  auto add = [&](int job, int type, double priority, double x) {
    entries.push_back({job, type, priority, x});
  };
  // Type 0's entries, then type 1's (gavel.py:295-304), each in job order.
  add(0, 0, 2.0, 0.5), add(1, 0, 1.5, 0.4), add(2, 0, 1.0, 0.2);
  add(3, 0, 0.0, 0.0), add(4, 0, 0.0, 0.0), add(5, 0, 0.0, 0.0);
  add(0, 1, 2.0, 0.5), add(1, 1, 0.0, 0.0), add(2, 1, 1.0, 0.25);
  add(3, 1, 0.0, 0.0), add(4, 1, 0.0, 0.0), add(5, 1, 0.0, 0.0);
  const std::vector<int> chosen = GavelSelectJobs(entries, replicas, gpus);
  EXPECT_EQ(chosen[0], 0);   // ties (2.0, 0.5) on both types: the first type
  EXPECT_EQ(chosen[1], -1);  // 8 GPUs: 4 left on type 0, type 1 too small
  EXPECT_EQ(chosen[2], 1);   // equal priority 1.0: the larger x (type 1) first
  EXPECT_EQ(chosen[3], 0);   // zero priority takes type 0's leftover 4 GPUs (backfill)
  EXPECT_EQ(chosen[4], 1);   // type 0 full: type 1's last 2 GPUs
  EXPECT_EQ(chosen[5], -1);  // equal zero entries: job 4 came first, nothing left
  // Every GPU of both types is used: work conserving.
  int used = 0;
  for (std::size_t j = 0; j < chosen.size(); ++j) used += chosen[j] >= 0 ? replicas[j] : 0;
  EXPECT_EQ(used, 12);
}

// Workers of one type (2 servers × 4 GPUs), jobs by descending K: a job keeps its previous
// workers when none is taken yet; the others fill from the server pointer, lowest free ids
// first, skipping taken ones; a larger new job can take a smaller job's workers, which then moves.
TEST(GavelAssignWorkers, KeepsPreviousWorkersAndFillsFromTheServerPointer) {
  {
    const std::map<int, std::vector<int>> workers =
        GavelAssignWorkers({{11, 2}, {10, 4}, {12, 2}}, {{10, {4, 5, 6, 7}}, {11, {0, 1}}}, 2, 4);
    EXPECT_EQ(workers.at(10), (std::vector<int>{4, 5, 6, 7}));
    EXPECT_EQ(workers.at(11), (std::vector<int>{0, 1}));
    EXPECT_EQ(workers.at(12), (std::vector<int>{2, 3}));
  }
  {
    // 20 is new and larger: it is placed first, from server 0, and takes 21's workers 0 and 1.
    const std::map<int, std::vector<int>> workers =
        GavelAssignWorkers({{21, 2}, {20, 4}}, {{21, {0, 1}}}, 2, 4);
    EXPECT_EQ(workers.at(20), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(workers.at(21), (std::vector<int>{4, 5}));
  }
  {
    // Two jobs of equal K: the first in selection order fills first.
    const std::map<int, std::vector<int>> workers =
        GavelAssignWorkers({{31, 2}, {30, 2}, {32, 4}}, {}, 2, 4);
    EXPECT_EQ(workers.at(32), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(workers.at(31), (std::vector<int>{4, 5}));
    EXPECT_EQ(workers.at(30), (std::vector<int>{6, 7}));
  }
}

class GavelTunedJobsRun : public testing::SiaWorkloadTest {
 protected:
  void SetUp() override { WriteWorkload("adaptsim_gavel_tj", testing::kSevenTunedJobs); }

  TaskConfig Task(const std::string& cluster) const {
    TaskConfig task = SiaTask("gavel_tj", cluster);
    task.interval.interval_s = WrittenNumber{60.0, false};  // the sweep's interval for Sia
    return task;
  }

  // One cifar10 job (K = 4, B = 2048, submitted at 0) run by `policy` on `options`.
  SimulationResult RunOneJob(IntervalPolicy& policy, const IntervalSimulationOptions& options) {
    std::ofstream(workload_) << "name,time,application,num_replicas,batch_size\n"
                                "cifar10-0,0,cifar10,4,2048\n";
    const PolluxWorkload workload = ReadPolluxWorkload(workload_.string());
    GpuTypeApplications apps(DataPath("sia/traces"));
    const IntervalProfileLookup profiles =
        [&](const PolluxJobSpec& spec, const IntervalNodeGroup& g) -> const PolluxApplication& {
      return apps.Get(spec.application, g.gpu_type, workload.path, spec.line);
    };
    return SimulateIntervals(workload, profiles, policy, options);
  }
};

// aws=1 (4 T4), dgx-ext=1 (8 A100), rtx=1 (8 RTX 2080Ti): every job completes; each running job
// holds exactly its CSV GPU count on one type; decisions are 360 s apart although the task's
// interval is 60 s; the same task gives the same result.
TEST_F(GavelTunedJobsRun, SmallMixedClusterIn360SecondRoundsDeterministically) {
  ADAPTSIM_REQUIRE_DATA();
  const TaskConfig task = Task("aws=1,rtx=1,dgx-ext=1");
  const SimulationResult first = RunTask(task);
  ASSERT_EQ(first.status, TaskStatus::kOk) << first.message;
  ASSERT_EQ(first.jobs.size(), 7u);
  const PolluxWorkload workload = ReadPolluxWorkload(workload_.string());
  for (const JobResult& job : first.jobs) {
    EXPECT_EQ(job.outcome, JobOutcome::kCompleted) << job.id;
    EXPECT_GT(job.jct_s, 0) << job.id;
  }
  const testing::TunedJobsRounds rounds = testing::CheckTunedJobsRounds(first, workload, 360.0);
  EXPECT_EQ(rounds.types_used.size(), 3u);
  EXPECT_TRUE(rounds.time_shared);
  EXPECT_GT(first.policy_statistics.at("gavel_tj_rounds"), 0);

  const SimulationResult second = RunTask(task);
  testing::ExpectSameRun(first, second);
}

// The round length is the policy's option: round_s = 720 gives 720 s rounds.
TEST_F(GavelTunedJobsRun, RoundLengthIsThePolicysOption) {
  ADAPTSIM_REQUIRE_DATA();
  TaskConfig task = Task("aws=2");
  task.policy_options = {{"round_s", 720}};
  const SimulationResult result = RunTask(task);
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  ASSERT_FALSE(result.rounds.empty());
  for (const RoundResult& round : result.rounds) {
    EXPECT_DOUBLE_EQ(round.end_s - round.start_s, 720.0) << round.round_index;
  }
  for (const JobResult& job : result.jobs) EXPECT_EQ(job.outcome, JobOutcome::kCompleted);
}

// A job larger than every GPU type is an error naming its workload row.
TEST_F(GavelTunedJobsRun, AJobLargerThanEveryTypeIsAnInputError) {
  ADAPTSIM_REQUIRE_DATA();
  std::ofstream(workload_) << "name,time,application,num_replicas,batch_size\n"
                              "cifar10-0,0,cifar10,16,4096\n";
  try {
    RunTask(Task("aws=1,rtx=1"));
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "num_replicas");
    EXPECT_EQ(error.line(), 2);
  }
}

// A policy that moves its one job between the two nodes of a group every interval, same
// placement (4 GPUs on one node).
class NodeHoppingPolicy : public IntervalPolicy {
 public:
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>&) override {
    return {job.app->init_batch_size() / 4, 0};
  }
  IntervalDecision Optimize(const IntervalClusterView& cluster) override {
    IntervalDecision decision;
    const int node = calls_++ % 2;
    for (const IntervalJobView& job : cluster.jobs) {
      decision.allocations[job.index] = std::vector<int>(4, node);
    }
    return decision;
  }
  bool SupportsGpuTypes() const override { return true; }

 private:
  int calls_ = 0;
};

// The Sia artifact's reallocate restarts a job only when its placement tuple changes: on a
// cluster of GPU types a move to other nodes with the same placement is free; the Pollux
// artifact's engine restarts on every changed node list.
TEST_F(GavelTunedJobsRun, NodeOnlyMovesAreFreeOnlyWhenTheEngineSaysSo) {
  ADAPTSIM_REQUIRE_DATA();
  auto run = [&](bool restart_on_node_move) {
    IntervalSimulationOptions options;
    options.WithNodeGroups({{"aws", 2, 4, 0}});
    options.restart_on_node_move = restart_on_node_move;
    NodeHoppingPolicy policy;
    return RunOneJob(policy, options);
  };
  const SimulationResult free_moves = run(false);
  const SimulationResult restarts = run(true);
  ASSERT_EQ(free_moves.jobs.front().outcome, JobOutcome::kCompleted);
  ASSERT_EQ(restarts.jobs.front().outcome, JobOutcome::kCompleted);
  EXPECT_EQ(free_moves.jobs.front().restarts, 0);
  EXPECT_GT(restarts.jobs.front().restarts, 0);
  EXPECT_LT(free_moves.jobs.front().jct_s, restarts.jobs.front().jct_s);
  // The moves happen: both nodes' workers were busy.
  EXPECT_GT(free_moves.gpu_busy_time_s.at(0), 0.0);
  EXPECT_GT(free_moves.gpu_busy_time_s.at(4), 0.0);
}

// A policy that runs its one job on the given node ids.
class FixedNodesPolicy : public IntervalPolicy {
 public:
  explicit FixedNodesPolicy(std::vector<int> nodes) : nodes_(std::move(nodes)) {}
  BatchConfig ChooseBatch(const IntervalJobView& job, const std::vector<int>& placement) override {
    return GavelTunedJobBatch(*job.app, job.spec->batch_size, placement);
  }
  IntervalDecision Optimize(const IntervalClusterView& cluster) override {
    IntervalDecision decision;
    for (const IntervalJobView& job : cluster.jobs) decision.allocations[job.index] = nodes_;
    return decision;
  }
  bool SupportsGpuTypes() const override { return true; }

 private:
  std::vector<int> nodes_;
};

// A job placed on more nodes of a group than its type's profiled maximum runs as ⌈K/max⌉
// replicas per node on max nodes (cluster.py:197-209): 4 replicas on 4 rtx nodes (max 3) run
// as (2, 2), exactly as the job placed (2, 2) on two nodes; the reference re-splits because the
// profiles stop at the maximum.
TEST_F(GavelTunedJobsRun, PlacementsBeyondTheProfiledNodesAreResplit) {
  ADAPTSIM_REQUIRE_DATA();
  auto run = [&](std::vector<int> nodes, int max_physical_nodes) {
    IntervalSimulationOptions options;
    options.WithNodeGroups({{"rtx", 4, 8, 0, max_physical_nodes}});
    FixedNodesPolicy policy(std::move(nodes));
    const SimulationResult result = RunOneJob(policy, options);
    EXPECT_EQ(result.jobs.front().outcome, JobOutcome::kCompleted);
    return result.jobs.front().jct_s;
  };
  const double spread = run({0, 1, 2, 3}, 3);
  EXPECT_EQ(spread, run({0, 0, 1, 1}, 3));
  // Without the limit the job runs as (1, 1, 1, 1), which rtx's profile does not cover.
  EXPECT_THROW(run({0, 1, 2, 3}, 0), InputError);
}

}  // namespace
}  // namespace adaptsim
