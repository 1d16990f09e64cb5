// Pollux on the Shockwave traces (adaptsim/job_mapping.hpp, trace job -> interval job): the
// statistical-efficiency model per adaptation mode, the synthetic applications, and end-to-end runs
// on a small trace with the built-in catalogue (no reference data needed).
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <variant>

#include <gtest/gtest.h>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/interval_simulator.hpp"
#include "adaptsim/job_mapping.hpp"
#include "adaptsim/pollux_throughput.hpp"
#include "adaptsim/profile.hpp"
#include "adaptsim/sweep.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/trace.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

const std::string kCatalogue = std::string(ADAPTSIM_SOURCE_DIR) + "/data/catalog/v100.toml";

JobSpec Job(const std::string& model, int batch, AdaptationMode mode) {
  JobSpec job;
  job.model = model;
  job.initial_batch_size = batch;
  job.mode = mode;
  return job;
}

TEST(PolluxTraceModelTest, StaticJobsKeepTheirBatchAndCountStepsAtB0) {
  const TraceJobEfficiency m =
      TraceEfficiencyModel(Job("ResNet-18", 64, AdaptationMode::kStatic), {64, 64, 64}, 50000, 256);
  EXPECT_EQ(m.init_batch_size, 64);
  EXPECT_EQ(m.max_batch_size, 64);
  EXPECT_EQ(m.fixed_batch_size, 64);
  ASSERT_EQ(m.progress.size(), 3u);
  for (double p : m.progress) EXPECT_DOUBLE_EQ(p, 50000.0 / 64);  // one step at B0 = 1 unit
}

TEST(PolluxTraceModelTest, AdaptiveJobsHaveTheirScheduleAsNoiseScale) {
  for (AdaptationMode mode : {AdaptationMode::kGns, AdaptationMode::kAccordion}) {
    const TraceJobEfficiency m =
        TraceEfficiencyModel(Job("ResNet-18", 32, mode), {32, 64, 256}, 50000, 256);
    EXPECT_EQ(m.max_batch_size, 256);
    EXPECT_EQ(m.fixed_batch_size, 0);
    EXPECT_EQ(m.noise_scale, (std::vector<double>{32, 64, 256}));
    // (D/M0)·(φ+M0)/(φ+B): at φ = B = B0 one unit per step; at B = φ = 8·B0, 9/16 per sample.
    EXPECT_DOUBLE_EQ(m.progress[0], 50000.0 / 32);
    EXPECT_DOUBLE_EQ(m.progress[1], 50000.0 / 32 * 96 / 128);
    EXPECT_DOUBLE_EQ(m.progress[2], 50000.0 / 32 * 288 / 512);
  }
}

/// A small trace of `lines`, written to a temporary file named after the test.
class PolluxTraceRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (fs::temp_directory_path() /
             ("adaptsim_pollux_trace_" + std::to_string(::getpid()) + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".trace"))
                .string();
    // model, B0, steps, sf, mode, arrival: static / gns / accordion, every model, the
    // non-distributed Recommendation, an LM job whose accordion schedule reaches the max batch.
    const char* jobs[][6] = {
        {"ResNet-18", "32", "3126", "1", "static", "0"},
        {"ResNet-18", "64", "2346", "2", "gns", "0"},
        {"LM", "20", "44760", "1", "accordion", "60"},
        {"Recommendation", "2048", "116", "1", "static", "120"},
        {"Transformer", "32", "626", "4", "gns", "300"},
        {"ResNet-50", "32", "6250", "2", "accordion", "400"},
        {"ResNet-18", "128", "1173", "4", "static", "420"},
    };
    std::ofstream out(path_);
    for (const auto& j : jobs) {
      out << j[0] << " (batch size " << j[1] << ")\tcmd\tdir\t--steps\t1\t" << j[2] << "\t" << j[3]
          << "\t" << j[4] << "\t1\t-1.000000\t100\t" << j[5] << "\n";
    }
  }
  void TearDown() override { fs::remove(path_); }

  TaskConfig Task(std::uint64_t seed) const {
    TaskConfig task;
    task.trace_path = path_;
    task.throughputs_path = kCatalogue;
    task.policy = "pollux";
    task.seed = seed;
    task.simulation.num_gpus = 8;
    task.policy_options = {{"population", 30}, {"generations", 30}};
    return task;
  }

  std::string path_;
};

