// Pollux inputs: workload CSVs and per-application profiles, and their bad-input errors
// (InputError naming file, line and field; docs/pollux.md §4.2-4.3).
#include <unistd.h>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/pollux_application.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/task.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;
using testing::DataPath;

// A scratch folder unique to this test and process.
class PolluxInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("adaptsim_pollux_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }
  // Copies one application's profile folder into the scratch traces folder.
  std::string CopyProfile(const std::string& app) {
    const fs::path to = dir_ / "traces" / app;
    fs::create_directories(to);
    for (const auto& entry : fs::directory_iterator(DataPath("pollux/traces/" + app))) {
      fs::copy_file(entry.path(), to / entry.path().filename());
    }
    return to.string();
  }
  template <typename F>
  void ExpectInputError(F&& f, const std::string& file_part, int line, const std::string& field) {
    try {
      f();
      FAIL() << "expected InputError";
    } catch (const InputError& error) {
      EXPECT_NE(error.file().find(file_part), std::string::npos) << error.what();
      EXPECT_EQ(error.line(), line) << error.what();
      EXPECT_EQ(error.field(), field) << error.what();
    }
  }
  fs::path dir_;
};

constexpr const char* kHeader = "name,time,application,num_replicas,batch_size\n";

TEST_F(PolluxInputs, ReadsShippedWorkload) {
  ADAPTSIM_REQUIRE_DATA();
  PolluxWorkload w = ReadPolluxWorkload(DataPath("pollux/workloads/workload-6.csv"));
  ASSERT_EQ(w.jobs.size(), 160u);
  EXPECT_EQ(w.jobs[0].name, "cifar10-0");
  EXPECT_EQ(w.jobs[0].submission_time_s, 53);
  EXPECT_EQ(w.jobs[0].num_replicas, 6);
  EXPECT_EQ(w.jobs[0].batch_size, 2048);
  EXPECT_EQ(w.jobs[0].line, 2);
}

TEST_F(PolluxInputs, MalformedWorkloadRowsNameFileLineField) {
  ExpectInputError(
      [&] { ReadPolluxWorkload(Write("a.csv", std::string(kHeader) + "j,1,cifar10,x,128\n")); },
      "a.csv", 2, "num_replicas");
  ExpectInputError(
      [&] {
        ReadPolluxWorkload(
            Write("b.csv", std::string(kHeader) + "j,1,cifar10,1,128\nk,abc,ncf,1,256\n"));
      },
      "b.csv", 3, "time");
  ExpectInputError(
      [&] { ReadPolluxWorkload(Write("c.csv", std::string(kHeader) + "j,1,cifar10,1\n")); },
      "c.csv", 2, "");
  ExpectInputError(
      [&] { ReadPolluxWorkload(Write("d.csv", "name,time,app,num_replicas,batch_size\n")); },
      "d.csv", 1, "header");
  ExpectInputError(
      [&] { ReadPolluxWorkload(Write("e.csv", std::string(kHeader) + "j,-5,cifar10,1,128\n")); },
      "e.csv", 2, "time");
  ExpectInputError(
      [&] { ReadPolluxWorkload(Write("f.csv", std::string(kHeader) + "j,1,cifar10,0,128\n")); },
      "f.csv", 2, "num_replicas");
  ExpectInputError(
      [&] { ReadPolluxWorkload(Write("g.csv", std::string(kHeader) + "j,1,a,1,1\nj,2,a,1,1\n")); },
      "g.csv", 3, "name");
  ExpectInputError([&] { ReadPolluxWorkload((dir_ / "missing.csv").string()); }, "missing.csv", 0,
                   "");
}

TEST_F(PolluxInputs, UnknownApplicationNamesWorkloadLine) {
  ADAPTSIM_REQUIRE_DATA();
  TaskConfig task;
  task.trace_path = Write("w.csv", std::string(kHeader) + "a,0,cifar10,1,128\nb,5,resnet,1,128\n");
  task.throughputs_path = DataPath("pollux/traces");
  task.policy = "tiresias";
  task.simulation.num_gpus = 64;
  ExpectInputError([&] { RunTask(task); }, "w.csv", 3, "application");
}

