// Sia's per-GPU-type application profiles (docs/sia.md §1): placements-<type>.csv and
// scalability-<type>.csv read by column name, the per-type batch limits, the minimum-size
// throughput thr1 of the projection (docs/sia.md §3.2), and the bad-input errors (a type missing
// for an application, a malformed placement) naming file, line and field.
#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/gpu_type_profiles.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "policies/sia/sia_projection.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;
using testing::DataPath;

// One row of the check vectors of docs/sia.md §2 (computed from the artifact's CSVs with
// Python's csv module): per type aws / dgx-ext / rtx / quad, the smallest and largest local
// batch and thr1 (samples/s, to 2 decimals).
struct TypeLimits {
  const char* app;
  int min_local_bsz;
  int max_local_bsz[4];
  double thr1[4];
};
constexpr const char* kTypes[4] = {"aws", "dgx-ext", "rtx", "quad"};
constexpr TypeLimits kCheckVectors[] = {
    {"bert", 4, {12, 48, 12, 24}, {13.02, 140.44, 26.85, 37.44}},
    {"cifar10", 32, {1024, 4096, 1024, 2048}, {1458.5, 10062.55, 3306.32, 3740.15}},
    {"deepspeech2", 10, {80, 320, 57, 160}, {31.49, 77.50, 52.51, 48.65}},
    {"imagenet", 20, {200, 800, 200, 400}, {216.56, 1034.01, 395.22, 414.94}},
    {"yolov3", 4, {16, 32, 8, 16}, {27.94, 56.71, 11.72, 50.59}},
};

class SiaProfiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("adaptsim_sia_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Copies one application's Sia profile folder into the scratch traces folder.
  fs::path CopyProfile(const std::string& app) {
    const fs::path to = dir_ / "traces" / app;
    fs::create_directories(to);
    for (const auto& entry : fs::directory_iterator(DataPath("sia/traces/" + app))) {
      fs::copy_file(entry.path(), to / entry.path().filename());
    }
    return to;
  }
  static int LineCount(const fs::path& path) {
    std::ifstream in(path);
    std::string line;
    int lines = 0;
    while (std::getline(in, line)) ++lines;
    return lines;
  }
  fs::path dir_;
};

template <typename F>
InputError CatchInputError(F&& f) {
  try {
    f();
  } catch (const InputError& error) {
    return error;
  }
  ADD_FAILURE() << "expected InputError";
  return InputError("", 0, "", "none");
}

TEST_F(SiaProfiles, PerTypeLimitsAndMinimumSizeThroughputMatchTheCheckVectors) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  for (const TypeLimits& expected : kCheckVectors) {
    for (int t = 0; t < 4; ++t) {
      SCOPED_TRACE(std::string(expected.app) + " on " + kTypes[t]);
      const PolluxApplication& app = apps.Get(expected.app, kTypes[t]);
      EXPECT_EQ(app.gpu_type(), kTypes[t]);
      EXPECT_NE(app.placements_path().find(std::string("placements-") + kTypes[t] + ".csv"),
                std::string::npos);
      EXPECT_EQ(app.min_local_bsz(), expected.min_local_bsz);
      EXPECT_EQ(app.max_local_bsz(), expected.max_local_bsz[t]);
      EXPECT_NEAR(SiaMinimumSizeThroughput(app), expected.thr1[t], 0.005);
    }
  }
  // The validation files are shared: M0 and the largest batch do not depend on the type.
  EXPECT_EQ(apps.Get("bert", "aws").init_batch_size(), 12);
  EXPECT_EQ(apps.Get("bert", "rtx").max_batch_size(), 384);
  EXPECT_EQ(apps.Get("yolov3", "dgx-ext").max_epochs(), 50);
  // The example ratio of docs/sia.md §3.2: thr1[bert][dgx-ext] / thr1[bert][aws] = 10.79 (from
  // the rounded thr1 140.44 / 13.02; unrounded 10.785).
  EXPECT_NEAR(SiaMinimumSizeThroughput(apps.Get("bert", "dgx-ext")) /
                  SiaMinimumSizeThroughput(apps.Get("bert", "aws")),
              10.79, 0.01);
}

