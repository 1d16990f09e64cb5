// Sweep specs: expansion order and the InputError of each kind of bad input (file, line, field).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/reproduce.hpp"
#include "adaptsim/sweep.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

/// A temporary folder with two (tiny) trace files and a throughputs file; spec files go there.
class SweepSpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("adaptsim_spec_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "traces");
    // Different bytes: task ids name inputs by content, so identical files would be one input.
    std::ofstream(dir_ / "traces/a.trace") << "a\n";
    std::ofstream(dir_ / "traces/b.trace") << "b\n";
    std::ofstream(dir_ / "t.json") << "{}";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string WriteSpec(const std::string& text) {
    std::string path = (dir_ / "spec.toml").string();
    std::ofstream(path) << text;
    return path;
  }

  /// Loads `text` and returns the InputError it must raise.
  InputError LoadError(const std::string& text) {
    std::string path = WriteSpec(text);
    try {
      LoadSweepSpec(path);
    } catch (const InputError& error) {
      EXPECT_EQ(error.file(), path);
      return error;
    }
    ADD_FAILURE() << "no InputError for:\n" << text;
    return InputError("", -1, "", "");
  }

  fs::path dir_;
};

const char kHeader[] =
    "name = \"t\"\n"                 // line 1
    "traces = \"traces/a.trace\"\n"  // line 2
    "throughputs = \"t.json\"\n";    // line 3

TEST_F(SweepSpecTest, ExpandsTheCartesianProductInOrder) {
  std::string path = WriteSpec(
      "name = \"grid\"\n"
      "traces = [\"traces/a.trace\", \"traces/b.trace\"]\n"
      "throughputs = \"t.json\"\n"
      "policies = [\"fifo\", \"max_min_fairness\"]\n"
      "num_gpus = [4, 8]\n"
      "seeds = [0, 1, 2]\n"
      "round_duration_s = 360\n"
      "deadline_factor = 1.25\n"
      "[policy_options.max_min_fairness]\n"
      "face_rule = \"fill\"\n");
  SweepSpec spec = LoadSweepSpec(path);
  EXPECT_EQ(spec.name, "grid");
  std::vector<TaskConfig> tasks = ExpandSweep(spec);
  ASSERT_EQ(tasks.size(), 24u);
  std::string a = (dir_ / "traces/a.trace").lexically_normal().string();
  std::string b = (dir_ / "traces/b.trace").lexically_normal().string();
  EXPECT_EQ(tasks[0].trace_path, a);
  EXPECT_EQ(tasks[0].throughputs_path, (dir_ / "t.json").lexically_normal().string());
  EXPECT_EQ(tasks[1].seed, 1u);                    // seeds innermost
  EXPECT_EQ(tasks[3].simulation.num_gpus, 8);      // then num_gpus
  EXPECT_EQ(tasks[6].policy, "max_min_fairness");  // then policies
  EXPECT_EQ(tasks[12].trace_path, b);              // traces outermost
  EXPECT_EQ(tasks[23].seed, 2u);
  EXPECT_EQ(tasks[5].simulation.round_duration_s, 360.0);
  EXPECT_EQ(tasks[5].simulation.deadline_factor, 1.25);
  EXPECT_TRUE(tasks[0].policy_options.empty());
  EXPECT_EQ(tasks[6].policy_options, nlohmann::json({{"face_rule", "fill"}}));
  std::set<std::string> ids;
  for (const TaskConfig& task : tasks) ids.insert(task.Id());
  EXPECT_EQ(ids.size(), tasks.size());
  EXPECT_EQ(ExpandSweep(LoadSweepSpec(path))[7].Id(), tasks[7].Id());  // deterministic
}