TEST_F(PolluxTraceRunTest, EveryJobCompletesWithinTheCluster) {
  std::vector<RoundResult> rounds;
  const SimulationResult result =
      RunTask(Task(1), [&](const RoundResult& round) { rounds.push_back(round); });
  const Trace trace = ReadTrace(path_);
  ASSERT_EQ(result.jobs.size(), trace.jobs.size());
  for (const JobResult& job : result.jobs) {
    const JobSpec& spec = trace.jobs[job.id];
    EXPECT_EQ(job.outcome, JobOutcome::kCompleted) << job.id;
    EXPECT_EQ(job.workload, spec.model);
    EXPECT_EQ(job.requested_gpus, spec.scale_factor);
    const auto* extras = std::get_if<IntervalJobExtras>(&job.extras);
    ASSERT_NE(extras, nullptr) << job.id;
    EXPECT_EQ(extras->application, "job-" + std::to_string(job.id));
    EXPECT_GT(job.jct_s, 0.0);
    EXPECT_GT(job.exclusive_time_s, 0.0);
    EXPECT_TRUE(std::isfinite(job.ftf_rho));
    if (spec.mode == AdaptationMode::kStatic) {
      EXPECT_LE(job.final_batch_size, spec.initial_batch_size) << job.id;  // fixed batch
    }
  }
  EXPECT_GT(result.summary.makespan_s, 0.0);
  EXPECT_GT(result.summary.worst_ftf_rho, 0.0);
  ASSERT_FALSE(rounds.empty());
  ASSERT_EQ(rounds.size(), result.rounds.size());
  bool grew = false;  // Pollux gives some job more GPUs than it asked for
  for (const RoundResult& round : rounds) {
    std::set<int> workers;
    for (std::size_t k = 0; k < round.running_job_ids.size(); ++k) {
      const int id = round.running_job_ids[k];
      const auto& ids = round.worker_ids[k];
      if (trace.jobs[id].model == "Recommendation") {
        EXPECT_LE(ids.size(), 1u);
      }
      grew = grew || static_cast<int>(ids.size()) > trace.jobs[id].scale_factor;
      for (int w : ids) {
        EXPECT_TRUE(w >= 0 && w < 8) << w;
        EXPECT_TRUE(workers.insert(w).second) << "GPU " << w << " given twice";
      }
    }
    EXPECT_LE(round.busy_gpus, 8);
  }
  EXPECT_TRUE(grew);
}

TEST_F(PolluxTraceRunTest, DeterministicForASeed) {
  const SimulationResult a = RunTask(Task(3));
  const SimulationResult b = RunTask(Task(3));
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].jct_s, b.jobs[i].jct_s);
    EXPECT_EQ(a.jobs[i].final_batch_size, b.jobs[i].final_batch_size);
  }
  ASSERT_EQ(a.rounds.size(), b.rounds.size());
  for (std::size_t r = 0; r < a.rounds.size(); ++r) {
    EXPECT_EQ(a.rounds[r].running_job_ids, b.rounds[r].running_job_ids);
    EXPECT_EQ(a.rounds[r].worker_ids, b.rounds[r].worker_ids);
  }
}

