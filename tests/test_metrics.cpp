// DeriveMetrics (docs/mechanism.md §10, §12.9) on small hand-built runs: the makespan rule, the
// Themis-style ρ from the recorded stays, the type-weighted ρ and the per-type rows of a mixed
// cluster, and that deriving twice gives the same result.
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

// Three jobs on 1 K80 + 2 V100 (G = 3, N/G = 1), worked by hand (docs/mechanism.md §12.9):
//   job 0: JCT 300, T_excl 100 on V100 and 300 on K80: ρ_v100 = 3, ρ_k80 = 1
//   job 1: JCT 200, T_excl 100 on V100, cannot run on K80:   ρ_v100 = 2
//   job 2: JCT 600, T_excl 200 on V100 and 400 on K80: ρ_v100 = 3, ρ_k80 = 1.5
// Type-weighted ρ = Σ_g C_g ρ_g / Σ_g C_g over the types a job runs on: 7/3, 2, 2.5.
SimulationResult MixedRun() {
  SimulationResult run;
  const double jct_s[] = {300.0, 200.0, 600.0};
  const double arrival_s[] = {0.0, 100.0, 0.0};
  const std::vector<std::vector<double>> exclusive_s = {
      {300.0, 100.0}, {0.0, 100.0}, {400.0, 200.0}};  // k80, v100
  for (int j = 0; j < 3; ++j) {
    JobResult job;
    job.id = j;
    job.arrival_time_s = arrival_s[j];
    job.jct_s = jct_s[j];
    job.completion_time_s = arrival_s[j] + jct_s[j];
    job.exclusive_time_s = exclusive_s[j][1];  // the reference type's
    job.outcome = JobOutcome::kCompleted;
    run.jobs.push_back(job);
  }
  run.exclusive_time_by_type_s = exclusive_s;
  run.gpu_types = {{"k80", 1}, {"v100", 2}};
  run.gpu_busy_time_s = {150.0, 300.0, 0.0};  // worker 0 is the K80
  run.end_time_s = 600.0;
  return run;
}

TEST(Metrics, TypeWeightedRhoWeightsEachTypesRhoByItsGpus) {
  const RunMetrics metrics = DeriveMetrics(MixedRun(), 3);
  EXPECT_EQ(metrics.ftf_rho, (std::vector<double>{3.0, 2.0, 3.0}));  // the V100-based ρ
  EXPECT_EQ(metrics.ftf_rho_type_weighted[0], PythonRound(7.0 / 3.0, 5));
  EXPECT_EQ(metrics.ftf_rho_type_weighted[1], 2.0);  // K80 left out: the job cannot run there
  EXPECT_EQ(metrics.ftf_rho_type_weighted[2], 2.5);
  EXPECT_DOUBLE_EQ(metrics.summary.mean_ftf_rho_type_weighted,
                   (PythonRound(7.0 / 3.0, 5) + 2.0 + 2.5) / 3.0);
  EXPECT_EQ(metrics.summary.worst_ftf_rho_type_weighted, 2.5);
  EXPECT_EQ(metrics.summary.worst_ftf_rho, 3.0);
}

TEST(Metrics, PerGpuTypeUtilizationHoursAndRho) {
  const RunMetrics metrics = DeriveMetrics(MixedRun(), 3);
  ASSERT_EQ(metrics.gpu_types.size(), 2u);
  const GpuTypeResult& k80 = metrics.gpu_types[0];
  const GpuTypeResult& v100 = metrics.gpu_types[1];
  EXPECT_EQ(k80.gpu_type, "k80");
  EXPECT_EQ(v100.gpus, 2);
  // Makespan 600 s: K80 busy 150 s; the V100s 300 s and 0 s.
  EXPECT_EQ(k80.utilization, 0.25);
  EXPECT_EQ(v100.utilization, 0.25);
  EXPECT_DOUBLE_EQ(k80.busy_gpu_hours, 150.0 / 3600.0);
  EXPECT_DOUBLE_EQ(v100.busy_gpu_hours, 300.0 / 3600.0);
  // The cluster's utilization is the GPU-weighted mean of the types'.
  EXPECT_DOUBLE_EQ(metrics.summary.utilization,
                   (k80.gpus * k80.utilization + v100.gpus * v100.utilization) / 3.0);
  // Mean ρ_g over the jobs that can run on g: K80 (1 + 1.5) / 2, V100 (3 + 2 + 3) / 3.
  EXPECT_EQ(k80.mean_ftf_rho, 1.25);
  EXPECT_DOUBLE_EQ(v100.mean_ftf_rho, 8.0 / 3.0);
}

// On one type (or without per-type exclusive times, as the interval engine records) the
// type-weighted ρ is the static ρ.
TEST(Metrics, TypeWeightedRhoIsTheStaticRhoOnOneType) {
  SimulationResult run = TwoJobRun();
  RunMetrics metrics = DeriveMetrics(run, 2);
  EXPECT_EQ(metrics.ftf_rho_type_weighted, metrics.ftf_rho);
  EXPECT_TRUE(metrics.gpu_types.empty());
  run.gpu_types = {{"v100", 2}};
  run.exclusive_time_by_type_s = {{100.0}, {100.0}};
  metrics = DeriveMetrics(run, 2);
  EXPECT_EQ(metrics.ftf_rho_type_weighted, metrics.ftf_rho);
  EXPECT_EQ(metrics.summary.worst_ftf_rho_type_weighted, metrics.summary.worst_ftf_rho);
  ASSERT_EQ(metrics.gpu_types.size(), 1u);
  EXPECT_EQ(metrics.gpu_types[0].utilization, metrics.summary.utilization);
}

}  // namespace
}  // namespace adaptsim
