// Shockwave+TunedJobs as the Sia artifact drives it (`shockwave_tj`, docs/sia.md §11;
// `S:sia-simulator/shockwave.py`, `cluster_unaware.py`): the window problem a round builds from
// the TunedJobs view, the window solution on tiny instances against exhaustive enumeration, the
// options, and whole runs on small clusters in 360 s rounds, deterministic.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/policy_options.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"
#include "policies/shockwave/shockwave_tuned_jobs.hpp"
#include "policies/shockwave/shockwave_window_milp.hpp"
#include "sia_workload_support.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

ShockwaveTunedJob Job(int gpus, double total, double current, double iteration_s,
                      double submission_s, std::vector<std::pair<int, double>> series) {
  ShockwaveTunedJob job;
  job.gpus = gpus;
  job.total_steps = total;
  job.current_step = current;
  job.iteration_s = iteration_s;
  job.submission_s = submission_s;
  job.share_series = std::move(series);
  return job;
}

// The window job of a TunedJobs job, by hand: S = 1000, c = 200, ē = 2 s, so R = 1600 s; round 10
// of 360 s; the series (8, 5000), (10, 5200) gives F̄ = 0.9·5000 + 0.1·5200 = 5020 (window weights
// 2 and 0); σ = min(1, 8/2) = 1; the window ends at 360·(10 + 5) = 5400 s, so the cap is
// 1·(5020 − (5400 − 100)) = −280 s.
TEST(ShockwaveTunedJobsProblem, MapsTheTunedJobsViewOntoTheWindowProblem) {
  const ShockwaveTunedJobsOptions options;
  const std::vector<ShockwaveTunedJob> jobs = {Job(4, 1000, 200, 2.0, 100, {{8, 5000}, {10, 5200}}),
                                               Job(6, 500, 0, 1.0, 3000, {{10, 900}})};
  const WindowProblem problem = ShockwaveTunedJobsProblem(jobs, 10, 8, options);
  EXPECT_EQ(problem.num_gpus, 8);
  EXPECT_EQ(problem.num_rounds, 5);
  EXPECT_DOUBLE_EQ(problem.round_s, 360.0);
  EXPECT_DOUBLE_EQ(problem.k, 0.1);
  ASSERT_EQ(problem.jobs.size(), 2u);
  const WindowJob& a = problem.jobs[0];
  EXPECT_EQ(a.gpus, 4);
  EXPECT_DOUBLE_EQ(a.epochs, 1000);
  EXPECT_DOUBLE_EQ(a.progress, 200);
  EXPECT_DOUBLE_EQ(a.mean_epoch_s, 2.0);
  EXPECT_DOUBLE_EQ(a.remaining_s, 1600);
  EXPECT_NEAR(a.max_shortfall_s, -280.0, 1e-9);
  // One entry at the current round: F̄ = 900; cap = 900 − (5400 − 3000) = −1500.
  EXPECT_NEAR(problem.jobs[1].max_shortfall_s, -1500.0, 1e-9);
  EXPECT_DOUBLE_EQ(problem.jobs[1].remaining_s, 500);
}

// Φ of the best layout by enumerating every x ∈ {0,1}^{m·T} under Σ_j K_j x_jt <= G.
double ExhaustiveBest(const WindowProblem& problem) {
  const int m = static_cast<int>(problem.jobs.size());
  const int T = problem.num_rounds;
  double best = -std::numeric_limits<double>::infinity();
  for (int mask = 0; mask < (1 << (m * T)); ++mask) {
    bool fits = true;
    for (int t = 0; t < T && fits; ++t) {
      int used = 0;
      for (int j = 0; j < m; ++j) used += ((mask >> (j * T + t)) & 1) * problem.jobs[j].gpus;
      fits = used <= problem.num_gpus;
    }
    if (!fits) continue;
    std::vector<int> rounds(m, 0);
    for (int j = 0; j < m; ++j) {
      for (int t = 0; t < T; ++t) rounds[j] += (mask >> (j * T + t)) & 1;
    }
    best = std::max(best, WindowObjective(problem, rounds));
  }
  return best;
}