TEST_F(SiaProfiles, LookupsUseTheTypesOwnFiles) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  // rtx files order their columns local_bsz,step_time,sync_time,placement; the first row of
  // bert's placements-rtx.csv is (placement 1, local_bsz 4, step 0.25229..., sync 0.00643...).
  const PolluxApplication& rtx = apps.Get("bert", "rtx");
  const StepTimes times = rtx.Throughput({1}, 4);
  EXPECT_NEAR(times.step_time_s, 0.2522909343242645, 1e-12);
  EXPECT_NEAR(times.sync_time_s, 0.006434326052665711, 1e-12);
  const StepTimes aws = apps.Get("bert", "aws").Throughput({1}, 4);
  EXPECT_NEAR(aws.step_time_s, 0.45532354712486267, 1e-12);
  // Sia's per-placement batch limit (applications.py:310-324): a profiled placement's largest
  // row, else the largest local_bsz of the scalability rows at least as large. Expected values
  // are read here from the CSV itself.
  EXPECT_EQ(rtx.MaxLocalBszAt({1}), 12);
  CsvTable scalability =
      ReadCsvColumns(DataPath("sia/traces/bert/scalability-aws.csv"),
                     {"num_nodes", "num_replicas", "local_bsz", "step_time", "sync_time"});
  long long expected = 0;
  for (std::size_t row = 0; row < scalability.rows.size(); ++row) {
    if (CsvInteger(scalability, row, 0) >= 6 && CsvInteger(scalability, row, 1) >= 24) {
      expected = std::max(expected, CsvInteger(scalability, row, 2));
    }
  }
  ASSERT_GT(expected, 0);
  EXPECT_EQ(apps.Get("bert", "aws").MaxLocalBszAt({4, 4, 4, 4, 4, 4}), expected);
  // Beyond every row: an error naming the step-time file.
  const InputError error =
      CatchInputError([&] { apps.Get("bert", "rtx").MaxLocalBszAt(std::vector<int>(9, 8)); });
  EXPECT_NE(error.file().find("placements-rtx.csv"), std::string::npos) << error.what();
  EXPECT_EQ(error.field(), "placement");
}

// The executed batch's memory correction (job.py:375-381): the largest local_bsz of the step-time
// rows whose placement digits sum to K, read here from the CSV for every K up to 64; 0 when no
// row has K replicas.
TEST_F(SiaProfiles, LargestLocalBatchAtAReplicaCountIsReadFromTheStepTimeRows) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  for (const char* type : {"aws", "rtx", "dgx-ext"}) {
    for (const char* app : {"cifar10", "deepspeech2", "yolov3"}) {
      SCOPED_TRACE(std::string(app) + " on " + type);
      CsvTable rows = ReadCsvColumns(
          DataPath("sia/traces/" + std::string(app) + "/placements-" + type + ".csv"),
          {"placement", "local_bsz", "step_time", "sync_time"});
      std::map<int, long long> largest;
      for (std::size_t row = 0; row < rows.rows.size(); ++row) {
        int replicas = 0;
        for (char digit : rows.rows[row][0]) replicas += digit - '0';
        largest[replicas] = std::max(largest[replicas], CsvInteger(rows, row, 1));
      }
      ASSERT_GE(largest.size(), 2u);
      const PolluxApplication& profile = apps.Get(app, type);
      for (int replicas = 1; replicas <= 64; ++replicas) {
        const auto it = largest.find(replicas);
        EXPECT_EQ(profile.MaxLocalBszAtReplicas(replicas), it == largest.end() ? 0 : it->second)
            << replicas;
      }
    }
  }
}

