// DeriveMetrics (docs/mechanism.md §10) on small hand-built runs: the makespan rule, the
// Themis-style ρ from the recorded stays, and that deriving twice gives the same result.
#include <gtest/gtest.h>

#include "adaptsim/metrics.hpp"
#include "adaptsim/python_round.hpp"

namespace adaptsim {
namespace {

// Two jobs on G = 2 GPUs, three rounds with 4, 4 and 2 active jobs.
SimulationResult TwoJobRun() {
  SimulationResult run;
  for (int j = 0; j < 2; ++j) {
    JobResult job;
    job.id = j;
    job.arrival_time_s = 10.0 * j;
    job.completion_time_s = 300.0 + 50.0 * j;
    job.jct_s = job.completion_time_s - job.arrival_time_s;
    job.exclusive_time_s = 100.0;
    job.outcome = JobOutcome::kCompleted;
    run.jobs.push_back(job);
  }
  for (int active : {4, 4, 2}) {
    RoundResult round;
    round.round_index = static_cast<int>(run.rounds.size());
    round.active_jobs = active;
    run.rounds.push_back(round);
  }
  run.round_stays = {{0, 2}, {1, 3}};
  run.gpu_busy_time_s = {200.0, 100.0};
  run.end_time_s = 400.0;
  return run;
}

TEST(Metrics, MakespanIsTheLastDepartureOrTheStopTimeOfAStoppedRun) {
  SimulationResult run = TwoJobRun();
  EXPECT_EQ(DeriveMetrics(run, 2).summary.makespan_s, run.jobs[1].completion_time_s);
  run.jobs[1].outcome = JobOutcome::kUnfinished;
  const RunMetrics stopped = DeriveMetrics(run, 2);
  EXPECT_EQ(stopped.summary.makespan_s, run.end_time_s);
  EXPECT_EQ(stopped.ftf_rho[1], 0.0);  // a job that never left has no ρ
  EXPECT_EQ(stopped.ftf_rho_themis[1], 0.0);
}

TEST(Metrics, ThemisRhoAveragesTheActiveJobsOverEachStay) {
  SimulationResult run = TwoJobRun();
  const RunMetrics metrics = DeriveMetrics(run, 2);
  // Job 0 stayed in rounds 0-1 (4, 4 active: contention 2), job 1 in rounds 1-2 (4, 2: 1.5).
  EXPECT_EQ(metrics.ftf_rho_themis[0], PythonRound(run.jobs[0].jct_s / (100.0 * 2.0), 5));
  EXPECT_EQ(metrics.ftf_rho_themis[1], PythonRound(run.jobs[1].jct_s / (100.0 * 1.5), 5));
  // Static ρ uses N_trace / G = 1.
  EXPECT_EQ(metrics.ftf_rho[1], PythonRound(run.jobs[1].jct_s / 100.0, 5));
  run.round_stays.clear();  // an engine without round stays: no Themis-style ρ
  EXPECT_EQ(DeriveMetrics(run, 2).ftf_rho_themis[0], 0.0);
}

TEST(Metrics, ComputeMetricsStoresTheDerivationAndIsRepeatable) {
  SimulationResult run = TwoJobRun();
  const RunMetrics derived = DeriveMetrics(run, 2);
  ComputeMetrics(run, 2);
  EXPECT_EQ(run.summary.worst_ftf_rho, derived.summary.worst_ftf_rho);
  EXPECT_EQ(run.jobs[0].ftf_rho_themis, derived.ftf_rho_themis[0]);
  const SummaryMetrics first = run.summary;
  ComputeMetrics(run, 2);
  EXPECT_EQ(run.summary.worst_ftf_rho, first.worst_ftf_rho);
  EXPECT_EQ(run.summary.utilization, first.utilization);
  EXPECT_EQ(run.summary.mean_jct_s, first.mean_jct_s);
}

}  // namespace
}  // namespace adaptsim
