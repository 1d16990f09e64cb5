// Production logs as tasks: the production part of TaskConfig (its JSON and the task id), the
// sweep spec's [production] table (expansion and bad input naming file, line and field), and a
// task run on a small log with its input statistics.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "adaptsim/config_field.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/production_source.hpp"
#include "adaptsim/sweep.hpp"
#include "adaptsim/task.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

TaskConfig ProductionTask() {
  TaskConfig task;
  task.trace_path = "/data/philly.csv";
  task.throughputs_path = "/data/v100.toml";
  task.policy = "fifo";
  task.simulation.num_gpus = 8;
  task.production = ProductionSource{};
  return task;
}

TEST(ProductionTaskConfig, IdChangesWithEveryProductionOption) {
  std::vector<std::function<void(ProductionSource&)>> changes = {
      [](ProductionSource& p) { p.format = ProductionLogFormat::kItp; },
      [](ProductionSource& p) { p.select.window_start = "2017-10-09 00:00:00"; },
      [](ProductionSource& p) { p.select.window_start_s = 60; },
      [](ProductionSource& p) { p.select.window_length_s = 86400; },
      [](ProductionSource& p) { p.select.virtual_clusters = {"a"}; },
      [](ProductionSource& p) { p.select.min_duration_s = 10; },
      [](ProductionSource& p) { p.select.pollux_filter = true; },
      [](ProductionSource& p) { p.select.skip_unsimulable = true; },
      [](ProductionSource& p) { p.rule.seed = 1; },
      [](ProductionSource& p) { p.rule.buckets.front().models = {"ResNet-18"}; },
      [](ProductionSource& p) { p.rule.buckets.front().max_gpu_time_h = 2; },
      [](ProductionSource& p) {
        p.rule.mode_mix = {1.0, 0.0, 0.0};
      },
      [](ProductionSource& p) { p.rule.accordion_min_duration_s = 0; },
      [](ProductionSource& p) { p.select.sample_jobs = 160; },
      [](ProductionSource& p) {
        p.select.sample_jobs = 160;
        p.select.sample_start_hour = 3;
      },
      [](ProductionSource& p) {
        p.select.sample_jobs = 160;
        p.select.sample_hours = 24;
      },
  };
  TaskConfig plain = ProductionTask();
  plain.production.reset();
  std::set<std::string> ids = {ProductionTask().Id(), plain.Id()};
  for (const auto& change : changes) {
    TaskConfig task = ProductionTask();
    change(*task.production);
    EXPECT_TRUE(ids.insert(task.Id()).second) << task.ToJson().dump();
  }
  // The cluster is num_gpus; the ignored copies in the option structs do not enter the id.
  TaskConfig ignored = ProductionTask();
  ignored.production->select.cluster_gpus = 99;
  ignored.production->rule.skip_unsupported = true;
  // Without a sample its hours are not written: ids from before the option are unchanged.
  ignored.production->select.sample_start_hour = 5;
  ignored.production->select.sample_seed = 7;  // the model seed keys the sample
  EXPECT_EQ(ignored.Id(), ProductionTask().Id());
  EXPECT_FALSE(ProductionTask().ToJson()["production"].contains("sample_jobs"));
}

