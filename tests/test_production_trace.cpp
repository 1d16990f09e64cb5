// The rule that turns logged production jobs into simulated ones: determinism, the GPU-time
// buckets, the mode mix, and the duration invariant checked by running the round engine.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/gavel.hpp"
#include "adaptsim/production_trace.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/trace.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {
namespace {

namespace fs = std::filesystem;

const std::string kCatalogue = std::string(ADAPTSIM_SOURCE_DIR) + "/data/catalog/v100.toml";

// A Philly-format log of `n` jobs whose durations and GPU counts cover every bucket: durations
// 90 s … ~150 h, GPU counts cycling through 1, 2, 4, 8, arrivals every 37 s.
class SyntheticLog {
 public:
  explicit SyntheticLog(int n) {
    path_ = (fs::temp_directory_path() /
             ("adaptsim_production_trace_" + std::to_string(::getpid()) + ".csv"))
                .string();
    std::ofstream out(path_);
    out << "timestamp,duration,num_gpus,gpu_time,cluster\n";
    const int gpus[] = {1, 2, 4, 8};
    for (int i = 0; i < n; ++i) {
      const long long duration = 90 + static_cast<long long>(std::pow(1.13, i % 80)) * 60;
      const int g = gpus[i % 4];
      const int seconds = 37 * i;
      char timestamp[32];
      std::snprintf(timestamp, sizeof(timestamp), "2017-10-09 %02d:%02d:%02d", seconds / 3600,
                    seconds / 60 % 60, seconds % 60);
      out << timestamp << "," << duration << ".0," << g << "," << duration * g << ".0,vc\n";
    }
  }
  ~SyntheticLog() { fs::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct Fixture {
  models::CatalogueThroughput throughputs = models::CatalogueThroughput::Read(kCatalogue);
  std::vector<ModelInfo> models = throughputs.catalogue().WorkloadModels();
};

std::string TraceText(const Trace& trace) {
  std::ostringstream out;
  WriteTrace(out, trace);
  return out.str();
}

TEST(ProductionTrace, SameSeedGivesTheSameTraceBitForBitAndOtherSeedsDiffer) {
  Fixture f;
  SyntheticLog file(400);
  ProductionLog log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly);
  ProductionTraceOptions options;
  options.seed = 7;
  ProductionTrace a = BuildProductionTrace(log, options, f.models, f.throughputs);
  ProductionTrace b = BuildProductionTrace(log, options, f.models, f.throughputs);
  ASSERT_EQ(a.trace.jobs.size(), 400u);
  EXPECT_EQ(TraceText(a.trace), TraceText(b.trace));
  options.seed = 8;
  ProductionTrace c = BuildProductionTrace(log, options, f.models, f.throughputs);
  ASSERT_EQ(c.trace.jobs.size(), a.trace.jobs.size());
  int differing = 0;
  for (std::size_t i = 0; i < a.trace.jobs.size(); ++i) {
    const JobSpec &x = a.trace.jobs[i], &y = c.trace.jobs[i];
    if (x.model != y.model || x.initial_batch_size != y.initial_batch_size || x.mode != y.mode) {
      ++differing;
    }
    // What the log fixes does not depend on the seed.
    EXPECT_EQ(x.arrival_time_s, y.arrival_time_s);
    EXPECT_EQ(x.scale_factor, y.scale_factor);
    EXPECT_EQ(x.trace_duration_s, y.trace_duration_s);
  }
  EXPECT_GT(differing, 100);
}

TEST(ProductionTrace, ModelsComeFromTheJobsGpuTimeBucketAndStepsMatchTheDuration) {
  Fixture f;
  SyntheticLog file(400);
  ProductionLog log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly);
  ProductionTraceOptions options;
  ProductionTrace result = BuildProductionTrace(log, options, f.models, f.throughputs);
  ASSERT_EQ(result.trace.jobs.size(), log.jobs.size());
  std::set<std::string> seen;
  for (std::size_t i = 0; i < log.jobs.size(); ++i) {
    const LoggedJob& logged = log.jobs[i];
    const JobSpec& job = result.trace.jobs[i];
    EXPECT_EQ(result.source_lines[i], logged.line);
    EXPECT_EQ(job.scale_factor, logged.num_gpus);
    EXPECT_EQ(job.arrival_time_s, logged.arrival_time_s);
    // Bounds of Pollux's workload.py:31-45 in GPU-hours, written out here.
    const double h = logged.gpu_time_s / 3600;
    const std::size_t bucket = h < 1 ? 0 : h < 10 ? 1 : h < 100 ? 2 : 3;
    const auto& allowed = options.buckets[bucket].models;
    EXPECT_NE(std::find(allowed.begin(), allowed.end(), job.model), allowed.end())
        << job.model << " for " << h << " GPU-h";
    seen.insert(job.model);
    // Run alone at its isolated throughput, the job takes its logged duration (less < 1 step).
    const double thr =
        *f.throughputs.ThroughputStepsPerS(job.model, job.initial_batch_size, job.scale_factor);
    const double run_s = static_cast<double>(job.total_steps) / thr;
    EXPECT_LE(run_s, logged.duration_s);
    EXPECT_GT(run_s, logged.duration_s - 1.0 / thr);
  }
  EXPECT_EQ(seen.size(), 5u);  // every catalogue model is reachable by the default buckets
}

TEST(ProductionTrace, ModeMixAndUserMappingAreFollowed) {
  Fixture f;
  SyntheticLog file(200);
  ProductionLog log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly);
  ProductionTraceOptions options;
  options.mode_mix = {0.0, 1.0, 0.0};
  options.buckets = {{std::numeric_limits<double>::infinity(), {"Transformer"}}};
  ProductionTrace result = BuildProductionTrace(log, options, f.models, f.throughputs);
  for (std::size_t i = 0; i < log.jobs.size(); ++i) {
    const JobSpec& job = result.trace.jobs[i];
    EXPECT_EQ(job.model, "Transformer");
    EXPECT_EQ(job.mode, log.jobs[i].duration_s < options.accordion_min_duration_s
                            ? AdaptationMode::kStatic
                            : AdaptationMode::kAccordion);
  }
  options.mode_mix = {0.5, 0.0, 0.5};
  result = BuildProductionTrace(log, options, f.models, f.throughputs);
  int gns = 0;
  for (const JobSpec& job : result.trace.jobs) {
    EXPECT_NE(job.mode, AdaptationMode::kAccordion);
    gns += job.mode == AdaptationMode::kGns;
  }
  EXPECT_GT(gns, 60);  // Binomial(200, 0.5): 60 is more than 5.6 standard deviations below
  EXPECT_LT(gns, 140);
}

