// Decisions the engines cannot honour are refused by name, for C++ policies as for Python ones
// (docs/python.md §3 and §5): the round engine's plan check, the Gavel mechanism's allocation check
// (through the real engine, with policies that return one bad decision) and the interval engine's
// checks (src/engine/decision_checks.hpp). The Python adapters' cases are in
// tests/python/test_module.py.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/cluster.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/trace.hpp"
#include "adaptsim/trace_generator.hpp"
#include "engine/decision_checks.hpp"
#include "policies/gavel/gavel_mechanism.hpp"

namespace adaptsim {
namespace {

const std::string kCatalogue = std::string(ADAPTSIM_SOURCE_DIR) + "/data/catalog/v100.toml";

/// The run's inputs: 12 jobs drawn from the V100 catalogue, 8 GPUs.
struct Inputs {
  models::CatalogueThroughput catalogue = models::CatalogueThroughput::Read(kCatalogue);
  Trace trace;
  SimulationOptions options;
  Inputs() {
    TraceGeneratorOptions generator;
    generator.num_jobs = 12;
    generator.lam_s = 30.0;
    generator.seed = 5;
    generator.max_duration_h = 1.0;
    trace = GenerateTrace(generator, catalogue.catalogue().WorkloadModels(), catalogue);
    options.num_gpus = 8;
  }
};

/// A round scheduler whose plan is `plan(state)`.
class PlanFunction final : public RoundScheduler {
 public:
  explicit PlanFunction(std::function<RoundPlan(const ClusterState&)> plan)
      : plan_(std::move(plan)) {}
  RoundPlan PlanRound(const ClusterState& state) override { return plan_(state); }

 private:
  std::function<RoundPlan(const ClusterState&)> plan_;
};

/// An allocation policy that gives every active job 1/n, except in its second solve, where it
/// gives `job_of(state)` the time fraction `x`.
class AllocationFunction final : public AllocationPolicy {
 public:
  AllocationFunction(double x, std::function<JobId(const ClusterState&)> job_of)
      : x_(x), job_of_(std::move(job_of)) {}
  Allocation ComputeAllocation(const ClusterState& state) override {
    Allocation allocation;
    for (const ActiveJobView& job : state.jobs) {
      allocation.time_fraction[job.id] = 1.0 / static_cast<double>(state.jobs.size());
    }
    if (++calls_ == 2) allocation.time_fraction[job_of_(state)] = x_;
    return allocation;
  }