// The option list drives the JSON: every declared key is a key FromJson accepts, ToJson writes
// every key but the sample's (off by default), and docs/production.md's table names each flag and
// key (one row per option).
TEST(ProductionTaskConfig, TheDeclaredOptionsAreTheJsonKeysAndTheDocsTable) {
  std::ifstream docs_file(std::string(ADAPTSIM_SOURCE_DIR) + "/docs/production.md");
  ASSERT_TRUE(docs_file.good());
  std::stringstream docs;
  docs << docs_file.rdbuf();
  const nlohmann::json written = ProductionSource{}.ToJson();
  std::set<std::string> declared;
  const ProductionSource defaults;
  VisitProductionSourceFields(defaults, [&](const ConfigField& field, const auto&) {
    const std::string key(field.key);
    declared.insert(key);
    EXPECT_EQ(written.contains(key), field.written_with.empty() && key != "sample_jobs") << key;
    EXPECT_NE(docs.str().find("`" + key), std::string::npos) << key;
    EXPECT_NE(docs.str().find("`" + FlagName(field)), std::string::npos) << FlagName(field);
  });
  EXPECT_EQ(declared,
            std::set<std::string>(ProductionSourceKeys().begin(), ProductionSourceKeys().end()));
  // A sample's hours without the sample are refused, naming the sample.
  nlohmann::json hours = written;
  hours["sample_hours"] = 4;
  try {
    ProductionSource::FromJson(hours, "t.json");
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "production.sample_jobs") << error.what();
  }
  hours["sample_jobs"] = 10;
  nlohmann::json expected = hours;  // with the sample on, its three keys are written
  expected["sample_start_hour"] = ProductionLogOptions{}.sample_start_hour;
  EXPECT_EQ(ProductionSource::FromJson(hours, "t.json").ToJson(), expected);
}

TEST(ProductionTaskConfig, TasksWithoutALogHaveNoProductionKey) {
  TaskConfig task = ProductionTask();
  task.production.reset();
  EXPECT_FALSE(task.ToJson().contains("production"));
  EXPECT_TRUE(ProductionTask().ToJson().contains("production"));
}

TEST(ProductionTaskConfig, FromJsonInvertsToJson) {
  TaskConfig task = ProductionTask();
  ProductionSource& p = *task.production;
  p.format = ProductionLogFormat::kPhilly;
  p.select.window_start = "2017-10-09 00:00:00";
  p.select.window_length_s = 3600;
  p.select.virtual_clusters = {"a", "b"};
  p.select.pollux_filter = true;
  p.select.skip_unsimulable = true;
  p.rule.seed = 42;
  p.rule.buckets = {{5.0, {"ResNet-18"}}, {INFINITY, {"ResNet-50", "LM"}}};
  p.rule.mode_mix = {0.2, 0.3, 0.5};
  TaskConfig back = TaskConfig::FromJson(nlohmann::json::parse(task.ToJson().dump()));
  EXPECT_EQ(back.ToJson(), task.ToJson());
  EXPECT_EQ(back.Id(), task.Id());
  ASSERT_TRUE(back.production.has_value());
  EXPECT_TRUE(std::isinf(back.production->rule.buckets.back().max_gpu_time_h));
  EXPECT_TRUE(back.production->TraceOptions().skip_unsupported);
  EXPECT_EQ(back.production->LogOptions(16).cluster_gpus, 16);
}

TEST(ProductionTaskConfig, FromJsonNamesTheBadField) {
  const nlohmann::json good = ProductionTask().ToJson();
  struct Case {
    const char* key;
    nlohmann::json value;
  };
  std::vector<Case> cases = {
      {"format", "csv"},
      {"window_start", "2017-13-01 00:00:00"},
      {"window_length_s", -1},
      {"virtual_clusters", "a"},
      {"pollux_filter", 1},
      {"model_seed", -3},
      {"mapping", nlohmann::json::array()},
      {"mapping", {{{"max_gpu_time_h", 1}, {"models", {"ResNet-18"}}}}},  // last bound not inf
      {"mode_mix", {0.5, 0.5}},
      {"mode_mix", {0.5, 0.6, 0.0}},
      {"accordion_min_duration_s", -5},
      {"colour", "red"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.key);
    nlohmann::json bad = good;
    bad["production"][c.key] = c.value;
    try {
      TaskConfig::FromJson(bad, "task.json");
      ADD_FAILURE() << "no InputError for " << bad["production"].dump();
    } catch (const InputError& error) {
      EXPECT_EQ(error.file(), "task.json");
      EXPECT_EQ(error.field(), std::string("production.") + c.key) << error.what();
    }
  }
  nlohmann::json missing = good;
  missing["production"].erase("model_seed");
  EXPECT_THROW(TaskConfig::FromJson(missing, "task.json"), InputError);
}

