// Pollux heterogeneity-unaware as the Sia artifact runs it (docs/pollux.md §7): the virtual 4-GPU
// nodes and their mapping back, the fix repair on hand-built allocations (majority type, both tie
// rules), the job cap, and `pollux_unaware` end to end on a small mixed cluster: every job
// completes, no job ever spans GPU types or exceeds the cap, and the same task gives the same
// result.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"
#include "policies/pollux/pollux_unaware.hpp"
#include "sia_workload_support.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

// The Sia paper's heterogeneous cluster in the engine's order (docs/sia.md §5): aws nodes 0-5,
// dgx-ext nodes 6-7, rtx nodes 8-10.
std::vector<IntervalNodeGroup> PaperCluster() {
  return {{"aws", 6, 4, 0}, {"dgx-ext", 2, 8, 6}, {"rtx", 3, 8, 8}};
}

TEST(PolluxUnawareVirtualNodes, EightGpuNodesAreTwoVirtualNodesAndMapBack) {
  const std::vector<VirtualNode> vnodes = VirtualNodesOf(PaperCluster());
  ASSERT_EQ(vnodes.size(), 16u);  // 64 GPUs = 16 virtual nodes × 4
  // cluster_unaware.py:41-51: 0-5 = aws 0-5; 6-9 = dgx-ext 0,0,1,1; 10-15 = rtx 0,0,1,1,2,2.
  const std::vector<VirtualNode> expected = {{0, 0}, {0, 1}, {0, 2},  {0, 3}, {0, 4}, {0, 5},
                                             {1, 6}, {1, 6}, {1, 7},  {1, 7}, {2, 8}, {2, 8},
                                             {2, 9}, {2, 9}, {2, 10}, {2, 10}};
  EXPECT_EQ(vnodes, expected);
  // Both halves of dgx-ext node 0 are one engine node of 8 GPUs; an aws virtual node is its node.
  EXPECT_EQ(EngineNodesOf({6, 6, 6, 6, 7, 7, 7, 7}, vnodes), std::vector<int>(8, 6));
  EXPECT_EQ(EngineNodesOf({11, 11, 10, 12}, vnodes), (std::vector<int>{8, 8, 8, 9}));
  EXPECT_EQ(EngineNodesOf({3, 3}, vnodes), (std::vector<int>{3, 3}));
  EXPECT_EQ(EngineNodesOf({}, vnodes), std::vector<int>{});
  // A node size that is not a multiple of 4 cannot be split.
  try {
    VirtualNodesOf({{"aws", 1, 4, 0}, {"odd", 1, 6, 1}});
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "gpus_per_node");
    EXPECT_NE(std::string(error.what()).find("'odd' has 6"), std::string::npos) << error.what();
  }
}

TEST(PolluxUnawareVirtualNodes, JobCapIsTheSmallestTypeWithinItsProfiledNodes) {
  // min over types of min(G_t, g_t · max physical nodes_t): dgx-ext 16 (multi_simulator_unaware
  // .py:36-41); the homogeneous aws=16 cluster: 64.
  EXPECT_EQ(UnawareMaxReplicas(PaperCluster()), 16);
  EXPECT_EQ(UnawareMaxReplicas({{"aws", 16, 4, 0}}), 64);
  EXPECT_EQ(UnawareMaxReplicas({{"aws", 32, 4, 0}}), 64);  // aws: 16 profiled nodes
  EXPECT_EQ(UnawareMaxReplicas({{"aws", 2, 4, 0}, {"rtx", 1, 8, 2}}), 8);
  EXPECT_EQ(UnawareMaxReplicas({{"", 16, 4, 0}}), 64);  // no type: no profiled-node cap
  EXPECT_EQ(ReferenceGroupOf(PaperCluster()), 0);
  EXPECT_EQ(ReferenceGroupOf({{"dgx-ext", 1, 8, 0}, {"rtx", 1, 8, 1}}), 0);
  EXPECT_EQ(ReferenceGroupOf({{"dgx-ext", 1, 8, 0}, {"aws", 1, 4, 1}}), 1);
}