// The cluster of GPU types is one axis, given instead of num_gpus (docs/sweeps.md §1): each task
// gets the cluster's GPU count; a cluster of the default type alone is the task of num_gpus.
TEST_F(SweepSpecTest, ClusterIsAnAxisInsteadOfNumGpus) {
  const std::vector<TaskConfig> tasks = ExpandSweep(LoadSweepSpec(
      WriteSpec(std::string(kHeader) +
                "policies = \"gandiva_fair\"\ncluster = [\"v100=16,p100=8,k80=8\", \"2:1:1\"]\n")));
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0].simulation.num_gpus, 32);
  EXPECT_EQ(tasks[0].ToJson()["cluster"], "k80=8,p100=8,v100=16");
  EXPECT_EQ(tasks[1].simulation.num_gpus, 4);
  EXPECT_EQ(tasks[1].ToJson()["cluster"], "k80=1,p100=1,v100=2");
  const std::vector<TaskConfig> one_type = ExpandSweep(LoadSweepSpec(
      WriteSpec(std::string(kHeader) + "policies = \"fifo\"\ncluster = \"v100=32\"\n")));
  const std::vector<TaskConfig> plain = ExpandSweep(
      LoadSweepSpec(WriteSpec(std::string(kHeader) + "policies = \"fifo\"\nnum_gpus = 32\n")));
  ASSERT_EQ(one_type.size(), 1u);
  EXPECT_EQ(one_type[0].Id(), plain[0].Id());
  EXPECT_FALSE(one_type[0].ToJson().contains("cluster"));
}

// A bad cluster names the spec, the line and the field; so do a cluster beside num_gpus and
// neither of them.
TEST_F(SweepSpecTest, BadClusterNamesFileLineAndField) {
  const InputError bad = LoadError(std::string(kHeader) +
                                   "policies = \"fifo\"\n"                            // line 4
                                   "cluster = [\"v100=16\", \"v100=16,p100=x\"]\n");  // line 5
  EXPECT_EQ(bad.line(), 5) << bad.what();
  EXPECT_EQ(bad.field(), "cluster") << bad.what();
  EXPECT_NE(std::string(bad.what()).find("p100=x"), std::string::npos) << bad.what();
  const InputError both = LoadError(std::string(kHeader) +
                                    "policies = \"fifo\"\nnum_gpus = 32\n"  // lines 4, 5
                                    "cluster = \"16:8:8\"\n");              // line 6
  EXPECT_EQ(both.line(), 6) << both.what();
  EXPECT_EQ(both.field(), "cluster");
  EXPECT_NE(std::string(both.what()).find("not both"), std::string::npos) << both.what();
  const InputError neither = LoadError(std::string(kHeader) + "policies = \"fifo\"\n");
  EXPECT_EQ(neither.field(), "num_gpus");
  EXPECT_NE(std::string(neither.what()).find("cluster"), std::string::npos) << neither.what();
}

TEST_F(SweepSpecTest, ScalarsAndDefaults) {
  std::vector<TaskConfig> tasks = ExpandSweep(
      LoadSweepSpec(WriteSpec(std::string(kHeader) + "policies = \"fifo\"\nnum_gpus = 16\n")));
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].seed, 0u);
  EXPECT_EQ(tasks[0].simulation.num_gpus, 16);
  EXPECT_EQ(tasks[0].simulation.round_duration_s, SimulationOptions{}.round_duration_s);
}

TEST_F(SweepSpecTest, ExpandsEnvironmentVariablesInPaths) {
  ::setenv("ADAPTSIM_TEST_SPEC_DIR", dir_.c_str(), 1);
  SweepSpec spec = LoadSweepSpec(
      WriteSpec("name = \"t\"\ntraces = \"${ADAPTSIM_TEST_SPEC_DIR}/traces/b.trace\"\n"
                "throughputs = \"t.json\"\npolicies = [\"fifo\"]\nnum_gpus = [1]\n"));
  ::unsetenv("ADAPTSIM_TEST_SPEC_DIR");
  EXPECT_EQ(ExpandSweep(spec).at(0).trace_path,
            (dir_ / "traces/b.trace").lexically_normal().string());
  InputError error = LoadError(
      "name = \"t\"\ntraces = \"${ADAPTSIM_TEST_UNSET_VARIABLE}/a.trace\"\n"
      "throughputs = \"t.json\"\npolicies = [\"fifo\"]\nnum_gpus = [1]\n");
  EXPECT_EQ(error.line(), 2);
  EXPECT_EQ(error.field(), "traces");
}

struct BadCase {
  const char* label;
  std::string body;  // appended to kHeader (lines 1-3) unless `whole` is set
  int line;
  const char* field;
  bool whole = false;
};