// The calibration of the model: a static job run alone at its trace configuration (B0 on sf
// GPUs) takes its Shockwave exclusive time (plus the one restart delay the engine charges).
TEST_F(PolluxTraceRunTest, StaticJobAloneTakesItsShockwaveExclusiveTime) {
  const Trace trace = ReadTrace(path_);
  const Catalogue catalogue = LoadPolluxTraceCatalogue(kCatalogue);
  PolluxApplications apps("");
  const PolluxTraceInputs inputs = BuildPolluxTraceInputs(trace, catalogue, apps);
  for (int id : {0, 3, 6}) {  // static jobs with sf | B0
    const PolluxJobSpec& spec = inputs.workload.jobs[id];
    const double alone = PolluxExclusiveTime(spec, apps.Get(spec.application), 2, 30.0);
    EXPECT_NEAR(alone, inputs.exclusive_time_s[id] + 30.0, 1e-6 * alone) << id;
  }
  // The true step time is the catalogue's model.
  const PolluxApplication& app = apps.Get("job-1");
  const CatalogueModel* model = catalogue.Find("ResNet-18");
  const auto params = models::PolluxPerfParams::FromArray(model->perf_params);
  const StepTimes t = app.Throughput({2, 1}, 24);
  EXPECT_DOUBLE_EQ(t.step_time_s, models::OptimTime(params, 2, 3, 24));
  EXPECT_NEAR(t.step_time_s - t.sync_time_s, models::GradTime(params, 24), 1e-12);
  EXPECT_EQ(app.max_replicas(), 0);
  EXPECT_EQ(apps.Get("job-3").max_replicas(), 1);  // Recommendation
}

// A throughputs JSON is fitted on the fly to the built-in catalogue's parameters, and T_excl then
// comes from the table (the round engine's ρ denominators).
TEST_F(PolluxTraceRunTest, ThroughputTableIsFittedLikeTheBuiltInCatalogue) {
  ADAPTSIM_REQUIRE_DATA();
  const std::string json = testing::TaccThroughputsPath();
  const Catalogue fitted = LoadPolluxTraceCatalogue(json);
  const Catalogue builtin = LoadPolluxTraceCatalogue(kCatalogue);
  EXPECT_EQ(fitted.gpus_per_node, builtin.gpus_per_node);
  ASSERT_EQ(fitted.models.size(), builtin.models.size());
  for (const CatalogueModel& model : builtin.models) {
    const CatalogueModel* other = fitted.Find(model.info.name);
    ASSERT_NE(other, nullptr) << model.info.name;
    for (std::size_t k = 0; k < 7; ++k) {
      EXPECT_NEAR(other->perf_params[k], model.perf_params[k], 1e-6 * model.perf_params[k] + 1e-12)
          << model.info.name << " " << k;
    }
  }
  const Trace trace = ReadTrace(path_);
  const auto table = models::LoadThroughputSource(json);
  PolluxApplications apps("");
  const PolluxTraceInputs inputs = BuildPolluxTraceInputs(trace, builtin, apps, table.get());
  for (const JobSpec& job : trace.jobs) {
    EXPECT_DOUBLE_EQ(inputs.exclusive_time_s[job.id],
                     BuildProfile(job, *table, path_).exclusive_time_s);
  }
}

TEST_F(PolluxTraceRunTest, BadInputsAreInputErrors) {
  TaskConfig task = Task(0);
  task.throughputs_path = path_ + ".missing.toml";
  EXPECT_THROW(RunTask(task), InputError);
  std::ofstream(path_, std::ios::app) << "Unknown (batch size 32)\tcmd\tdir\t--steps\t1\t10\t1\t"
                                         "static\t1\t-1.000000\t100\t500\n";
  try {
    RunTask(Task(0));
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path_);
    EXPECT_EQ(error.line(), 8);
  }
}

TEST(PolluxCanonicalSweepTest, SpecListsThreeSeedsOfPollux) {
  ADAPTSIM_REQUIRE_DATA();
  const SweepSpec spec =
      LoadSweepSpec(std::string(ADAPTSIM_SOURCE_DIR) + "/experiments/pollux_canonical.toml");
  const std::vector<TaskConfig> tasks = ExpandSweep(spec);
  ASSERT_EQ(tasks.size(), 3u);
  for (const TaskConfig& task : tasks) {
    EXPECT_EQ(task.policy, "pollux");
    EXPECT_EQ(task.simulation.num_gpus, 32);
    EXPECT_FALSE(task.throughputs_hash.empty());
  }
}

}  // namespace
}  // namespace adaptsim