/// A temporary folder with a small Philly log (5 rows) and a throughputs file.
class ProductionSpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("adaptsim_production_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::ofstream(dir_ / "philly.csv") << "timestamp,duration,num_gpus,gpu_time,cluster\n"
                                          "2017-10-09 00:00:00,600,1,600,a\n"
                                          "2017-10-09 00:10:00,1200,2,2400,b\n"
                                          "2017-10-09 00:20:00,30,1,30,a\n"
                                          "2017-10-09 00:30:00,900,4,3600,a\n"
                                          "2017-10-10 00:00:00,600,16,9600,b\n";
    std::ofstream(dir_ / "bad.csv") << "timestamp,duration,num_gpus,gpu_time,cluster\n"
                                       "2017-10-09 00:00:00,600,1,600,a\n"
                                       "2017-10-09 00:10:00,1200,two,2400,b\n";
    std::ofstream(dir_ / "t.json") << "{}";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string WriteSpec(const std::string& text) {
    std::string path = (dir_ / "spec.toml").string();
    std::ofstream(path) << text;
    return path;
  }

  fs::path dir_;
};

// Lines 1-6; a [production] table follows from line 7.
const char kSpecHeader[] =
    "name = \"p\"\n"
    "traces = \"philly.csv\"\n"
    "throughputs = \"t.json\"\n"
    "policies = [\"fifo\", \"max_min_fairness\"]\n"
    "num_gpus = 8\n"
    "\n";

TEST_F(ProductionSpecTest, ExpandsProductionOptionsAsDimensions) {
  SweepSpec spec =
      LoadSweepSpec(WriteSpec(std::string(kSpecHeader) + "[production]\n"
                                                         "format = \"philly\"\n"
                                                         "skip_unsimulable = true\n"
                                                         "model_seed = [0, 1, 2]\n"
                                                         "virtual_clusters = [\"a\", \"b\"]\n"
                                                         "mode_mix = [[0.0, 0.5, 0.5]]\n"));
  std::vector<TaskConfig> tasks = ExpandSweep(spec);
  ASSERT_EQ(tasks.size(), 2u * 3u * 2u);
  std::set<std::string> ids;
  std::set<std::uint64_t> seeds;
  for (const TaskConfig& task : tasks) {
    ASSERT_TRUE(task.production.has_value());
    EXPECT_EQ(task.production->format, ProductionLogFormat::kPhilly);
    EXPECT_TRUE(task.production->select.skip_unsimulable);
    ASSERT_EQ(task.production->select.virtual_clusters.size(), 1u);
    seeds.insert(task.production->rule.seed);
    ids.insert(task.Id());
  }
  EXPECT_EQ(seeds, (std::set<std::uint64_t>{0, 1, 2}));
  EXPECT_EQ(ids.size(), tasks.size());
  // The expected cost counts the jobs the selection keeps: cluster a has 3 of the 4 jobs that
  // fit 8 GPUs, b one.
  double a = 0, b = 0;
  for (const TaskConfig& task : tasks) {
    (task.production->select.virtual_clusters[0] == "a" ? a : b) = ExpectedCost(spec, task);
  }
  EXPECT_GT(a, b);
}