TEST(PolluxUnawareFix, KeepsTheTypeWithTheMostGpusAndDropsTheRest) {
  const std::vector<IntervalNodeGroup> groups = PaperCluster();
  const std::vector<VirtualNode> vnodes = VirtualNodesOf(groups);
  // One type: unchanged, whatever the order.
  EXPECT_EQ(FixAllocationByDropping({0, 0, 1, 1, 1}, vnodes, groups),
            (std::vector<int>{0, 0, 1, 1, 1}));
  EXPECT_EQ(FixAllocationByDropping({}, vnodes, groups), std::vector<int>{});
  // 4 aws + 2 dgx-ext: aws is the majority although dgx-ext ranks first in priority.
  EXPECT_EQ(FixAllocationByDropping({5, 5, 5, 5, 6, 6}, vnodes, groups),
            (std::vector<int>{5, 5, 5, 5}));
  // 1 aws + 3 rtx: rtx.
  EXPECT_EQ(FixAllocationByDropping({2, 10, 10, 15}, vnodes, groups),
            (std::vector<int>{10, 10, 15}));
  EXPECT_EQ(FixPriority("dgx-ext"), 0);
  EXPECT_EQ(FixPriority("aws"), 4);
  EXPECT_EQ(FixPriority("dgx"), 5);  // not in the artifact's table: after every listed type
}

TEST(PolluxUnawareFix, TiesKeepTheLowerPriorityNumberOfTheTopTwo) {
  const std::vector<IntervalNodeGroup> groups = PaperCluster();
  const std::vector<VirtualNode> vnodes = VirtualNodesOf(groups);
  // 2 aws + 2 rtx: aws appears first, rtx (3) ranks before aws (4).
  EXPECT_EQ(FixAllocationByDropping({0, 0, 12, 12}, vnodes, groups), (std::vector<int>{12, 12}));
  // 2 dgx-ext + 2 rtx: dgx-ext (0), the first to appear, stays.
  EXPECT_EQ(FixAllocationByDropping({7, 7, 10, 10}, vnodes, groups), (std::vector<int>{7, 7}));
  // 2 aws + 2 dgx-ext + 2 rtx: the top two in first-appearance order are aws and dgx-ext.
  EXPECT_EQ(FixAllocationByDropping({1, 1, 8, 8, 14, 14}, vnodes, groups),
            (std::vector<int>{8, 8}));
  // Only the top two are compared: with rtx, aws and dgx-ext in that order of appearance and
  // equal counts, rtx (3) beats aws (4) and dgx-ext (0), third, is not considered.
  const std::vector<IntervalNodeGroup> reordered = {
      {"rtx", 1, 8, 0}, {"aws", 1, 4, 1}, {"dgx-ext", 1, 8, 2}};
  const std::vector<VirtualNode> reordered_vnodes = VirtualNodesOf(reordered);
  ASSERT_EQ(reordered_vnodes.size(), 5u);
  EXPECT_EQ(FixAllocationByDropping({0, 1, 2, 2, 3, 4}, reordered_vnodes, reordered),
            (std::vector<int>{0, 1}));
  // A 3-GPU type beats two 2-GPU types of better priority.
  EXPECT_EQ(FixAllocationByDropping({0, 2, 2, 2, 3, 3}, reordered_vnodes, reordered),
            (std::vector<int>{2, 2, 2}));
  // A tie of the top two decided by priority whatever comes third: rtx 3, aws 3, dgx-ext 2.
  EXPECT_EQ(FixAllocationByDropping({0, 0, 1, 2, 2, 2, 3, 3}, reordered_vnodes, reordered),
            (std::vector<int>{0, 0, 1}));
}

TEST(PolluxUnawareFix, EqualPrioritiesTieInFirstAppearanceOrder) {
  // Two types outside the priority table (both rank 5): the one whose GPU appears first stays,
  // i.e. the lower virtual node id (Counter.most_common keeps insertion order among equals).
  const std::vector<IntervalNodeGroup> groups = {{"dgx", 1, 8, 0}, {"h100", 1, 8, 1}};
  const std::vector<VirtualNode> vnodes = VirtualNodesOf(groups);
  EXPECT_EQ(FixAllocationByDropping({1, 1, 2, 2}, vnodes, groups), (std::vector<int>{1, 1}));
  EXPECT_EQ(FixAllocationByDropping({2, 2, 1, 1}, vnodes, groups), (std::vector<int>{2, 2}));
}