// A workload batch size outside the application's validated batch sizes is rejected before the
// simulation starts, for every policy (Pollux would otherwise ignore it, the baselines fail
// mid-run naming only the profile), naming the workload file, line and field.
TEST_F(PolluxInputs, BatchSizeOutsideTheValidatedRangeNamesWorkloadLine) {
  ADAPTSIM_REQUIRE_DATA();
  TaskConfig task;
  task.throughputs_path = DataPath("pollux/traces");
  task.simulation.num_gpus = 64;
  for (const char* policy : {"pollux", "tiresias", "optimus"}) {
    task.policy = policy;
    task.trace_path =
        Write("big.csv", std::string(kHeader) + "a,0,cifar10,1,128\nb,5,cifar10,1,8192\n");
    ExpectInputError([&] { RunTask(task); }, "big.csv", 3, "batch_size");
    task.trace_path = Write("small.csv", std::string(kHeader) + "a,0,bert,1,6\n");
    ExpectInputError([&] { RunTask(task); }, "small.csv", 2, "batch_size");
  }
  // The range's ends are valid (cifar10: validation-128.csv ... validation-4096.csv).
  task.policy = "tiresias";
  task.trace_path =
      Write("ends.csv", std::string(kHeader) + "a,0,cifar10,1,128\nb,5,cifar10,4,4096\n");
  EXPECT_EQ(RunTask(task).status, TaskStatus::kOk);
}

TEST_F(PolluxInputs, MissingProfileFiles) {
  ADAPTSIM_REQUIRE_DATA();
  const std::string app = CopyProfile("bert");
  fs::remove(fs::path(app) / "scalability.csv");
  ExpectInputError([&] { PolluxApplication::Load(app, {2, 0}); }, "scalability.csv", 0, "");
  for (const auto& entry : fs::directory_iterator(app)) {
    if (entry.path().filename().string().rfind("validation-", 0) == 0) fs::remove(entry.path());
  }
  ExpectInputError([&] { PolluxApplication::Load(app, {2, 0}); }, "bert", 0, "");
  PolluxApplications apps((dir_ / "nowhere").string());
  ExpectInputError([&] { apps.Get("bert", "w.csv", 7); }, "bert", 0, "");
}

TEST_F(PolluxInputs, MalformedProfileRowNamesLine) {
  ADAPTSIM_REQUIRE_DATA();
  const std::string app = CopyProfile("bert");
  {
    std::ofstream out(fs::path(app) / "placements.csv", std::ios::app);
    out << "1,4,fast,0.1\n";
  }
  try {
    PolluxApplication::Load(app, {2, 0});
    FAIL();
  } catch (const InputError& error) {
    EXPECT_NE(error.file().find("placements.csv"), std::string::npos);
    EXPECT_GT(error.line(), 1);
    EXPECT_EQ(error.field(), "step_time");
  }
}

TEST_F(PolluxInputs, LookupsOutsideTheDataAreInputErrors) {
  ADAPTSIM_REQUIRE_DATA();
  PolluxApplications apps(DataPath("pollux/traces"));
  const PolluxApplication& cifar = apps.Get("cifar10");
  EXPECT_EQ(cifar.init_batch_size(), 128);
  EXPECT_EQ(cifar.max_batch_size(), 4096);
  EXPECT_EQ(cifar.min_local_bsz(), 32);
  EXPECT_EQ(cifar.max_local_bsz(), 1024);
  EXPECT_THROW(cifar.GradStats(64, 0), InputError);     // below the validated batch sizes
  EXPECT_THROW(cifar.GradStats(8192, 0), InputError);   // above
  EXPECT_THROW(cifar.GradStats(256, 100), InputError);  // epoch without data
  EXPECT_THROW(cifar.Throughput({1}, 16), InputError);  // placement grid starts at 32
  EXPECT_THROW(cifar.Throughput({4, 4, 4, 4, 4, 4}, 1024), InputError);  // outside the hull
  EXPECT_EQ(apps.Get("yolov3").max_local_bsz(), 8);                      // artifact override
  // Rotation: (4,1) is looked up as the profiled placement 14.
  const StepTimes a = cifar.Throughput({4, 1}, 64), b = cifar.Throughput({1, 4}, 64);
  EXPECT_EQ(a.step_time_s, b.step_time_s);
  EXPECT_THROW(apps.Get("resnet", "w.csv", 3), InputError);
}

TEST_F(PolluxInputs, TaskOptionErrors) {
  ADAPTSIM_REQUIRE_DATA();
  TaskConfig task;
  task.trace_path = DataPath("pollux/workloads/workload-6.csv");
  task.throughputs_path = DataPath("pollux/traces");
  task.policy = "pollux";
  task.simulation.num_gpus = 62;  // not a multiple of 4
  ExpectInputError([&] { RunTask(task); }, "task", 0, "num_gpus");
  task.simulation.num_gpus = 64;
  task.policy_options = {{"p", "fair"}};
  EXPECT_THROW(RunTask(task), InputError);
  task.policy_options = {{"bogus", 1}};
  EXPECT_THROW(RunTask(task), InputError);
  task.policy_options = nlohmann::json::object();
  task.throughputs_path = DataPath("pollux/README.md");
  EXPECT_THROW(RunTask(task), InputError);
  EXPECT_TRUE(IsPolluxWorkload("x/workload-1.csv"));
  EXPECT_FALSE(IsPolluxWorkload("x/a.trace"));
}

}  // namespace
}  // namespace adaptsim