TEST_F(SiaProfiles, ATypeMissingForAnApplicationNamesTheFileAndTheProfiledTypes) {
  ADAPTSIM_REQUIRE_DATA();
  GpuTypeApplications apps(DataPath("sia/traces"));
  const InputError error = CatchInputError([&] { apps.Get("bert", "v100"); });
  EXPECT_NE(error.file().find("bert/placements-v100.csv"), std::string::npos) << error.what();
  EXPECT_EQ(error.line(), 0);
  EXPECT_EQ(error.field(), "gpu_type");
  EXPECT_NE(std::string(error.what()).find("aws, azure, dgx, dgx-ext, quad, rtx"),
            std::string::npos)
      << error.what();
  // With a workload row as context, the error names the row.
  const InputError in_row = CatchInputError([&] { apps.Get("bert", "v100", "w.csv", 7); });
  EXPECT_EQ(in_row.file(), "w.csv");
  EXPECT_EQ(in_row.line(), 7);
  EXPECT_EQ(in_row.field(), "application");
  // An application outside the artifact's six (gpt_pmp is pipeline-parallel, not supported).
  const InputError unknown = CatchInputError([&] { apps.Get("gpt_pmp", "rtx", "w.csv", 3); });
  EXPECT_EQ(unknown.line(), 3);
  EXPECT_EQ(unknown.field(), "application");
}

TEST_F(SiaProfiles, TheWorkloadCheckNamesTheRowWhoseTypeIsMissing) {
  ADAPTSIM_REQUIRE_DATA();
  CopyProfile("cifar10");
  const fs::path yolo = CopyProfile("yolov3");
  fs::remove(yolo / "placements-quad.csv");
  const fs::path workload = dir_ / "workload.csv";
  std::ofstream(workload) << "name,time,application,num_replicas,batch_size\n"
                             "cifar10-0,0,cifar10,4,128\n"
                             "yolov3-1,5,yolov3,4,8\n";
  GpuTypeApplications apps((dir_ / "traces").string());
  const PolluxWorkload jobs = ReadPolluxWorkload(workload.string());
  CheckWorkloadAgainstGpuTypes(jobs, apps, {"aws", "rtx"});  // both types exist
  const InputError error = CatchInputError([&] {
    CheckWorkloadAgainstGpuTypes(jobs, apps, {"aws", "quad"});
  });
  EXPECT_NE(error.file().find("workload.csv"), std::string::npos);
  EXPECT_EQ(error.line(), 3);
  EXPECT_EQ(error.field(), "application");
  EXPECT_NE(std::string(error.what()).find("placements-quad.csv"), std::string::npos);
}

TEST_F(SiaProfiles, AMalformedPlacementNamesFileLineAndField) {
  ADAPTSIM_REQUIRE_DATA();
  const fs::path bert = CopyProfile("bert");
  const fs::path rtx = bert / "placements-rtx.csv";
  std::ofstream(rtx, std::ios::app) << "4,0.25,0.006,1x\n";  // columns local_bsz,...,placement
  const int bad_line = LineCount(rtx);
  GpuTypeApplications apps((dir_ / "traces").string());
  const InputError error = CatchInputError([&] { apps.Get("bert", "rtx"); });
  EXPECT_NE(error.file().find("placements-rtx.csv"), std::string::npos) << error.what();
  EXPECT_EQ(error.line(), bad_line);
  EXPECT_EQ(error.field(), "placement");
  // A non-numeric step time names its column.
  const fs::path aws = bert / "placements-aws.csv";
  std::ofstream(aws, std::ios::app) << "1,4,slow,0.01\n";
  const InputError step = CatchInputError([&] { apps.Get("bert", "aws"); });
  EXPECT_EQ(step.line(), LineCount(aws));
  EXPECT_EQ(step.field(), "step_time");
  // A header without the columns Sia reads.
  std::ofstream(bert / "scalability-quad.csv") << "num_nodes,num_replicas,local_bsz,step_time\n";
  const InputError header = CatchInputError([&] { apps.Get("bert", "quad"); });
  EXPECT_NE(header.file().find("scalability-quad.csv"), std::string::npos);
  EXPECT_EQ(header.line(), 1);
  EXPECT_EQ(header.field(), "header");
}

}  // namespace
}  // namespace adaptsim
