// Folder inputs of sweeps and tasks: the Pollux profile folder as `throughputs` (content hash of a
// folder, sweep specs accepting a folder, the 96-task pollux_jobload sweep).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "adaptsim/content_hash.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/sweep.hpp"
#include "adaptsim/task.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

/// A temporary folder `profiles/` with two application sub-folders, plus a workload CSV.
class FolderHashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("adaptsim_folder_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "profiles/a");
    fs::create_directories(dir_ / "profiles/b");
    Write("profiles/a/placements.csv", "placement,local_bsz\n1,32\n");
    Write("profiles/a/scalability.csv", "x\n");
    Write("profiles/b/placements.csv", "placement,local_bsz\n2,64\n");
    Write("w.csv", "name,time,application,num_replicas,batch_size\nj-0,5,a,1,32\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& relative, const std::string& text) {
    std::ofstream(dir_ / relative, std::ios::binary | std::ios::trunc) << text;
  }
  std::string Profiles() const { return (dir_ / "profiles").string(); }

  fs::path dir_;
};

TEST_F(FolderHashTest, StableAcrossCallsAndIndependentOfLocation) {
  std::string hash = FolderContentHash(Profiles());
  ASSERT_EQ(hash.size(), 32u);
  EXPECT_EQ(hash, FolderContentHash(Profiles()));
  EXPECT_EQ(hash, FolderContentHash(Profiles() + "/"));  // trailing separator
  EXPECT_EQ(hash, FileContentHash(Profiles()));          // FileContentHash dispatches folders
  fs::copy(dir_ / "profiles", dir_ / "copy", fs::copy_options::recursive);
  EXPECT_EQ(hash, FolderContentHash((dir_ / "copy").string()));
  // A folder's hash is not the hash of any of its files.
  EXPECT_NE(hash, FileContentHash((dir_ / "profiles/a/placements.csv").string()));
}

TEST_F(FolderHashTest, IndependentOfCreationOrder) {
  // Same content created in the opposite order (directory iteration order may differ).
  fs::create_directories(dir_ / "other/b");
  fs::create_directories(dir_ / "other/a");
  Write("other/b/placements.csv", "placement,local_bsz\n2,64\n");
  Write("other/a/scalability.csv", "x\n");
  Write("other/a/placements.csv", "placement,local_bsz\n1,32\n");
  EXPECT_EQ(FolderContentHash(Profiles()), FolderContentHash((dir_ / "other").string()));
}

TEST_F(FolderHashTest, ChangesWithContentNamesAndFiles) {
  std::set<std::string> hashes = {FolderContentHash(Profiles())};
  Write("profiles/a/scalability.csv", "y\n");  // one byte changed
  EXPECT_TRUE(hashes.insert(FolderContentHash(Profiles())).second);
  fs::rename(dir_ / "profiles/a/scalability.csv", dir_ / "profiles/a/scalability2.csv");
  EXPECT_TRUE(hashes.insert(FolderContentHash(Profiles())).second);
  Write("profiles/b/validation-64.csv", "");  // a new (empty) file
  EXPECT_TRUE(hashes.insert(FolderContentHash(Profiles())).second);
  fs::remove(dir_ / "profiles/b/validation-64.csv");
  fs::create_directories(dir_ / "profiles/c");  // an empty sub-folder does not count
  EXPECT_FALSE(hashes.insert(FolderContentHash(Profiles())).second);
  // Moving a file to another sub-folder changes its relative path.
  fs::rename(dir_ / "profiles/b/placements.csv", dir_ / "profiles/c/placements.csv");
  EXPECT_TRUE(hashes.insert(FolderContentHash(Profiles())).second);
}

TEST_F(FolderHashTest, MissingOrEmptyFolderIsAnInputError) {
  std::string missing = (dir_ / "nope").string();
  try {
    FolderContentHash(missing);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), missing);
    EXPECT_NE(std::string(error.what()).find("folder not found"), std::string::npos);
  }
  EXPECT_THROW(FileContentHash(missing), InputError);
  fs::create_directories(dir_ / "empty/sub");
  EXPECT_THROW(FolderContentHash((dir_ / "empty").string()), InputError);
}

TEST_F(FolderHashTest, OnlyProfileFilesTwoLevelsDownCount) {
  const std::string hash = FolderContentHash(Profiles());
  // Files the profile reader never reads: not at <application>/*.csv, deeper, or not CSV.
  Write("profiles/README", "notes\n");
  Write("profiles/a/notes.txt", "x\n");
  fs::create_directories(dir_ / "profiles/a/old");
  Write("profiles/a/old/placements.csv", "placement,local_bsz\n9,9\n");
  fs::create_directory_symlink(dir_ / "profiles/a", dir_ / "profiles/link");
  EXPECT_EQ(FolderContentHash(Profiles()), hash);
  // A folder of folders without profiles (the file system root, found by fuzzing the sweep spec
  // reader, read every file below "/" and blocked on a pseudo-file) is refused without reading.
  fs::create_directories(dir_ / "deep/x/y");
  Write("deep/x/y/placements.csv", "placement,local_bsz\n1,32\n");
  Write("deep/top.csv", "a\n");
  try {
    FolderContentHash((dir_ / "deep").string());
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), (dir_ / "deep").string());
    EXPECT_NE(std::string(error.what()).find("holds no profile file"), std::string::npos);
  }
}