TEST_F(SweepSpecTest, BadInputNamesFileLineAndField) {
  const std::string ok = "policies = [\"fifo\"]\nnum_gpus = [4]\n";  // lines 4-5
  std::vector<BadCase> cases = {
      {"unknown key", ok + "colour = \"red\"\n", 6, "colour"},
      {"wrong type", "policies = [\"fifo\"]\nnum_gpus = \"32\"\n", 5, "num_gpus"},
      {"wrong element type", "policies = [\"fifo\"]\nnum_gpus = [4, 8.5]\n", 5, "num_gpus"},
      {"empty list", "policies = []\nnum_gpus = [4]\n", 4, "policies"},
      {"unknown policy", "policies = [\"fifo\", \"nope\"]\nnum_gpus = [4]\n", 4, "policies"},
      {"negative gpus", "policies = [\"fifo\"]\nnum_gpus = [-4]\n", 5, "num_gpus"},
      {"negative seed", ok + "seeds = [1, -1]\n", 6, "seeds"},
      {"duplicate seed", ok + "seeds = [1, 1]\n", 6, "seeds"},
      {"zero round", ok + "round_duration_s = 0\n", 6, "round_duration_s"},
      {"deadline < 1", ok + "deadline_factor = 0.5\n", 6, "deadline_factor"},
      {"missing key", "policies = [\"fifo\"]\n", 0, "num_gpus"},
      {"options of unlisted policy", ok + "[policy_options.gandiva_fair]\nx = 1\n", 6,
       "policy_options.gandiva_fair"},
      {"unknown policy option", ok + "[policy_options.fifo]\n\nbogus = 1\n", 8,
       "policy_options.fifo.bogus"},
      // an option name with a dot would be split into another policy's option and ignored
      {"dotted option name", ok + "fifo.\"a.b\" = 1\n", 6, "fifo.a.b"},
      {"missing trace file",
       "name = \"t\"\ntraces = [\"traces/a.trace\", \"traces/missing.trace\"]\n"
       "throughputs = \"t.json\"\n" +
           ok,
       2, "traces", true},
      {"missing throughputs",
       "name = \"t\"\ntraces = \"traces/a.trace\"\nthroughputs = \"x.json\"\n" + ok, 3,
       "throughputs", true},
      {"malformed TOML", "name = \"t\"\ntraces = [\"traces/a.trace\"\n" + ok, 3, "", true},
      {"name not a string",
       "name = 3\ntraces = \"traces/a.trace\"\nthroughputs = \"t.json\"\n" + ok, 1, "name", true},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.label);
    InputError error = LoadError(c.whole ? c.body : std::string(kHeader) + c.body);
    EXPECT_EQ(error.line(), c.line) << error.what();
    EXPECT_EQ(error.field(), c.field) << error.what();
  }
}

TEST_F(SweepSpecTest, MissingSpecFileIsAnInputError) {
  std::string path = (dir_ / "absent.toml").string();
  try {
    LoadSweepSpec(path);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path);
    EXPECT_EQ(error.line(), 0);
  }
}

TEST_F(SweepSpecTest, ZipGroupsVaryTogether) {
  std::vector<TaskConfig> tasks =
      ExpandSweep(LoadSweepSpec(WriteSpec("name = \"z\"\n"
                                          "policies = [\"fifo\", \"gandiva_fair\"]\n"
                                          "seeds = [0, 1]\n"
                                          "[[zip]]\n"
                                          "traces = [\"traces/a.trace\", \"traces/b.trace\"]\n"
                                          "throughputs = [\"t.json\", \"t.json\"]\n"
                                          "num_gpus = [4, 8]\n")));
  ASSERT_EQ(tasks.size(), 8u);  // 2 zip rows x 2 policies x 2 seeds
  for (const TaskConfig& task : tasks) {
    bool a = task.trace_path.find("a.trace") != std::string::npos;
    EXPECT_EQ(task.simulation.num_gpus, a ? 4 : 8);
  }
  EXPECT_NE(tasks[0].trace_path, tasks[7].trace_path);  // the zip group is outermost (traces)
  EXPECT_EQ(tasks[1].seed, 1u);
}

TEST_F(SweepSpecTest, PolicyParametersExpandOnlyForTheirPolicy) {
  std::vector<TaskConfig> tasks = ExpandSweep(LoadSweepSpec(
      WriteSpec(std::string(kHeader) + "policies = [\"fifo\", \"max_min_fairness\"]\nnum_gpus = 4\n"
                                       "max_min_fairness.face_position = [0.0, 0.5, 1.0]\n")));
  // fifo once (it has no such option), max_min_fairness three times.
  ASSERT_EQ(tasks.size(), 4u);
  EXPECT_EQ(tasks[0].policy, "fifo");
  EXPECT_TRUE(tasks[0].policy_options.empty());
  EXPECT_EQ(tasks[3].policy_options, nlohmann::json({{"face_position", 1.0}}));
  // The same parameter written as [policy_options.<p>] gives the same tasks and ids.
  std::vector<TaskConfig> again = ExpandSweep(LoadSweepSpec(
      WriteSpec(std::string(kHeader) +
                "policies = [\"fifo\", \"max_min_fairness\"]\nnum_gpus = 4\n"
                "[policy_options.max_min_fairness]\nface_position = [0.0, 0.5, 1.0]\n")));
  ASSERT_EQ(again.size(), tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) EXPECT_EQ(again[i].Id(), tasks[i].Id());
}

