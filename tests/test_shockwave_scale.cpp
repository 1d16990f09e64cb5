// Shockwave's near-linear structured solver (solver "structured") against its reference algorithms
// ("structured_reference") on the paper's traces: the canonical run (120 jobs, 32 GPUs,
// tacc_32gpus.json) and the 220-job scale run (64 GPUs, scale_64gpus.json) give the same per-job
// completion times, the same job set in every round and the same policy statistics, bit for bit
// (docs/performance.md, "Shockwave at scale").
#include <string>

#include <gtest/gtest.h>

#include "adaptsim/metrics.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "policies/shockwave/shockwave.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {
namespace {

void ExpectSameRun(const std::string& trace_file, const std::string& throughputs_file,
                   const std::string& config_file, int num_gpus) {
  const Trace trace = ReadTrace(DataPath("shockwave/traces/" + trace_file));
  const ThroughputTable table =
      ThroughputTable::ReadJson(DataPath("shockwave/throughputs/" + throughputs_file));
  ShockwaveConfig config = ReadShockwaveConfig(DataPath("shockwave/configurations/" + config_file));
  SimulationOptions options;
  options.num_gpus = num_gpus;
  config.solver = ShockwaveSolver::kStructured;
  ShockwavePolicy fast(config);
  SimulationResult a = Simulate(trace, table, fast, options);
  config.solver = ShockwaveSolver::kStructuredReference;
  ShockwavePolicy reference(config);
  SimulationResult b = Simulate(trace, table, reference, options);
  ASSERT_EQ(a.status, TaskStatus::kOk) << a.message;
  ASSERT_EQ(b.status, TaskStatus::kOk) << b.message;
  ASSERT_EQ(a.jobs.size(), trace.jobs.size());
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  for (std::size_t j = 0; j < a.jobs.size(); ++j) {
    EXPECT_EQ(a.jobs[j].jct_s, b.jobs[j].jct_s) << "job " << a.jobs[j].id;
  }
  ASSERT_EQ(a.rounds.size(), b.rounds.size());
  for (std::size_t r = 0; r < a.rounds.size(); ++r) {
    EXPECT_EQ(a.rounds[r].running_job_ids, b.rounds[r].running_job_ids) << "round " << r;
  }
  EXPECT_EQ(a.policy_statistics, b.policy_statistics);
  EXPECT_GT(a.policy_statistics.at("shockwave_resolves"), 0.0);
}

TEST(ShockwaveScale, CanonicalRunSameAsStructuredReference) {
  ADAPTSIM_REQUIRE_DATA();
  ExpectSameRun("120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace",
                "tacc_throughputs.json", "tacc_32gpus.json", 32);
}

TEST(ShockwaveScale, ScaleRun220SameAsStructuredReference) {
  ADAPTSIM_REQUIRE_DATA();
  ExpectSameRun("220_0.2_5_100_25_4_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace",
                "wisr_throughputs.json", "scale_64gpus.json", 64);
}

}  // namespace
}  // namespace adaptsim::testing