 private:
  double x_;
  std::function<JobId(const ClusterState&)> job_of_;
  int calls_ = 0;
};

/// Runs the round engine with `scheduler`; returns the PolicyError's message ("" when none).
std::string RunAndCatch(RoundScheduler& scheduler) {
  Inputs inputs;
  try {
    Simulate(inputs.trace, inputs.catalogue, scheduler, inputs.options);
  } catch (const PolicyError& error) {
    EXPECT_TRUE(error.policy().empty());  // the task boundary (RunTask) names the policy
    return error.what();
  }
  return "";
}

std::string RunAllocation(double x, std::function<JobId(const ClusterState&)> job_of) {
  auto scheduler = MakeRoundScheduler(
      PolicyInstance(std::make_unique<AllocationFunction>(x, job_of)), SimulationOptions{});
  return RunAndCatch(*scheduler);
}

JobId FirstActive(const ClusterState& state) {
  return state.jobs.front().id;
}

TEST(PolicyDecisions, PlanOverCapacityNamesRoundGpusAndJob) {
  // All active jobs as soon as their GPUs exceed the cluster's; the first job alone before.
  int round = -1, asked = 0;
  PlanFunction greedy([&](const ClusterState& state) {
    RoundPlan plan;
    int gpus = 0;
    for (const ActiveJobView& job : state.jobs) {
      plan.jobs.push_back({job.id, {}});
      gpus += job.scale_factor;
    }
    if (gpus <= state.num_gpus) {
      plan.jobs.resize(1);
      return plan;
    }
    round = state.round_index;
    asked = gpus;
    return plan;
  });
  const std::string message = RunAndCatch(greedy);
  ASSERT_GE(round, 0) << "the trace never had more active GPUs than the cluster";
  EXPECT_NE(message.find("plan_round asked for " + std::to_string(asked) + " GPUs in round " +
                         std::to_string(round) + "; the cluster has 8 (job "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("is the first that does not fit)"), std::string::npos) << message;
}

TEST(PolicyDecisions, PlanNamingAJobThatIsNotActive) {
  PlanFunction scheduler([](const ClusterState& state) {
    RoundPlan plan;
    plan.jobs.push_back({state.num_trace_jobs + 3, {}});
    return plan;
  });
  const std::string message = RunAndCatch(scheduler);
  EXPECT_EQ(message,
            "plan_round named job 15 in round 0, which is not an active job (not arrived yet, "
            "finished, or not in the trace (the trace's ids are 0-11))");
}

TEST(PolicyDecisions, PlanNamingAJobTwice) {
  PlanFunction scheduler([](const ClusterState& state) {
    const JobId id = state.jobs.front().id;
    return RoundPlan{{{id, {}}, {id, {}}}, {}};
  });
  EXPECT_EQ(RunAndCatch(scheduler),
            "plan_round named job 0 twice in round 0; each job runs at most once per round");
}

TEST(PolicyDecisions, PlanWithWorkersOutsideTheCluster) {
  PlanFunction scheduler([](const ClusterState& state) {
    const ActiveJobView& job = state.jobs.front();
    std::vector<int> workers(job.scale_factor, 0);
    workers.back() = 8;  // G = 8: ids 0-7
    return RoundPlan{{{job.id, workers}}, {}};
  });
  const std::string message = RunAndCatch(scheduler);
  EXPECT_NE(message.find("plan_round placed job 0 on GPUs ["), std::string::npos) << message;
  EXPECT_NE(message.find("distinct free GPUs in [0, 8)"), std::string::npos) << message;
}

TEST(PolicyDecisions, AllocationAboveOne) {
  const std::string message = RunAllocation(2.0, FirstActive);
  EXPECT_NE(message.find("compute_allocation gave job "), std::string::npos) << message;
  EXPECT_NE(message.find(" the time fraction 2 in round "), std::string::npos) << message;
  EXPECT_NE(message.find("; a time fraction is a number in [0, 1]"), std::string::npos) << message;
}

TEST(PolicyDecisions, AllocationBelowZero) {
  const std::string message = RunAllocation(-0.25, FirstActive);
  EXPECT_NE(message.find(" the time fraction -0.25 in round "), std::string::npos) << message;
}

TEST(PolicyDecisions, AllocationNotANumber) {
  const std::string message = RunAllocation(std::nan(""), FirstActive);
  EXPECT_NE(message.find(" the time fraction nan in round "), std::string::npos) << message;
}

TEST(PolicyDecisions, AllocationInfinite) {
  const std::string message = RunAllocation(std::numeric_limits<double>::infinity(), FirstActive);
  EXPECT_NE(message.find(" the time fraction inf in round "), std::string::npos) << message;
}

TEST(PolicyDecisions, AllocationForAJobThatIsNotActive) {
  const std::string message =
      RunAllocation(0.5, [](const ClusterState& state) { return state.num_trace_jobs; });
  EXPECT_NE(message.find("compute_allocation gave a time fraction to job 12 in round "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("which is not an active job"), std::string::npos) << message;
}

TEST(PolicyDecisions, AllocationWithinSolverRoundingIsAccepted) {
  EXPECT_EQ(RunAllocation(1.0 + 1e-9, FirstActive), "");
  EXPECT_EQ(RunAllocation(-1e-9, FirstActive), "");
}

TEST(PolicyDecisions, ViewSaysWhichJobsRanInThePreviousRound) {
  // A plan that alternates between the first two jobs: each round's view must say that the job
  // of the previous round ran, on its scale factor's GPUs, and that the other did not.
  int checked = 0;
  std::vector<JobId> previous;
  PlanFunction scheduler([&](const ClusterState& state) {
    for (const ActiveJobView& job : state.jobs) {
      const bool ran = std::find(previous.begin(), previous.end(), job.id) != previous.end();
      EXPECT_EQ(job.previous_round_gpus, ran ? job.scale_factor : 0)
          << "round " << state.round_index;
      EXPECT_EQ(job.previous_round_gpu_type, ran ? 0 : -1) << "round " << state.round_index;
      checked += ran;
    }
    const ActiveJobView& job = state.jobs[state.round_index % state.jobs.size()];
    previous = {job.id};
    return RoundPlan{{{job.id, {}}}, {}};
  });
  Inputs inputs;
  RunBudget budget;
  budget.max_rounds = 40;
  Simulate(inputs.trace, inputs.catalogue, scheduler, inputs.options, {}, budget);
  EXPECT_GT(checked, 10);
}

/// A round-engine state on the cluster p100=2,v100=2 (type 0 p100 = workers 0-1, type 1 v100 =
/// workers 2-3), round 4, with job 0 (1 GPU) and job 1 (2 GPUs, 0 steps/s on p100).
struct MixedCluster {
  Cluster cluster = Cluster::Parse("v100=2,p100=2");
  std::vector<double> job0 = {1.5, 2.5};
  std::vector<double> job1 = {0.0, 3.0};
  ClusterState state;
  MixedCluster() {
    state.round_index = 4;
    state.num_gpus = 4;
    state.cluster = &cluster;
    for (const auto& [id, scale_factor, throughputs] :
         {std::tuple{0, 1, &job0}, std::tuple{1, 2, &job1}}) {
      ActiveJobView job;
      job.id = id;
      job.scale_factor = scale_factor;
      job.batch_size = 64;
      job.throughput_steps_per_s = (*throughputs)[1];
      job.throughput_by_type_steps_per_s = *throughputs;
      job.cluster = &cluster;
      state.jobs.push_back(job);
    }
  }
};

std::string MixedPlanMessage(std::vector<PlannedJob> jobs) {
  const MixedCluster mixed;
  try {
    CheckRoundPlan(RoundPlan{std::move(jobs), {}}, mixed.state);
  } catch (const PolicyError& error) {
    EXPECT_EQ(error.method(), "plan_round");
    return error.what();
  }
  return "";
}

TEST(PolicyDecisions, MixedClusterPlanWithinEachTypePasses) {
  EXPECT_EQ(MixedPlanMessage({{0, {}, 0}, {1, {}, 1}}), "");
  EXPECT_EQ(MixedPlanMessage({{0, {0}}, {1, {2, 3}}}), "");  // workers name their type
}

TEST(PolicyDecisions, MixedClusterPlanOverATypesGpus) {
  EXPECT_EQ(MixedPlanMessage({{0, {}, 1}, {1, {}, 1}}),
            "plan_round asked for 3 GPUs of type v100 in round 4; the cluster has 2 of type v100 "
            "(job 1, 2 GPUs, is the first that does not fit)");
}

TEST(PolicyDecisions, MixedClusterPlanWithoutAGpuType) {
  EXPECT_EQ(MixedPlanMessage({{0, {}}}),
            "plan_round gave job 0 no GPU type in round 4; the cluster's types are "
            "p100=2,v100=2 (indices 0-1): plan each job's type");
  EXPECT_NE(MixedPlanMessage({{0, {}, 2}}).find("gave job 0 the GPU type index 2 in round 4"),
            std::string::npos);
}

TEST(PolicyDecisions, MixedClusterPlanOnATypeWithoutThroughput) {
  EXPECT_EQ(MixedPlanMessage({{1, {}, 0}}),
            "plan_round put job 1 on GPU type p100 in round 4, where its throughput at batch size "
            "64 on 2 GPUs is 0 steps/s; it cannot run there");
}

TEST(PolicyDecisions, MixedClusterPlanWithWorkersOfTwoTypes) {
  EXPECT_EQ(MixedPlanMessage({{1, {1, 2}}}),
            "plan_round placed job 1 on GPUs [1, 2] in round 4; it needs 2 distinct free GPUs in "
            "[0, 4) of one GPU type (p100=2,v100=2)");
}

std::string MixedAllocationMessage(const Allocation& allocation) {
  const MixedCluster mixed;
  try {
    CheckAllocation(allocation, mixed.state);
  } catch (const PolicyError& error) {
    EXPECT_EQ(error.method(), "compute_allocation");
    return error.what();
  }
  return "";
}

TEST(PolicyDecisions, MixedClusterAllocationPerType) {
  EXPECT_EQ(MixedAllocationMessage({{}, {{0, {0.5, 0.5}}, {1, {0.0, 1.0}}}}), "");
  EXPECT_EQ(MixedAllocationMessage({{{0, 0.5}}, {}}),
            "compute_allocation gave job 0 one time fraction in round 4; on a cluster of several "
            "GPU types (p100=2,v100=2) a job has one per type");
  EXPECT_EQ(MixedAllocationMessage({{}, {{1, {0.5}}}}),
            "compute_allocation gave job 1 a list of 1 time fractions in round 4; the cluster has "
            "2 GPU types (p100=2,v100=2), one fraction each");
  EXPECT_EQ(MixedAllocationMessage({{}, {{0, {0.5, 1.5}}}}),
            "compute_allocation gave job 0 the time fraction 1.5 on GPU type v100 in round 4; a "
            "time fraction is a number in [0, 1]");
}

IntervalClusterView TwoNodes() {
  IntervalClusterView cluster;
  cluster.now_s = 3600;
  cluster.num_nodes = 2;
  cluster.gpus_per_node = 4;
  for (int index : {2, 5}) {
    IntervalJobView job;
    job.index = index;
    cluster.jobs.push_back(job);
  }
  return cluster;
}

std::string IntervalMessage(const IntervalDecision& decision) {
  try {
    CheckIntervalDecision(decision, TwoNodes());
  } catch (const PolicyError& error) {
    EXPECT_EQ(error.method(), "optimize");
    return error.what();
  }
  return "";
}

TEST(PolicyDecisions, IntervalNodeOverItsGpus) {
  EXPECT_EQ(IntervalMessage({{{2, {1, 1, 1}}, {5, {1, 1, 0}}}}),
            "optimize put 5 replicas on node 1 at t=3600 s (jobs [2, 5]); a node has 4 GPUs");
}

TEST(PolicyDecisions, IntervalNodeOutsideTheCluster) {
  EXPECT_EQ(IntervalMessage({{{5, {0, 2}}}}),
            "optimize put job 5 on node 2 at t=3600 s; node ids are in [0, 2)");
}

TEST(PolicyDecisions, IntervalJobThatIsNotActive) {
  EXPECT_EQ(IntervalMessage({{{3, {0}}}}),
            "optimize allocated job 3 at t=3600 s, which is not an active job (not submitted "
            "yet, finished, or not in the workload)");
}

TEST(PolicyDecisions, IntervalValidDecisionPasses) {
  EXPECT_EQ(IntervalMessage({{{2, {0, 0, 0, 0}}, {5, {1, 1}}}}), "");
}

TEST(PolicyDecisions, BatchBelowOne) {
  IntervalJobView job;
  job.index = 7;
  try {
    CheckBatchConfig({0, 0}, job, {2, 1});
    FAIL() << "no error";
  } catch (const PolicyError& error) {
    EXPECT_EQ(std::string(error.what()),
              "choose_batch returned (0, 0) for job 7 on placement [2, 1]; it needs atomic_bsz "
              ">= 1 and accum_steps >= 0");
  }
  EXPECT_NO_THROW(CheckBatchConfig({1, 0}, job, {2, 1}));
}

TEST(PolicyDecisions, ErrorNamesThePolicyOnceNamed) {
  const PolicyError unnamed("", "plan_round", "plan_round asked for 9 GPUs in round 3");
  EXPECT_EQ(std::string(unnamed.what()), "plan_round asked for 9 GPUs in round 3");
  const PolicyError named = unnamed.Named("py:mine:Greedy");
  EXPECT_EQ(std::string(named.what()),
            "policy 'py:mine:Greedy': plan_round asked for 9 GPUs in round 3");
  EXPECT_EQ(named.policy(), "py:mine:Greedy");
  EXPECT_EQ(named.method(), "plan_round");
  // A traceback keeps its lines on the command line; other errors stay on one line.
  const PolicyError traceback("p", "plan_round", "plan_round raised:\nTraceback\n\x1b[31m");
  EXPECT_EQ(PrintableError(traceback), "policy 'p': plan_round raised:\nTraceback\n\\x1b[31m");
  EXPECT_EQ(PrintableError(InputError("f", 1, "x", "a\nb")), "f:1: field 'x': a\\nb");
}

}  // namespace
}  // namespace adaptsim