TEST_F(SweepSpecTest, SimulationOptionsAreDimensions) {
  std::vector<TaskConfig> tasks =
      ExpandSweep(LoadSweepSpec(WriteSpec(
          std::string(kHeader) + "policies = \"fifo\"\nnum_gpus = 4\n"
                                 "round_duration_s = [60, 120]\ndeadline_factor = [1.0, 1.5]\n")));
  ASSERT_EQ(tasks.size(), 4u);
  EXPECT_EQ(tasks[0].simulation.round_duration_s, 60);
  EXPECT_EQ(tasks[1].simulation.deadline_factor, 1.5);
  EXPECT_EQ(tasks[2].simulation.round_duration_s, 120);
}

// The interval engine's options are the task's: at the top level for every interval-engine task
// (none of another engine), in a policy's table for that policy's tasks only (the spelling from
// when they were policy options, with the same ids).
TEST_F(SweepSpecTest, IntervalEngineOptionsApplyToTheirEnginesTasks) {
  std::vector<TaskConfig> tasks =
      ExpandSweep(LoadSweepSpec(WriteSpec(
          std::string(kHeader) + "policies = [\"fifo\", \"pollux\", \"tiresias\"]\nnum_gpus = 8\n"
                                 "interval_s = [120, 240.0]\ngpus_per_node = 2\n")));
  ASSERT_EQ(tasks.size(), 5u);  // fifo once
  EXPECT_EQ(tasks[0].policy, "fifo");
  EXPECT_FALSE(tasks[0].interval.interval_s.has_value());
  EXPECT_FALSE(tasks[0].ToJson()["policy_options"].contains("gpus_per_node"));
  EXPECT_EQ(tasks[1].policy, "pollux");
  EXPECT_EQ(*tasks[1].interval.interval_s, (WrittenNumber{120, true}));
  EXPECT_EQ(*tasks[2].interval.interval_s, (WrittenNumber{240, false}));
  EXPECT_EQ(tasks[3].ToJson()["policy_options"].dump(), R"({"gpus_per_node":2,"interval_s":120})");
  EXPECT_TRUE(tasks[3].policy_options.empty());  // no policy sees them
  // In pollux's table: pollux's tasks only, each with the id of the top-level spelling.
  std::vector<TaskConfig> scoped = ExpandSweep(LoadSweepSpec(
      WriteSpec(std::string(kHeader) + "policies = [\"pollux\", \"tiresias\"]\nnum_gpus = 8\n"
                                       "[policy_options.pollux]\ninterval_s = [120, 240.0]\n"
                                       "gpus_per_node = 2\np = -1.0\n")));
  ASSERT_EQ(scoped.size(), 3u);
  EXPECT_EQ(scoped[0].ToJson()["policy_options"].dump(),
            R"({"gpus_per_node":2,"interval_s":120,"p":-1.0})");
  EXPECT_EQ(scoped[0].policy_options, nlohmann::json({{"p", -1.0}}));
  EXPECT_EQ(scoped[2].policy, "tiresias");
  EXPECT_FALSE(scoped[2].interval.interval_s.has_value());
  TaskConfig tiresias = tasks[4];
  tiresias.interval = {};
  EXPECT_EQ(scoped[2].Id(), tiresias.Id());
}

TEST_F(SweepSpecTest, IdsDependOnFileContentNotLocation) {
  std::ofstream(dir_ / "traces/a.trace") << "x\n";
  std::string spec = std::string(kHeader) + "policies = \"fifo\"\nnum_gpus = 4\n";
  std::string id = ExpandSweep(LoadSweepSpec(WriteSpec(spec))).at(0).Id();
  fs::create_directories(dir_ / "moved/traces");
  fs::copy_file(dir_ / "traces/a.trace", dir_ / "moved/traces/a.trace");
  fs::copy_file(dir_ / "t.json", dir_ / "moved/t.json");
  std::string moved = (dir_ / "moved/spec.toml").string();
  std::ofstream(moved) << "seeds = 0\n" << spec;  // other key order, other place
  EXPECT_EQ(ExpandSweep(LoadSweepSpec(moved)).at(0).Id(), id);
  std::ofstream(dir_ / "moved/traces/a.trace") << "y\n";  // other content
  EXPECT_NE(ExpandSweep(LoadSweepSpec(moved)).at(0).Id(), id);
}