TEST_F(ProductionSpecTest, BadProductionTablesNameFileLineAndField) {
  struct Case {
    const char* label;
    std::string production;  // the [production] table's lines, from line 8
    std::string file;        // "" = the spec
    int line;
    std::string field;
  };
  const std::string philly = "format = \"philly\"\n";  // line 8
  std::vector<Case> cases = {
      {"no format", "model_seed = 1\n", "", 8, "production.model_seed"},
      {"unknown format", "format = \"csv\"\n", "", 8, "production.format"},
      {"unknown key", philly + "colour = 1\n", "", 9, "production.colour"},
      {"negative model seed", philly + "model_seed = [0, -1]\n", "", 9, "production.model_seed"},
      {"malformed window start", philly + "window_start = \"2017-10-09\"\n", "", 9,
       "production.window_start"},
      {"wall-clock start for an ITP log",
       "format = \"itp\"\nwindow_start = \"2017-10-09 00:00:00\"\n", "", 9,
       "production.window_start"},
      {"unknown virtual cluster", philly + "skip_unsimulable = true\nvirtual_clusters = \"z\"\n",
       "", 10, "production.virtual_clusters"},
      {"mode mix not a list of lists", philly + "mode_mix = [0.0, 0.5, 0.5]\n", "", 9,
       "production.mode_mix"},
      {"mode mix not summing to 1", philly + "mode_mix = [[0.5, 0.5, 0.5]]\n", "", 9,
       "production.mode_mix"},
      {"mapping not a list of lists",
       philly + "mapping = [{max_gpu_time_h = inf, models = [\"ResNet-18\"]}]\n", "", 9,
       "production.mapping"},
      {"mapping without an infinite bound",
       philly + "mapping = [[{max_gpu_time_h = 1, models = [\"ResNet-18\"]}]]\n", "", 9,
       "production.mapping"},
      {"filter not a boolean", philly + "pollux_filter = \"yes\"\n", "", 9,
       "production.pollux_filter"},
      {"negative minimum duration", philly + "min_duration_s = -1\n", "", 9,
       "production.min_duration_s"},
      // Selected 16-GPU job on an 8-GPU cluster without skip_unsimulable: the log's line.
      {"job larger than the cluster", philly, "philly.csv", 6, "num_gpus"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    std::string path = WriteSpec(std::string(kSpecHeader) + "[production]\n" + c.production);
    try {
      LoadSweepSpec(path);
      ADD_FAILURE() << "no InputError";
    } catch (const InputError& error) {
      EXPECT_EQ(error.file(), c.file.empty() ? path : (dir_ / c.file).string()) << error.what();
      EXPECT_EQ(error.line(), c.line) << error.what();
      EXPECT_EQ(error.field(), c.field) << error.what();
    }
  }
}

TEST_F(ProductionSpecTest, ABadLogRowFailsTheSpecBeforeAnyTaskRuns) {
  std::string path = WriteSpec(
      "name = \"p\"\ntraces = \"bad.csv\"\nthroughputs = \"t.json\"\npolicies = \"fifo\"\n"
      "num_gpus = 8\n[production]\nformat = \"philly\"\n");
  try {
    LoadSweepSpec(path);
    FAIL() << "no InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), (dir_ / "bad.csv").string());
    EXPECT_EQ(error.line(), 3);
    EXPECT_EQ(error.field(), "num_gpus");
  }
}

TEST_F(ProductionSpecTest, TasksRecordTheirInputStatistics) {
  TaskConfig task;
  task.trace_path = (dir_ / "philly.csv").string();
  task.throughputs_path = std::string(ADAPTSIM_SOURCE_DIR) + "/data/catalog/v100.toml";
  task.policy = "fifo";
  task.simulation.num_gpus = 8;
  task.production = ProductionSource{};
  task.production->select.pollux_filter = true;
  task.production->select.skip_unsimulable = true;
  SimulationResult result = RunTask(task);
  ASSERT_EQ(result.status, TaskStatus::kOk) << result.message;
  const auto& s = result.input_statistics;
  EXPECT_EQ(s.at("rows_read"), 5);
  EXPECT_EQ(s.at("pollux_filtered"), 1);        // the 30 s job
  EXPECT_EQ(s.at("skipped_too_many_gpus"), 1);  // 16 GPUs on 8
  EXPECT_EQ(s.at("selected"), 3);
  EXPECT_EQ(s.at("simulated_jobs") + s.at("skipped_unsupported") + s.at("skipped_no_work"),
            s.at("selected"));
  EXPECT_EQ(s.at("simulated_jobs"), static_cast<std::int64_t>(result.jobs.size()));
  // Without skipping, the 16-GPU job is an error naming the log's line.
  task.production->select.skip_unsimulable = false;
  try {
    RunTask(task);
    FAIL() << "no InputError";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), task.trace_path);
    EXPECT_EQ(error.line(), 6);
  }
}

}  // namespace
}  // namespace adaptsim
