// Sweep specs: expansion order and the InputError of each kind of bad input (file, line, field).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/sweep.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

/// A temporary folder with two (empty) trace files and a throughputs file; spec files go there.
class SweepSpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("adaptsim_spec_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "traces");
    std::ofstream(dir_ / "traces/a.trace") << "";
    std::ofstream(dir_ / "traces/b.trace") << "";
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
  EXPECT_EQ(spec.traces.at(0), (dir_ / "traces/b.trace").lexically_normal().string());
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

}  // namespace
}  // namespace adaptsim