TEST_F(SweepSpecTest, ExpectedCostGrowsWithJobsRoundsAndPolicyWeight) {
  // 2 jobs of 3600 s on 1 GPU each; arrival 0.
  std::string line =
      "ResNet-18 (batch size 32)\tcmd\tdir\targ\t0\t100\t1\tstatic\t1\t-1\t3600\t0\n";
  std::ofstream(dir_ / "traces/a.trace") << line << line;
  SweepSpec spec =
      LoadSweepSpec(WriteSpec(std::string(kHeader) +
                              "policies = [\"fifo\", \"max_min_fairness\"]\nnum_gpus = [1, 2]\n"
                              "[policy_weights]\nmax_min_fairness = 3\n"));
  std::vector<TaskConfig> tasks = ExpandSweep(spec);
  ASSERT_EQ(tasks.size(), 4u);
  EXPECT_DOUBLE_EQ(ExpectedCost(spec, tasks[0]), 2 * (7200.0 / 1 / 120));  // fifo, 1 GPU
  EXPECT_DOUBLE_EQ(ExpectedCost(spec, tasks[1]), 2 * (7200.0 / 2 / 120));  // fifo, 2 GPUs
  EXPECT_DOUBLE_EQ(ExpectedCost(spec, tasks[2]), 3 * ExpectedCost(spec, tasks[0]));
}

TEST_F(SweepSpecTest, ExpectedCostReadsEachWorkloadWithItsOwnReader) {
  // A Pollux workload CSV (ReadPolluxWorkload): 3 jobs, last submission 7200 s, no durations.
  std::ofstream(dir_ / "traces/w.csv") << "name,time,application,num_replicas,batch_size\n"
                                       << "a-0,0,cifar10,1,128\nb-1,7200,ncf,2,256\n"
                                       << "c-2,3600,bert,1,12\n";
  SweepSpec spec =
      LoadSweepSpec(WriteSpec("name = \"t\"\ntraces = [\"traces/w.csv\", \"traces/a.trace\"]\n"
                              "throughputs = \"t.json\"\npolicies = \"fifo\"\nnum_gpus = 4\n"));
  const std::string csv = (dir_ / "traces/w.csv").string();
  const std::string trace = (dir_ / "traces/a.trace").string();
  ASSERT_EQ(spec.trace_stats.count(csv), 1u);
  EXPECT_EQ(spec.trace_stats.at(csv).num_jobs, 3);
  EXPECT_DOUBLE_EQ(spec.trace_stats.at(csv).last_arrival_s, 7200.0);
  EXPECT_DOUBLE_EQ(spec.trace_stats.at(csv).gpu_seconds, 0.0);
  // A trace that does not read ("a") still loads: no statistics, its task fails when it runs.
  ASSERT_EQ(spec.trace_stats.count(trace), 1u);
  EXPECT_EQ(spec.trace_stats.at(trace).num_jobs, 0);
  std::vector<TaskConfig> tasks = ExpandSweep(spec);
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_DOUBLE_EQ(ExpectedCost(spec, tasks[0]), 3 * (7200.0 / 120));
  EXPECT_DOUBLE_EQ(ExpectedCost(spec, tasks[1]), 1.0);
}