TEST(ProductionTrace, UnsupportedGpuCountsFailWithTheLogLineOrAreCounted) {
  Fixture f;
  const std::string path = (fs::temp_directory_path() /
                            ("adaptsim_production_12_" + std::to_string(::getpid()) + ".csv"))
                               .string();
  std::ofstream(path) << "timestamp,duration,num_gpus,gpu_time,cluster\n"
                         "2017-10-09 07:00:00,600.0,1,600.0,a\n"
                         "2017-10-09 07:00:01,600.0,12,7200.0,a\n";
  ProductionLog log = ReadProductionLog(path, ProductionLogFormat::kPhilly);
  fs::remove(path);
  ProductionTraceOptions options;
  try {
    BuildProductionTrace(log, options, f.models, f.throughputs);
    ADD_FAILURE() << "no InputError for a 12-GPU job";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path);
    EXPECT_EQ(error.line(), 3);
    EXPECT_EQ(error.field(), "num_gpus");
  }
  options.skip_unsupported = true;
  ProductionTrace result = BuildProductionTrace(log, options, f.models, f.throughputs);
  EXPECT_EQ(result.skipped_unsupported, 1);
  ASSERT_EQ(result.trace.jobs.size(), 1u);
  EXPECT_EQ(result.source_lines[0], 2);
  options.buckets = {{1.0, {"ResNet-18"}}, {10.0, {"NoSuchModel"}}};
  EXPECT_THROW(BuildProductionTrace(log, options, f.models, f.throughputs), InputError);
}

// The duration invariant through the engine: each job alone on a cluster of its logged GPU count
// under FIFO finishes within one round of its logged duration.
TEST(ProductionTrace, AJobRunAloneFinishesInItsLoggedDurationWithinOneRound) {
  Fixture f;
  SyntheticLog file(40);
  ProductionLog log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly);
  ProductionTraceOptions options;
  options.mode_mix = {1.0, 0.0, 0.0};  // static: the batch size, hence throughput, stays fixed
  ProductionTrace result = BuildProductionTrace(log, options, f.models, f.throughputs);
  SimulationOptions engine;
  for (std::size_t i = 0; i < result.trace.jobs.size(); i += 3) {
    Trace one;
    one.jobs = {result.trace.jobs[i]};
    one.jobs[0].id = 0;
    one.jobs[0].arrival_time_s = 0;
    engine.num_gpus = one.jobs[0].scale_factor;
    auto scheduler = MakeRoundScheduler(MakePolicy("fifo", nlohmann::json::object()), engine);
    SimulationResult run = Simulate(one, f.throughputs, *scheduler, engine);
    ASSERT_EQ(run.jobs.size(), 1u);
    EXPECT_NEAR(run.jobs[0].jct_s, log.jobs[i].duration_s, engine.round_duration_s)
        << one.jobs[0].model << " on " << one.jobs[0].scale_factor << " GPUs";
  }
}