// Tiny instances (3 jobs of 3, 5 and 6 GPUs — not powers of two — on 8 GPUs, 3 rounds): CBC's
// window solution is the exhaustive optimum, with the artifact's k and with the paper's, with and
// without weights; the structured solver too, where gangs are powers of two.
TEST(ShockwaveTunedJobsWindow, TinyInstancesMatchExhaustiveEnumeration) {
  for (double k : {1e-9, 0.1}) {
    for (bool weighted : {false, true}) {
      for (const std::vector<int>& gangs : std::vector<std::vector<int>>{{3, 5, 6}, {2, 4, 8}}) {
        ShockwaveTunedJobsOptions options;
        options.k = k;
        options.future_rounds = 3;
        options.solver_rel_gap = 0.0;
        const std::vector<ShockwaveTunedJob> jobs = {
            Job(gangs[0], 400, 100, 2.0, 0, {{4, 1e9}}),
            Job(gangs[1], 3000, 0, 1.0, 700, {{4, 1e9}}),
            Job(gangs[2], 900, 850, 3.0, 1000, {{4, 1e9}})};
        WindowProblem problem = ShockwaveTunedJobsProblem(jobs, 4, 8, options);
        if (weighted) {
          problem.jobs[0].weight = 50.0;
          problem.jobs[2].weight = 1e6;
        }
        const double exhaustive = ExhaustiveBest(problem);
        ASSERT_TRUE(std::isfinite(exhaustive));
        MilpOptions milp;
        milp.relative_gap = 0.0;
        const WindowSolution cbc = SolveWindowGeneral(problem, milp);
        ASSERT_TRUE(cbc.HasSolution());
        EXPECT_NEAR(cbc.objective, exhaustive, 1e-7 * std::max(1.0, std::abs(exhaustive)))
            << "k " << k << " weighted " << weighted << " gangs " << gangs[0];
        if (gangs[0] == 2) {  // powers of two dividing G: the structured solver is exact
          const WindowSolution structured = SolveWindowStructured(problem);
          ASSERT_TRUE(structured.HasSolution());
          EXPECT_NEAR(structured.objective, exhaustive, 1e-7 * std::max(1.0, std::abs(exhaustive)));
        }
      }
    }
  }
}

// The round: a job whose finish-time row cannot hold (it finishes within the window, so the
// window's end exceeds its target) makes the constrained problem infeasible; the fallback plans
// the relaxed problem and the idle GPUs go to the others, longest remaining time first.
TEST(ShockwaveTunedJobsWindow, InfeasibleRowsFallBackAndIdleGpusAreFilled) {
  ShockwaveTunedJobsOptions options;
  std::map<std::string, double> statistics;
  // Round 1 (now 360 s); every job's only estimate is this round's, F̄ = F̂ = 360 − sub + R.
  std::vector<ShockwaveTunedJob> jobs;
  for (double total : {100.0, 5000.0, 20000.0}) {
    jobs.push_back(Job(4, total, 0, 1.0, 0, {{1, 360 + total}}));
  }
  const std::vector<int> chosen = ShockwaveTunedJobsRound(jobs, 1, 8, options, statistics);
  EXPECT_EQ(statistics["shockwave_tj_fallbacks"], 1);
  // 8 GPUs, three 4-GPU jobs: two run; the round is full.
  ASSERT_EQ(chosen.size(), 2u);
  EXPECT_NE(chosen[0], chosen[1]);
}

TEST(ShockwaveTunedJobsOptionsTest, DefaultsArePapersAndBadValuesAreRefused) {
  const ShockwaveTunedJobsOptions defaults =
      ParseOptions<ShockwaveTunedJobsOptions>(nlohmann::json::object(), {"test", "shockwave_tj"});
  EXPECT_DOUBLE_EQ(defaults.k, 0.1);  // Sia §4.3: (λ, k) = (10, 0.1)
  EXPECT_DOUBLE_EQ(defaults.lambda, 10.0);
  EXPECT_DOUBLE_EQ(defaults.round_s, 360.0);
  EXPECT_EQ(defaults.future_rounds, 5);
  EXPECT_EQ(defaults.solver, ShockwaveSolver::kGeneral);
  const ShockwaveTunedJobsOptions artifact = ParseOptions<ShockwaveTunedJobsOptions>(
      {{"k", 1e-9}, {"lambda", 12.0}, {"solver", "structured"}}, {"test", "shockwave_tj"});
  EXPECT_DOUBLE_EQ(artifact.k, 1e-9);
  EXPECT_DOUBLE_EQ(artifact.lambda, 12.0);
  EXPECT_EQ(artifact.solver, ShockwaveSolver::kStructured);
  for (const nlohmann::json& bad :
       {nlohmann::json{{"k", -1.0}}, nlohmann::json{{"lambda", -0.5}},
        nlohmann::json{{"future_rounds", 0}}, nlohmann::json{{"round_s", 0.0}},
        nlohmann::json{{"rhomax", 0.0}}, nlohmann::json{{"solver", "gurobi"}},
        nlohmann::json{{"solver_max_nodes", 0}}}) {
    EXPECT_THROW(ParseOptions<ShockwaveTunedJobsOptions>(bad, {"test", "shockwave_tj"}), InputError)
        << bad.dump();
  }
}

