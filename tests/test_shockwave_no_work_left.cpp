// A job with no work left under Shockwave (docs/shockwave.md, "A job with no work left";
// docs/mechanism.md §8.2): the ceil rescaling of a batch-size change leaves S - run < 0 after the
// completion check, the job's micro-tasks then fail, and it leaves after max_failed_attempts of
// them. The reference's planner gives such a job no round (its utility is constant), and the
// work-conserving fill puts it last (forecast 1 s), so it runs only in rounds in which every other
// job that fits already runs, and waits while the cluster is full.
//
// The same predicate is checked on the reference's three Shockwave runs (replayed from the golden
// per-round schedules) and on adaptsim's Shockwave runs: the canonical run and the 460-job run at
// 128 GPUs, where this job (job 86) has the worst ρ of the run.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/metrics.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "golden_support.hpp"
#include "policies/shockwave/shockwave.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {
namespace {

// `REOPT_ROUNDS` (`scheduler.py:71`): a plan is at most this many rounds old, so from this many
// rounds after the batch-size change on, every round follows a plan made after it.
constexpr int kReoptRounds = 8;

bool Runs(const RoundResult& round, JobId id) {
  return std::find(round.running_job_ids.begin(), round.running_job_ids.end(), id) !=
         round.running_job_ids.end();
}

/// Checks the predicate for every job that left as failed; returns, per such job, the rounds it
/// waited with no work left (rounds from its batch-size change to its last failure in which it did
/// not run).
std::map<JobId, int> ExpectNoWorkLeftJobsWaitForAnIdleGpu(const SimulationResult& result,
                                                          int num_gpus,
                                                          const SimulationOptions& options) {
  std::map<JobId, int> waited;
  for (const JobResult& job : result.jobs) {
    if (job.outcome != JobOutcome::kFailed) continue;
    std::vector<ThroughputSample> samples;
    for (const ThroughputSample& s : result.throughput_timeline) {
      if (s.job_id == job.id) samples.push_back(s);
    }
    std::sort(samples.begin(), samples.end(),
              [](const auto& a, const auto& b) { return a.completion_round < b.completion_round; });
    const auto first_failure = std::find_if(samples.begin(), samples.end(),
                                            [](const auto& s) { return s.steps_per_s == 0.0; });
    EXPECT_NE(first_failure, samples.begin()) << "job " << job.id;
    if (first_failure == samples.begin() || first_failure == samples.end()) continue;
    // The failures are the job's last max_failed_attempts micro-tasks, at the batch size the
    // change after its last successful micro-task set.
    EXPECT_EQ(samples.end() - first_failure, options.max_failed_attempts) << "job " << job.id;
    const ThroughputSample& last_success = *(first_failure - 1);
    for (auto it = first_failure; it != samples.end(); ++it) {
      EXPECT_EQ(it->steps_per_s, 0.0) << "job " << job.id;
      EXPECT_EQ(it->batch_size, job.final_batch_size) << "job " << job.id;
    }
    EXPECT_NE(last_success.batch_size, job.final_batch_size) << "job " << job.id;
    const int no_work_from = last_success.completion_round;  // first round planned without work
    const int last_failure = samples.back().completion_round - 1;
    EXPECT_EQ(job.completion_time_s, result.rounds.at(last_failure).start_s) << "job " << job.id;
    int rounds_waited = 0;
    for (int r = no_work_from; r <= last_failure; ++r) {
      const RoundResult& round = result.rounds.at(r);
      if (!Runs(round, job.id)) {
        ++rounds_waited;
        EXPECT_EQ(round.busy_gpus, num_gpus) << "job " << job.id << " waited in round " << r;
        continue;
      }
      if (r < no_work_from + kReoptRounds) continue;  // may follow a plan made with work left
      // Run last: every other active job of its size (not itself without work) runs too.
      for (const JobResult& other : result.jobs) {
        const JobStay& stay = result.round_stays.at(other.id);
        if (other.id == job.id || other.outcome == JobOutcome::kFailed ||
            other.requested_gpus > job.requested_gpus || stay.admitted_round > r ||
            stay.departed_round <= r) {
          continue;
        }
        EXPECT_TRUE(Runs(round, other.id))
            << "job " << job.id << " ran in round " << r << " while job " << other.id << " waited";
      }
    }
    waited[job.id] = rounds_waited;
  }
  return waited;
}

/// A run of the canonical trace (32 GPUs) has exactly one job with no work left, and it waited.
void ExpectOneCanonicalJobWaited(const SimulationResult& result) {
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  const std::map<JobId, int> waited =
      ExpectNoWorkLeftJobsWaitForAnIdleGpu(result, 32, SimulationOptions{});
  ASSERT_EQ(waited.size(), 1u);
  EXPECT_GT(waited.begin()->second, 0);
}

// The reference: its three Shockwave runs each have one such job (job 35), which waits for an
// idle GPU (docs/shockwave.md: 29, 23 and 24 rounds).
TEST(ShockwaveNoWorkLeft, ReferenceRunsWaitForAnIdleGpu) {
  ADAPTSIM_REQUIRE_DATA();
  for (const char* name : {"shockwave", "old_shockwave", "new_orig_hyperparam_shockwave"}) {
    SCOPED_TRACE(name);
    ExpectOneCanonicalJobWaited(
        RunCanonical("replay", R"({"schedule": ")" + GoldenPath(name) + R"("})"));
  }
}

// adaptsim's canonical run: the same job and the same handling.
TEST(ShockwaveNoWorkLeft, CanonicalRunWaitsForAnIdleGpu) {
  ADAPTSIM_REQUIRE_DATA();
  ExpectOneCanonicalJobWaited(RunCanonical(
      "shockwave",
      R"({"config": ")" + DataPath("shockwave/configurations/tacc_32gpus.json") + R"("})"));
}

// The scale study's outlier (experiments/scale.toml, 460 jobs, 128 GPUs): the job with no work left
// waits while the cluster is full, and that wait gives it the worst ρ of the run.
TEST(ShockwaveNoWorkLeft, ScaleRun460WorstRhoIsTheJobWithNoWorkLeft) {
  ADAPTSIM_REQUIRE_DATA();
  const Trace trace = ReadTrace(DataPath(
      "shockwave/traces/460_0.2_5_100_10_1_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace"));
  const ThroughputTable table =
      ThroughputTable::ReadJson(DataPath("shockwave/throughputs/wisr_throughputs.json"));
  ShockwavePolicy policy(
      ReadShockwaveConfig(DataPath("shockwave/configurations/scale_128gpus.json")));
  SimulationOptions options;
  options.num_gpus = 128;
  SimulationResult result = Simulate(trace, table, policy, options);
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  ComputeMetrics(result, options.num_gpus);
  const std::map<JobId, int> waited =
      ExpectNoWorkLeftJobsWaitForAnIdleGpu(result, options.num_gpus, options);
  ASSERT_EQ(waited.size(), 1u);
  const auto worst = std::max_element(
      result.jobs.begin(), result.jobs.end(),
      [](const JobResult& a, const JobResult& b) { return a.ftf_rho < b.ftf_rho; });
  EXPECT_EQ(worst->id, waited.begin()->first);
  EXPECT_EQ(worst->ftf_rho, result.summary.worst_ftf_rho);
  // It waited most of its stay: without the wait its ρ would be below 1.
  const double wait_s = waited.begin()->second * options.round_duration_s;
  EXPECT_LT((worst->jct_s - wait_s) / worst->jct_s * worst->ftf_rho, 1.0);
}

}  // namespace
}  // namespace adaptsim::testing