class PolluxUnawareRun : public testing::SiaWorkloadTest {
 protected:
  void SetUp() override {
    WriteWorkload("adaptsim_pollux_unaware",
                  "cifar10-0,0,cifar10,4,2048\n"
                  "bert-1,30,bert,2,12\n"
                  "deepspeech2-2,60,deepspeech2,4,320\n"
                  "yolov3-3,90,yolov3,2,8\n"
                  "cifar10-4,400,cifar10,8,4096\n"
                  "imagenet-5,600,imagenet,4,200\n");
  }

  // A short GA (20 generations instead of 100) keeps the runs to seconds.
  TaskConfig Task(const std::string& cluster) const {
    TaskConfig task = SiaTask("pollux_unaware", cluster, {{"--seed", "3"}});
    task.policy_options = {{"generations", 20}};
    return task;
  }
};

// 2 aws nodes (workers 0-7), 1 dgx-ext node (8-15), 1 rtx node (16-23): 6 virtual nodes.
TEST_F(PolluxUnawareRun, SmallMixedClusterCompletesWithoutSpanningTypesDeterministically) {
  ADAPTSIM_REQUIRE_DATA();
  const TaskConfig task = Task("aws=2,rtx=1,dgx-ext=1");
  const SimulationResult first = RunTask(task);
  ASSERT_EQ(first.status, TaskStatus::kOk) << first.message;
  ASSERT_EQ(first.jobs.size(), 6u);
  EXPECT_EQ(first.gpu_busy_time_s.size(), 24u);
  for (const JobResult& job : first.jobs) {
    EXPECT_EQ(job.outcome, JobOutcome::kCompleted) << job.id;
    EXPECT_GT(job.jct_s, 0) << job.id;
  }
  const auto type_of = [](int worker) { return worker < 8 ? 0 : worker < 16 ? 1 : 2; };
  std::set<int> types_used;
  for (const RoundResult& round : first.rounds) {
    for (const std::vector<int>& workers : round.worker_ids) {
      std::set<int> types;
      for (int worker : workers) types.insert(type_of(worker));
      EXPECT_EQ(types.size(), 1u) << "a job spans GPU types in round " << round.round_index;
      EXPECT_LE(workers.size(), 8u) << "above the job cap in round " << round.round_index;
      types_used.insert(types.begin(), types.end());
    }
  }
  EXPECT_GE(types_used.size(), 2u);
  EXPECT_GT(first.policy_statistics.at("pollux_rounds"), 0);
  EXPECT_GE(first.policy_statistics.at("pollux_unaware_dropped_gpus"),
            first.policy_statistics.at("pollux_unaware_fixed_allocations"));

  const SimulationResult second = RunTask(task);
  testing::ExpectSameRun(first, second);
  EXPECT_EQ(second.policy_statistics.at("pollux_unaware_dropped_gpus"),
            first.policy_statistics.at("pollux_unaware_dropped_gpus"));
}

// A node of 8 GPUs is two virtual nodes: on one rtx node and one dgx-ext node a job may still
// hold a whole 8-GPU node (both halves map to one engine node).
TEST_F(PolluxUnawareRun, EightGpuNodesOnlyClusterRuns) {
  ADAPTSIM_REQUIRE_DATA();
  const SimulationResult result = RunTask(Task("rtx=1,dgx-ext=1"));
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  for (const JobResult& job : result.jobs) EXPECT_EQ(job.outcome, JobOutcome::kCompleted);
  for (const RoundResult& round : result.rounds) {
    for (const std::vector<int>& workers : round.worker_ids) {
      std::set<int> types;
      for (int worker : workers) types.insert(worker < 8 ? 0 : 1);
      EXPECT_EQ(types.size(), 1u) << "a job spans GPU types in round " << round.round_index;
    }
  }
}

}  // namespace
}  // namespace adaptsim