// After an idle gap the reference leaves the round start stale (quirk Q4), so a logged job that
// arrives on an idle cluster is charged the whole gap as run time: it pays the restart overhead
// and is forced out by the deadline rule with work left. With idle_round_start = arrival the same
// job runs as if alone: completed, within one round of its logged duration.
TEST(ProductionTrace, AJobArrivingOnAnIdleClusterRunsAsAloneWithArrivalRoundStart) {
  Fixture f;
  SyntheticLog file(40);
  ProductionLog log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly);
  ProductionTraceOptions options;
  options.mode_mix = {1.0, 0.0, 0.0};
  ProductionTrace result = BuildProductionTrace(log, options, f.models, f.throughputs);
  for (std::size_t i = 0; i < result.trace.jobs.size(); i += 5) {
    if (log.jobs[i].duration_s > 300) continue;  // short jobs: the gap dominates their run time
    Trace two;
    two.jobs = {result.trace.jobs[i], result.trace.jobs[i]};
    two.jobs[0].id = 0;
    two.jobs[0].arrival_time_s = 0;
    two.jobs[1].id = 1;
    two.jobs[1].arrival_time_s = 10000;  // long after job 0 finished: the cluster idles
    SimulationOptions engine;
    engine.num_gpus = two.jobs[0].scale_factor;
    std::map<IdleRoundStart, SimulationResult> runs;
    for (IdleRoundStart idle : {IdleRoundStart::kReference, IdleRoundStart::kArrival}) {
      engine.idle_round_start = idle;
      auto scheduler = MakeRoundScheduler(MakePolicy("fifo", nlohmann::json::object()), engine);
      runs[idle] = Simulate(two, f.throughputs, *scheduler, engine);
      ASSERT_EQ(runs[idle].jobs.size(), 2u);
    }
    const JobResult& stale = runs[IdleRoundStart::kReference].jobs[1];
    const JobResult& fixed = runs[IdleRoundStart::kArrival].jobs[1];
    EXPECT_EQ(stale.outcome, JobOutcome::kDeadline) << two.jobs[1].model;
    EXPECT_EQ(fixed.outcome, JobOutcome::kCompleted) << two.jobs[1].model;
    EXPECT_NEAR(fixed.jct_s, log.jobs[i].duration_s, engine.round_duration_s);
    // The job before the gap is the same under both.
    EXPECT_EQ(runs[IdleRoundStart::kReference].jobs[0].jct_s,
              runs[IdleRoundStart::kArrival].jobs[0].jct_s);
  }
}

// A job that arrives on an idle cluster less than the reset interval after the last re-solve has
// no allocation under the Gavel baselines (docs/mechanism.md §7.4). With no arrival pending the
// reference cannot go on; adaptsim runs empty rounds until the gate opens, in both modes.
TEST(ProductionTrace, AWaitingJobWithNoArrivalPendingRunsOnceTheResetGateOpens) {
  Fixture f;
  SyntheticLog file(8);
  ProductionLog log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly);
  ProductionTraceOptions options;
  options.mode_mix = {1.0, 0.0, 0.0};
  ProductionTrace result = BuildProductionTrace(log, options, f.models, f.throughputs);
  Trace three;
  three.jobs = {result.trace.jobs[0], result.trace.jobs[1], result.trace.jobs[2]};
  const double arrivals[] = {0.0, 100.0, 700.0};  // job 2 arrives after 0 and 1 have finished
  for (int i = 0; i < 3; ++i) {
    three.jobs[i].id = i;
    three.jobs[i].arrival_time_s = arrivals[i];
  }
  SimulationOptions engine;
  engine.num_gpus = 8;
  for (IdleRoundStart idle : {IdleRoundStart::kReference, IdleRoundStart::kArrival}) {
    engine.idle_round_start = idle;
    auto scheduler = MakeRoundScheduler(MakePolicy("fifo", nlohmann::json::object()), engine);
    SimulationResult run = Simulate(three, f.throughputs, *scheduler, engine);
    ASSERT_EQ(run.status, TaskStatus::kOk) << run.message;
    ASSERT_LT(run.jobs[1].completion_time_s, arrivals[2]);  // the cluster idles at 700 s
    EXPECT_EQ(run.jobs[2].outcome, JobOutcome::kCompleted);
    // The last re-solve was at the round boundary after job 1 arrived (120 s): job 2 waits for
    // 120 + 1000 s, then runs for its logged duration (within the round granularity).
    const double gate_s = 120.0 + engine.allocation_reset_interval_s;
    EXPECT_GE(run.jobs[2].completion_time_s, gate_s);
    EXPECT_NEAR(run.jobs[2].completion_time_s - gate_s, log.jobs[2].duration_s,
                2 * engine.round_duration_s);
  }
}

