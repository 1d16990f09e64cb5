// The job mapping between the round and the interval worlds, both directions at once
// (include/adaptsim/job_mapping.hpp, docs/sia.md §9): a Shockwave trace job mapped to an
// interval-engine job and viewed back by the round view gives its scale factor, its iterations at
// B0 and the catalogue's throughput; and Sia runs on a trace through the same mapping (one GPU
// type, the catalogue model as every job's profile). Built-in catalogue: no reference data.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/job_mapping.hpp"
#include "adaptsim/pollux_goodput.hpp"
#include "adaptsim/pollux_throughput.hpp"
#include "adaptsim/profile.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/trace.hpp"
#include "adaptsim/workload.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

const std::string kCatalogue = std::string(ADAPTSIM_SOURCE_DIR) + "/data/catalog/v100.toml";

/// A trace of `jobs` (model, B0, steps, sf, mode, arrival) in a temporary file named after the
/// test; removed with the object.
class TraceFile {
 public:
  explicit TraceFile(const std::vector<std::vector<std::string>>& jobs)
      : path_((fs::temp_directory_path() /
               ("adaptsim_job_mapping_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".trace"))
                  .string()) {
    std::ofstream out(path_);
    for (const auto& j : jobs) {
      out << j[0] << " (batch size " << j[1] << ")\tcmd\tdir\t--steps\t1\t" << j[2] << "\t" << j[3]
          << "\t" << j[4] << "\t1\t-1.000000\t100\t" << j[5] << "\n";
    }
  }
  ~TraceFile() { fs::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

IntervalJobView ViewOf(const PolluxJobSpec& spec, const PolluxApplication& app) {
  IntervalJobView view;
  view.spec = &spec;
  view.app = &app;
  view.apps_by_group = {&app};
  view.restart_delay_s = 30.0;
  return view;
}

// Trace job -> interval job -> round view: K = sf, S_j = the job's whole epochs at B0 (E·D/B0,
// E = ceil(S / ceil(D/B0)), the work of its Shockwave profile), which is the trace's step count
// when D/B0 and S/(D/B0) are whole; after k epochs of progress the view has done k·D/B0
// iterations.
TEST(JobMapping, ATraceJobViewedBackGivesItsScaleFactorAndIterations) {
  // ResNet-50: D = 100000, B0 = 32 -> 3125 iterations per epoch, 3 epochs; Transformer: D = 10000,
  // B0 = 16 -> 625 per epoch, 2 epochs (gns: the schedule grows the batch, the view stays at B0);
  // ResNet-18: D = 50000, B0 = 32 -> 1562.5 per epoch, 3126 steps -> 2 epochs = 3125 iterations.
  const TraceFile trace_file({{"ResNet-50", "32", "9375", "4", "static", "0"},
                              {"Transformer", "16", "1250", "2", "gns", "60"},
                              {"ResNet-18", "32", "3126", "1", "static", "120"}});
  const Trace trace = ReadTrace(trace_file.path());
  const Catalogue catalogue = LoadPolluxTraceCatalogue(kCatalogue);
  const models::CatalogueThroughput throughputs(catalogue);
  PolluxApplications apps("");
  const PolluxTraceInputs inputs = BuildPolluxTraceInputs(trace, catalogue, apps);
  ASSERT_EQ(inputs.workload.jobs.size(), 3u);
  const std::vector<double> expected_total = {9375, 1250, 3125};
  for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
    const JobSpec& job = trace.jobs[i];
    const PolluxJobSpec& spec = inputs.workload.jobs[i];
    const PolluxApplication& app = apps.Get(spec.application);
    const JobProfile profile = BuildProfile(job, throughputs, trace.path);
    const double per_epoch =
        static_cast<double>(FindModel(job.model)->dataset_size_samples) / job.initial_batch_size;
    IntervalJobView view = ViewOf(spec, app);
    const TunedJobRoundView start = MakeTunedJobRoundView(view, 360.0, {});
    EXPECT_EQ(start.scale_factor, job.scale_factor) << i;
    EXPECT_EQ(start.total_steps, profile.num_epochs * per_epoch) << i;
    EXPECT_EQ(start.total_steps, expected_total[i]) << i;
    EXPECT_EQ(start.current_step, 0.0) << i;
    EXPECT_EQ(start.remaining_steps, start.total_steps) << i;
    // o_j = R − (submission mod R) + the restart delay.
    EXPECT_DOUBLE_EQ(start.prestart_overhead_s, 360.0 - job.arrival_time_s + 30.0) << i;
    // One whole epoch of the engine's (efficiency-weighted) progress is one epoch of iterations.
    view.epoch = 1;
    view.progress = app.Progress(1);
    const TunedJobRoundView later = MakeTunedJobRoundView(view, 360.0, {});
    EXPECT_EQ(later.current_step, std::nearbyint(per_epoch)) << i;
    EXPECT_EQ(later.remaining_steps, start.total_steps - std::nearbyint(per_epoch)) << i;
  }
  EXPECT_EQ(trace.jobs[0].total_steps, 9375);  // the round trip is exact for these two
  EXPECT_EQ(trace.jobs[1].total_steps, 1250);

  // The round view's throughput of the mapped job is the catalogue model's: ResNet-50 with K = 4,
  // B = 32 on a 4-GPU node: one node, m = 8, no accumulation, X = 1 / T_optim(1, 4, 8).
  const PolluxApplication& resnet50 = apps.Get(inputs.workload.jobs[0].application);
  const auto params = models::PolluxPerfParams::FromArray(catalogue.Find("ResNet-50")->perf_params);
  EXPECT_DOUBLE_EQ(GavelTunedJobThroughput(resnet50, 4, 8, 4, 32, 1.0),
                   1.0 / models::OptimTime(params, 1, 4, 8));
  // The executed batch at B0 on the placement held: 2 GPUs on each of two nodes -> m = 8.
  const BatchConfig batch = GavelTunedJobBatch(resnet50, 32, {2, 2});
  EXPECT_EQ(batch.atomic_bsz, 8);
  EXPECT_EQ(batch.accum_steps, 0);
  // A trace job has no memory table: its largest per-GPU batch holds on every placement.
  EXPECT_EQ(resnet50.MaxLocalBszAt({4, 4}), resnet50.max_local_bsz());
}

/// Sia on a Shockwave trace: the same task path as Pollux's (docs/sia.md §9), on nodes of 4 GPUs.
class SiaOnATraceTest : public ::testing::Test {
 protected:
  SiaOnATraceTest()
      : trace_({{"ResNet-18", "32", "3126", "1", "static", "0"},
                {"ResNet-18", "64", "2346", "2", "gns", "0"},
                {"LM", "20", "44760", "1", "accordion", "60"},
                {"Recommendation", "2048", "116", "1", "static", "120"},
                {"Transformer", "32", "626", "4", "gns", "300"},
                {"ResNet-50", "32", "6250", "2", "accordion", "400"}}) {}

  TaskConfig Task(int gpus_per_node) const {
    TaskConfig task;
    task.trace_path = trace_.path();
    task.throughputs_path = kCatalogue;
    task.policy = "sia";
    task.simulation.num_gpus = 8;
    task.interval.gpus_per_node = WrittenNumber{static_cast<double>(gpus_per_node), true};
    return task;
  }

  TraceFile trace_;
};

TEST_F(SiaOnATraceTest, EveryJobCompletesAndTheRunIsDeterministic) {
  const SimulationResult a = RunTask(Task(4));
  const Trace trace = ReadTrace(trace_.path());
  ASSERT_EQ(a.jobs.size(), trace.jobs.size());
  for (const JobResult& job : a.jobs) {
    EXPECT_EQ(job.outcome, JobOutcome::kCompleted) << job.id;
    EXPECT_EQ(job.workload, trace.jobs[job.id].model);
    EXPECT_GT(job.jct_s, 0.0);
    EXPECT_TRUE(std::isfinite(job.ftf_rho) && job.ftf_rho > 0.0) << job.id;
  }
  for (const RoundResult& round : a.rounds) {
    EXPECT_LE(round.busy_gpus, 8);
    for (std::size_t k = 0; k < round.running_job_ids.size(); ++k) {
      if (trace.jobs[round.running_job_ids[k]].model == "Recommendation") {
        EXPECT_LE(round.worker_ids[k].size(), 1u);  // not distributed
      }
    }
  }
  EXPECT_GT(a.policy_statistics.at("sia_rounds"), 0.0);
  const SimulationResult b = RunTask(Task(4));
  ASSERT_EQ(b.jobs.size(), a.jobs.size());
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].jct_s, b.jobs[i].jct_s) << i;
    EXPECT_EQ(a.jobs[i].restarts, b.jobs[i].restarts) << i;
  }
}

// The catalogue's 2-GPU nodes are not a Sia configuration: the error says what to set.
TEST_F(SiaOnATraceTest, TwoGpuNodesAreRefusedByName) {
  try {
    RunTask(Task(2));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("4 or 8 GPUs per node"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace adaptsim