TEST(ShockwaveTunedJobBatchSizeTest, NcfRunsAt32768) {
  PolluxJobSpec spec;
  spec.application = "ncf";
  spec.batch_size = 256;
  EXPECT_EQ(ShockwaveTunedJobBatchSize(spec), 32768);  // cluster_unaware.py:70-73
  spec.application = "cifar10";
  EXPECT_EQ(ShockwaveTunedJobBatchSize(spec), 256);
}

/// Seven TunedJobs jobs of at most 4 GPUs (the smallest type of aws=1,rtx=1,dgx-ext=1 has 4, and
/// Shockwave caps K there, cluster_unaware.py:60-67): 21 GPUs asked of 20, so jobs time-share.
constexpr const char* kSevenSmallTunedJobs =
    "cifar10-0,0,cifar10,4,2048\n"
    "bert-1,30,bert,2,24\n"
    "deepspeech2-2,60,deepspeech2,4,320\n"
    "yolov3-3,90,yolov3,2,16\n"
    "cifar10-4,400,cifar10,4,4096\n"
    "cifar10-5,500,cifar10,4,2048\n"
    "cifar10-6,700,cifar10,1,256\n";

class ShockwaveTunedJobsRun : public testing::SiaWorkloadTest {
 protected:
  void SetUp() override { WriteWorkload("adaptsim_shockwave_tj", kSevenSmallTunedJobs); }

  TaskConfig Task(const std::string& cluster, const std::string& solver) const {
    TaskConfig task = SiaTask("shockwave_tj", cluster);
    task.interval.interval_s = WrittenNumber{60.0, false};
    task.policy_options = {{"solver", solver}};
    return task;
  }
};

// aws=1 (4 T4), dgx-ext=1 (8 A100), rtx=1 (8 RTX 2080Ti), both solvers: every job completes; each
// running job holds exactly its CSV GPU count on one type; rounds are 360 s although the task's
// interval is 60 s; the same task gives the same result.
TEST_F(ShockwaveTunedJobsRun, SmallMixedClusterIn360SecondRoundsDeterministically) {
  ADAPTSIM_REQUIRE_DATA();
  const PolluxWorkload workload = ReadPolluxWorkload(workload_.string());
  for (const char* solver : {"general", "structured"}) {
    const TaskConfig task = Task("aws=1,rtx=1,dgx-ext=1", solver);
    const SimulationResult first = RunTask(task);
    ASSERT_EQ(first.status, TaskStatus::kOk) << first.message;
    ASSERT_EQ(first.jobs.size(), 7u);
    for (const JobResult& job : first.jobs) {
      EXPECT_EQ(job.outcome, JobOutcome::kCompleted) << solver << " " << job.id;
    }
    const testing::TunedJobsRounds rounds = testing::CheckTunedJobsRounds(first, workload, 360.0);
    EXPECT_TRUE(rounds.time_shared) << solver;
    EXPECT_GT(rounds.types_used.size(), 1u) << solver;
    EXPECT_GT(first.policy_statistics.at("shockwave_tj_rounds"), 0);
    EXPECT_EQ(first.policy_statistics.at("shockwave_tj_solver_failures"), 0);

    const SimulationResult second = RunTask(task);
    testing::ExpectSameRun(first, second);
  }
}

// K is capped at the smallest type's GPUs (cluster_unaware.py:60-67): on aws=1,rtx=1 (4 and 8
// GPUs) an 8-GPU job runs on 4 GPUs, on aws.
TEST_F(ShockwaveTunedJobsRun, JobsAreCappedAtTheSmallestTypesGpus) {
  ADAPTSIM_REQUIRE_DATA();
  std::ofstream(workload_) << testing::kSiaWorkloadHeader << "cifar10-0,0,cifar10,8,4096\n";
  const SimulationResult result = RunTask(Task("aws=1,rtx=1", "general"));
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  ASSERT_EQ(result.jobs.size(), 1u);
  EXPECT_EQ(result.jobs[0].outcome, JobOutcome::kCompleted);
  int rounds_run = 0;
  for (const RoundResult& round : result.rounds) {
    for (const std::vector<int>& workers : round.worker_ids) {
      EXPECT_EQ(workers.size(), 4u) << round.round_index;
      ++rounds_run;
    }
  }
  EXPECT_GT(rounds_run, 0);
}

}  // namespace
}  // namespace adaptsim