TEST(ProductionPolluxWorkload, ApplicationsFollowTheArtifactsGpuTimeBucketsAndTheSeed) {
  ADAPTSIM_REQUIRE_DATA();
  PolluxApplications applications(DataPath("pollux/traces"));
  SyntheticLog file(400);
  ProductionLog log = ReadProductionLog(file.path(), ProductionLogFormat::kPhilly);
  PolluxWorkload a = BuildPolluxWorkloadFromLog(log, 3, applications);
  PolluxWorkload b = BuildPolluxWorkloadFromLog(log, 3, applications);
  PolluxWorkload c = BuildPolluxWorkloadFromLog(log, 4, applications);
  ASSERT_EQ(a.jobs.size(), log.jobs.size());
  std::map<int, std::set<std::string>> seen;  // bucket -> applications
  int differing = 0;
  std::set<std::string> names;
  for (std::size_t i = 0; i < log.jobs.size(); ++i) {
    const PolluxJobSpec& job = a.jobs[i];
    EXPECT_EQ(job.name, b.jobs[i].name);
    EXPECT_EQ(job.batch_size, b.jobs[i].batch_size);
    differing += job.application != c.jobs[i].application;
    names.insert(job.name);
    // Bounds and applications of Pollux's workload.py:31-53, written out here.
    const double h = log.jobs[i].gpu_time_s / 3600;
    const int bucket = h < 1 ? 0 : h < 10 ? 1 : h < 100 ? 2 : 3;
    seen[bucket].insert(job.application);
    EXPECT_EQ(job.submission_time_s, log.jobs[i].arrival_time_s);
    EXPECT_EQ(job.num_replicas, log.jobs[i].num_gpus);
    const PolluxApplication& app = applications.Get(job.application);
    EXPECT_EQ(job.batch_size,
              std::min(app.init_batch_size() * job.num_replicas, app.max_batch_size()));
    EXPECT_EQ(job.name, job.application + "-" + std::to_string(i));
  }
  EXPECT_EQ(names.size(), a.jobs.size());
  EXPECT_EQ(seen[0], (std::set<std::string>{"cifar10", "ncf"}));
  EXPECT_EQ(seen[1], (std::set<std::string>{"bert", "deepspeech2"}));
  EXPECT_EQ(seen[2], (std::set<std::string>{"yolov3"}));
  EXPECT_EQ(seen[3], (std::set<std::string>{"imagenet"}));
  EXPECT_GT(differing, 0);
}

TEST(ProductionTrace, PhillyDayBecomesADeterministicTrace) {
  ADAPTSIM_REQUIRE_DATA();
  const std::string path = DataPath("production/philly/philly.csv");
  if (!fs::exists(path)) GTEST_SKIP() << "production logs not found under the data folder";
  Fixture f;
  ProductionLogOptions select;
  select.window_start = "2017-10-09 00:00:00";
  select.window_length_s = 86400;
  select.pollux_filter = true;
  select.cluster_gpus = 64;
  select.skip_unsimulable = true;
  ProductionLog log = ReadProductionLog(path, ProductionLogFormat::kPhilly, select);
  ProductionTraceOptions options;
  options.skip_unsupported = true;  // 12-, 16-, 24-, 32-GPU jobs have no trace scale factor
  ProductionTrace a = BuildProductionTrace(log, options, f.models, f.throughputs);
  ProductionTrace b = BuildProductionTrace(log, options, f.models, f.throughputs);
  EXPECT_EQ(TraceText(a.trace), TraceText(b.trace));
  std::int64_t unsupported = 0;
  for (const LoggedJob& job : log.jobs) {
    const int g = job.num_gpus;
    unsupported += !(g == 1 || g == 2 || g == 4 || g == 8);
  }
  EXPECT_EQ(a.skipped_unsupported, unsupported);
  EXPECT_EQ(static_cast<std::int64_t>(a.trace.jobs.size()) + unsupported + a.skipped_no_work,
            log.stats.selected);
  // The written trace reads back as a valid .trace.
  std::istringstream in(TraceText(a.trace));
  EXPECT_EQ(ParseTrace(in, "philly-day.trace").jobs.size(), a.trace.jobs.size());
}

}  // namespace
}  // namespace adaptsim::testing
