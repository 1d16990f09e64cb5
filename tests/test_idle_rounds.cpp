// The round engine when nothing runs and nothing arrives but jobs wait (docs/mechanism.md §5.2
// step 2): with the Gavel mechanism, jobs that arrived after the last allocation solve have no
// allocation (quirk Q1) until the reset gate reopens (§7.4). Idle rounds let the clock reach it
// instead of failing the task with "no job can be scheduled".
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/trace.hpp"
#include "adaptsim/trace_generator.hpp"

namespace adaptsim {
namespace {

const std::string kCatalogue = std::string(ADAPTSIM_SOURCE_DIR) + "/data/catalog/v100.toml";

// A short trace whose first jobs all finish before the gate reopens: 16 jobs, one per 60 s on
// average, at most 1 h each (the generator's seed 3).
std::string WriteShortTrace() {
  TraceGeneratorOptions options;
  options.num_jobs = 16;
  options.lam_s = 60.0;
  options.seed = 3;
  options.max_duration_h = 1.0;
  const models::CatalogueThroughput catalogue = models::CatalogueThroughput::Read(kCatalogue);
  const Trace trace = GenerateTrace(options, catalogue.catalogue().WorkloadModels(), catalogue);
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("adaptsim_idle_rounds_" + std::to_string(::getpid()) + ".trace"))
                               .string();
  std::ofstream out(path);
  WriteTrace(out, trace);
  return path;
}

TEST(IdleRounds, GavelMechanismWaitsForTheNextSolveInsteadOfFailing) {
  const std::string trace = WriteShortTrace();
  for (const std::string policy : {"gandiva_fair", "max_min_fairness", "fifo"}) {
    TaskConfig task;
    task.trace_path = trace;
    task.throughputs_path = kCatalogue;
    task.policy = policy;
    task.simulation.num_gpus = 16;
    const SimulationResult result = RunTask(task);
    ASSERT_EQ(result.status, TaskStatus::kOk) << policy << ": " << result.message;
    for (const JobResult& job : result.jobs) {
      EXPECT_EQ(job.outcome, JobOutcome::kCompleted) << policy << " job " << job.id;
    }
    // The trace needs the idle rounds: some round ran nothing while jobs were active.
    int idle = 0;
    for (const RoundResult& round : result.rounds) idle += round.busy_gpus == 0;
    EXPECT_GT(idle, 0) << policy;
  }
  std::filesystem::remove(trace);
}

}  // namespace
}  // namespace adaptsim