TEST_F(SweepSpecTest, BadExtendedSpecsNameFileLineAndField) {
  const std::string ok = "policies = [\"fifo\"]\nnum_gpus = [4]\n";  // lines 4-5
  std::vector<BadCase> cases = {
      {"zip lengths differ",
       "name = \"t\"\nthroughputs = \"t.json\"\npolicies = \"fifo\"\n[[zip]]\n"
       "traces = [\"traces/a.trace\", \"traces/b.trace\"]\nnum_gpus = [4]\n",
       5, "zip[0].traces", true},  // keys are checked in name order
      {"zip entry not a list",
       "name = \"t\"\nthroughputs = \"t.json\"\npolicies = \"fifo\"\n[[zip]]\n"
       "traces = \"traces/a.trace\"\nnum_gpus = [4]\n",
       5, "zip[0].traces", true},
      {"key twice", ok + "[[zip]]\nnum_gpus = [1, 2]\n", 7, "zip[0].num_gpus"},
      {"empty option list", ok + "fifo.x = []\n", 6, "fifo.x"},
      {"unknown policy table", ok + "[nopolicy]\nx = 1\n", 6, "nopolicy"},
      {"option of unswept policy", ok + "max_min_fairness.face_position = [0.5]\n", 6,
       "max_min_fairness"},
      {"bad option value",
       "policies = [\"max_min_fairness\"]\nnum_gpus = [4]\n"
       "max_min_fairness.face_position = [0.5, 2.0]\n",
       6, "max_min_fairness.face_position"},
      {"bad weight", ok + "[policy_weights]\nfifo = -1\n", 7, "policy_weights.fifo"},
      {"out of the declared range", ok + "round_duration_s = [60, 0]\n", 6, "round_duration_s"},
      {"not a declared choice", ok + "idle_round_start = \"later\"\n", 6, "idle_round_start"},
      {"interval option, round policies only", ok + "interval_s = 60\n", 6, "interval_s"},
      {"interval option in a round policy's table", ok + "fifo.interval_s = 60\n", 6,
       "fifo.interval_s"},
      {"interval option out of range",
       "policies = [\"pollux\"]\nnum_gpus = [4]\ninterference = [0.5, 1.0]\n", 6, "interference"},
      {"interval option twice",
       "policies = [\"pollux\"]\nnum_gpus = [4]\ninterval_s = 60\npollux.interval_s = 30\n", 7,
       "pollux.interval_s"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.label);
    InputError error = LoadError(c.whole ? c.body : std::string(kHeader) + c.body);
    EXPECT_EQ(error.line(), c.line) << error.what();
    EXPECT_EQ(error.field(), c.field) << error.what();
  }
}

}  // namespace
}  // namespace adaptsim

namespace adaptsim {
namespace {

// Every spec shipped in experiments/ loads and expands against the reference data, and every sweep
// `adaptsim reproduce` names exists there, so a spec edit cannot break a documented command.
TEST(ShippedSpecs, EveryExperimentsSpecExpandsAndEveryReproduceSweepExists) {
  ADAPTSIM_REQUIRE_DATA();
  ::setenv("ADAPTSIM_DATA", testing::DataDir()->c_str(), 1);
  const fs::path experiments = fs::path(ADAPTSIM_SOURCE_DIR) / "experiments";
  int specs = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(experiments)) {
    if (entry.path().extension() != ".toml" || entry.path().filename() == "paper_numbers.toml") {
      continue;
    }
    SCOPED_TRACE(entry.path().string());
    fs::path spec_path = entry.path();
    if (spec_path.filename() == "default.toml") {
      // Its trace is generated by scripts/run-default into results/; any trace stands in for
      // expansion, in a copy of the layout the spec's relative paths expect.
      const fs::path root =
          fs::temp_directory_path() / ("adaptsim_default_spec_" + std::to_string(::getpid()));
      fs::create_directories(root / "experiments");
      fs::create_directories(root / "results");
      fs::create_directories(root / "data/catalog");
      fs::copy_file(spec_path, root / "experiments/default.toml",
                    fs::copy_options::overwrite_existing);
      fs::copy_file(testing::CanonicalTracePath(), root / "results/default_120.trace",
                    fs::copy_options::overwrite_existing);
      fs::copy_file(fs::path(ADAPTSIM_SOURCE_DIR) / "data/catalog/v100.toml",
                    root / "data/catalog/v100.toml", fs::copy_options::overwrite_existing);
      spec_path = root / "experiments/default.toml";
    }
    SweepSpec spec = LoadSweepSpec(spec_path.string());
    EXPECT_EQ(spec.name + ".toml", entry.path().filename().string());
    EXPECT_FALSE(ExpandSweep(spec).empty());
    ++specs;
  }
  fs::remove_all(fs::temp_directory_path() /
                 ("adaptsim_default_spec_" + std::to_string(::getpid())));
  EXPECT_GT(specs, 0);
  for (const std::string& paper : ReproduciblePapers()) {
    for (const ReproductionSweep& sweep : ReproductionSweeps(paper)) {
      EXPECT_TRUE(fs::is_regular_file(experiments / sweep.spec_file)) << sweep.spec_file;
    }
  }
}

}  // namespace
}  // namespace adaptsim