TEST_F(FolderHashTest, TaskIdFollowsFolderContentNotLocation) {
  TaskConfig task;
  task.trace_path = (dir_ / "w.csv").string();
  task.throughputs_path = Profiles();
  task.policy = "tiresias";
  task.simulation.num_gpus = 4;
  FillContentHashes(task);
  EXPECT_EQ(task.throughputs_hash, FolderContentHash(Profiles()));
  const std::string id = task.Id();
  EXPECT_EQ(id, task.Id());
  fs::copy(dir_ / "profiles", dir_ / "moved", fs::copy_options::recursive);
  TaskConfig moved = task;
  moved.throughputs_path = (dir_ / "moved").string();
  FillContentHashes(moved);
  EXPECT_EQ(moved.Id(), id);
  Write("moved/b/placements.csv", "placement,local_bsz\n2,65\n");
  FillContentHashes(moved);
  EXPECT_NE(moved.Id(), id);
}

TEST_F(FolderHashTest, SweepSpecAcceptsFolderForThroughputsOnly) {
  const std::string head = "name = \"f\"\npolicies = \"tiresias\"\nnum_gpus = 4\n";
  std::string path = (dir_ / "spec.toml").string();
  std::ofstream(path) << head << "traces = \"w.csv\"\nthroughputs = \"profiles\"\n";
  SweepSpec spec = LoadSweepSpec(path);
  std::vector<TaskConfig> tasks = ExpandSweep(spec);
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].throughputs_path, Profiles());
  EXPECT_EQ(tasks[0].throughputs_hash, FolderContentHash(Profiles()));
  EXPECT_EQ(ExpandSweep(LoadSweepSpec(path))[0].Id(), tasks[0].Id());
  // A missing throughputs path, and a folder where a trace file is expected: errors with line.
  std::ofstream(path, std::ios::trunc) << head << "traces = \"w.csv\"\nthroughputs = \"gone\"\n";
  try {
    LoadSweepSpec(path);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.line(), 5);
    EXPECT_EQ(error.field(), "throughputs");
    EXPECT_NE(std::string(error.what()).find("file or folder not found"), std::string::npos);
  }
  std::ofstream(path, std::ios::trunc)
      << head << "traces = \"profiles\"\nthroughputs = \"profiles\"\n";
  try {
    LoadSweepSpec(path);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "traces");
    EXPECT_NE(std::string(error.what()).find("expected a file, got a folder"), std::string::npos);
  }
}

TEST(PolluxJobloadSweepTest, DryRunListsNinetySixTasks) {
  ADAPTSIM_REQUIRE_DATA();
  ::setenv("ADAPTSIM_DATA", testing::DataDir()->c_str(), 1);
  SweepSpec spec =
      LoadSweepSpec(std::string(ADAPTSIM_SOURCE_DIR) + "/experiments/pollux_jobload.toml");
  std::vector<TaskConfig> tasks = ExpandSweep(spec);
  ASSERT_EQ(tasks.size(), 96u);  // 32 workloads x 3 policies x 1 seed
  std::set<std::string> ids, hashes;
  std::map<std::string, int> per_policy;
  for (const TaskConfig& task : tasks) {
    ids.insert(task.Id());
    hashes.insert(task.throughputs_hash);
    ++per_policy[task.policy];
    EXPECT_EQ(task.simulation.num_gpus, 64);
  }
  EXPECT_EQ(ids.size(), 96u);
  EXPECT_EQ(hashes.size(), 1u);  // one profile folder
  EXPECT_EQ(hashes.begin()->size(), 32u);
  EXPECT_EQ(per_policy,
            (std::map<std::string, int>{{"optimus", 32}, {"pollux", 32}, {"tiresias", 32}}));
  // Same ids on a second load (hash independent of iteration order and of the process).
  std::vector<TaskConfig> again = ExpandSweep(LoadSweepSpec(spec.spec_path));
  for (std::size_t i = 0; i < tasks.size(); ++i) EXPECT_EQ(again[i].Id(), tasks[i].Id());
  // Pollux tasks cost more than the baselines' (longest-expected-first dispatch); the CSV's jobs
  // and arrivals are read (80 jobs at load 0.5 vs 320 at 2.0).
  ASSERT_EQ(tasks[0].policy, "pollux");
  ASSERT_EQ(tasks[1].policy, "optimus");
  EXPECT_GT(ExpectedCost(spec, tasks[0]), ExpectedCost(spec, tasks[1]));
  EXPECT_GT(ExpectedCost(spec, tasks[95]), ExpectedCost(spec, tasks[2]));
}

}  // namespace
}  // namespace adaptsim
