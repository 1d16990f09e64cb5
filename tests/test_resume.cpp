// The sweep command as a process: kill -9 then resume, failure injection, timeouts, SIGTERM,
// dry runs and bad specs. Runs `adaptsim sweep` as a single MPI rank (singleton, no mpirun) so
// that the test can signal the very process that writes. Uses the `fail_after` test-aid policy
// (tests/test_aids/fail_after.hpp, registered only in the test build of
// the command line) to make tasks fail or last long enough to be interrupted.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/checksum.hpp"
#include "adaptsim/output_paths.hpp"
#include "adaptsim/results_analysis.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/sweep_command.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

#ifdef ADAPTSIM_BINARY
class SweepProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("adaptsim_resume_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    out_ = (dir_ / "out.h5").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// A spec over the canonical trace; `body` adds policies, options, seeds.
  std::string WriteSpec(const std::string& body) {
    std::string path = (dir_ / "spec.toml").string();
    std::ofstream(path) << "name = \"test\"\ntraces = \"" << testing::CanonicalTracePath()
                        << "\"\nthroughputs = \"" << testing::TaccThroughputsPath()
                        << "\"\nnum_gpus = 32\n"
                        << body;
    return path;
  }

  /// Starts `adaptsim sweep spec --out out --quiet --keep-shards extra...` (the shards' manifest
  /// is what these tests count); returns the pid.
  pid_t Start(const std::string& spec, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {ADAPTSIM_BINARY, "sweep",        spec, "--out", out_,
                                     "--quiet",       "--keep-shards"};
    args.insert(args.end(), extra.begin(), extra.end());
    return Spawn(std::move(args));
  }
  /// Starts the command line `args` (the binary first) with stdout and stderr appended to the
  /// log; returns the pid.
  pid_t Spawn(std::vector<std::string> args) {
    pid_t pid = ::fork();
    if (pid == 0) {
      ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
      ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
      std::string log = (dir_ / "log.txt").string();
      std::freopen(log.c_str(), "a", stdout);
      std::freopen(log.c_str(), "a", stderr);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      std::_Exit(127);
    }
    return pid;
  }
  /// Exit code, or 128 + signal.
  static int Wait(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  int Run(const std::string& spec, const std::vector<std::string>& extra = {}) {
    return Wait(Start(spec, extra));
  }
  std::string Log() {
    std::ifstream in(dir_ / "log.txt");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  /// Manifest lines per task id.
  std::map<std::string, int> ManifestCounts() {
    std::map<std::string, int> counts;
    std::ifstream in(out_ + ".shards/manifest.jsonl");
    for (std::string line; std::getline(in, line);) {
      auto at = line.find("\"id\":\"");
      if (at != std::string::npos) ++counts[line.substr(at + 6, 32)];
    }
    return counts;
  }
  /// Waits until the manifest has `n` lines (or 60 s).
  void WaitForCompletions(int n) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      int total = 0;
      for (const auto& [id, c] : ManifestCounts()) total += c;
      if (total >= n) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "no " << n << " completions: " << Log();
  }

  fs::path dir_;
  std::string out_;
};

// Slow but correct tasks: fail_after never fails with after = -1, sleeps per allocation.
const char kSlowTasks[] =
    "policies = \"fail_after\"\nseeds = [0, 1, 2, 3, 4, 5]\n"
    "fail_after.after = -1\nfail_after.sleep_ms = 30\n";

TEST_F(SweepProcessTest, KillNineAtAnyMomentThenResumeRunsEveryTaskExactlyOnce) {
  ADAPTSIM_REQUIRE_DATA();
  std::string spec = WriteSpec(kSlowTasks);
  // Kill at several moments (start-up, mid-task, between tasks), then let it finish.
  for (int delay_ms : {50, 400, 900, 1300}) {
    pid_t pid = Start(spec);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    ::kill(pid, SIGKILL);
    EXPECT_EQ(Wait(pid), 128 + SIGKILL);
  }
  ASSERT_EQ(Run(spec), 0) << Log();
  std::vector<SummaryRow> rows = ReadSummary(out_);
  ASSERT_EQ(rows.size(), 6u);
  std::map<std::string, int> in_file;
  for (const SummaryRow& row : rows) {
    ++in_file[row.task_id];
    EXPECT_EQ(row.status, TaskStatus::kOk) << row.message;
    EXPECT_EQ(row.task_index, static_cast<int>(row.seed));  // sorted by task_index
  }
  EXPECT_EQ(in_file.size(), 6u);
  // Each task was completed (and written) exactly once across all the runs.
  std::map<std::string, int> manifest = ManifestCounts();
  EXPECT_EQ(manifest.size(), 6u);
  for (const auto& [id, count] : manifest) EXPECT_EQ(count, 1) << id;
  for (const auto& entry : fs::directory_iterator(out_ + ".shards")) {
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
  }
  // Re-running a finished sweep runs nothing and rewrites the same file.
  ASSERT_EQ(Run(spec), 0);
  EXPECT_EQ(ManifestCounts(), manifest);
  EXPECT_EQ(ReadSummary(out_).size(), 6u);
}

TEST_F(SweepProcessTest, KillNineAmongShardsOfSeveralTasksThenResumeRunsTheRestOnce) {
  ADAPTSIM_REQUIRE_DATA();
  // 40 tasks of tens of milliseconds: each shard holds the tasks of a quarter second.
  std::string seeds;
  for (int seed = 0; seed < 40; ++seed) seeds += (seed > 0 ? ", " : "") + std::to_string(seed);
  std::string spec = WriteSpec("policies = \"fifo\"\nseeds = [" + seeds + "]\n");
  pid_t pid = Start(spec);
  WaitForCompletions(1);
  ::kill(pid, SIGKILL);
  EXPECT_EQ(Wait(pid), 128 + SIGKILL);
  std::map<std::string, int> before = ManifestCounts();
  ASSERT_EQ(Run(spec), 0) << Log();
  std::map<std::string, int> manifest = ManifestCounts();
  ASSERT_EQ(manifest.size(), 40u);
  for (const auto& [id, count] : manifest) EXPECT_EQ(count, 1) << id;  // none ran twice
  for (const auto& [id, count] : before) EXPECT_EQ(manifest.at(id), 1) << id;
  int shard_files = 0;
  for (const auto& entry : fs::directory_iterator(out_ + ".shards")) {
    shard_files += entry.path().extension() == ".h5" ? 1 : 0;
  }
  EXPECT_LT(shard_files, 40) << "no shard holds more than one task";
  std::vector<SummaryRow> rows = ReadSummary(out_);
  ASSERT_EQ(rows.size(), 40u);
  for (const SummaryRow& row : rows) EXPECT_EQ(row.status, TaskStatus::kOk) << row.message;
}

TEST_F(SweepProcessTest, ThrowingTaskIsRecordedAndTheSweepCompletes) {
  ADAPTSIM_REQUIRE_DATA();
  std::string spec = WriteSpec(
      "policies = [\"fifo\", \"fail_after\", \"gandiva_fair\"]\n"
      "fail_after.after = 3\n");
  ASSERT_EQ(Run(spec), 0) << Log();
  std::vector<SummaryRow> rows = ReadSummary(out_);
  ASSERT_EQ(rows.size(), 3u);
  for (const SummaryRow& row : rows) {
    if (row.policy == "fail_after") {
      EXPECT_EQ(row.status, TaskStatus::kFailed);
      EXPECT_NE(row.message.find("injected failure"), std::string::npos) << row.message;
    } else {
      EXPECT_EQ(row.status, TaskStatus::kOk) << row.message;
      EXPECT_GT(row.metrics.makespan_s, 0);
    }
  }
  ASSERT_EQ(Run(spec), 0);  // resume: the failed task is not rerun...
  EXPECT_EQ(ManifestCounts().size(), 3u);
  ASSERT_EQ(Run(spec, {"--retry-failed"}), 0);  // ...unless asked
  int reruns = 0;
  for (const auto& [id, count] : ManifestCounts()) reruns += count - 1;
  EXPECT_EQ(reruns, 1);
}

TEST_F(SweepProcessTest, TaskTimeoutsRecordStatusTimeout) {
  ADAPTSIM_REQUIRE_DATA();
  std::string spec = WriteSpec("policies = [\"fifo\", \"gandiva_fair\"]\n");
  ASSERT_EQ(Run(spec, {"--task-timeout-rounds", "5"}), 0) << Log();
  for (const SummaryRow& row : ReadSummary(out_)) {
    EXPECT_EQ(row.status, TaskStatus::kTimeout);
    EXPECT_NE(row.message.find("round limit"), std::string::npos) << row.message;
  }
  std::string slow = WriteSpec(
      "policies = \"fail_after\"\nfail_after.after = -1\n"
      "fail_after.sleep_ms = 50\n");
  ASSERT_EQ(Run(slow, {"--task-timeout", "0.3"}), 0) << Log();
  bool found = false;
  for (const SummaryRow& row : ReadSummary(out_)) {
    if (row.policy != "fail_after") continue;
    found = true;
    EXPECT_EQ(row.status, TaskStatus::kTimeout);
    EXPECT_LT(row.wall_time_s, 5.0);
  }
  EXPECT_TRUE(found);
}

TEST_F(SweepProcessTest, SigtermStopsDispatchFlushesAndExitsZero) {
  ADAPTSIM_REQUIRE_DATA();
  std::string spec = WriteSpec(kSlowTasks);
  pid_t pid = Start(spec, {"--grace", "30"});
  WaitForCompletions(1);
  ::kill(pid, SIGTERM);
  auto sent = std::chrono::steady_clock::now();
  EXPECT_EQ(Wait(pid), 0) << Log();
  EXPECT_LT(std::chrono::steady_clock::now() - sent, std::chrono::seconds(20));
  EXPECT_NE(Log().find("rerun the same command to resume"), std::string::npos) << Log();
  std::size_t stored = ReadSummary(out_).size();  // flushed and readable
  EXPECT_GE(stored, 1u);
  EXPECT_LT(stored, 6u);
  // grace 0: the running task is abandoned at once, not stored, and reruns on resume.
  std::size_t before = ManifestCounts().size();
  pid = Start(spec, {"--grace", "0"});
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // past start-up, mid-task
  ::kill(pid, SIGUSR1);
  EXPECT_EQ(Wait(pid), 0) << Log();
  EXPECT_GE(ManifestCounts().size(), before);
  ASSERT_EQ(Run(spec), 0) << Log();
  EXPECT_EQ(ReadSummary(out_).size(), 6u);
  for (const auto& [id, count] : ManifestCounts()) EXPECT_EQ(count, 1) << id;
}

// `adaptsim run --out` publishes its file as a sweep publishes its merged file: whole (no
// temporary name left), with OUT.sha256, which `adaptsim report` checks before HDF5 reads OUT.
TEST_F(SweepProcessTest, RunOutIsPublishedWholeWithItsChecksum) {
  ADAPTSIM_REQUIRE_DATA();
  const std::vector<std::string> run = {ADAPTSIM_BINARY, "run",
                                        "--trace",       testing::CanonicalTracePath(),
                                        "--throughputs", testing::TaccThroughputsPath(),
                                        "--gpus",        "32",
                                        "--policy",      "fifo"};
  auto with_out = [&](const std::string& out, bool force) {
    std::vector<std::string> args = run;
    args.insert(args.end(), {"--out", out});
    if (force) args.push_back("--force");
    return Wait(Spawn(args));
  };
  ASSERT_EQ(with_out(out_, false), 0) << Log();
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir_)) {
    files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"log.txt", "out.h5", "out.h5.sha256"}));
  std::string digest, name;
  std::ifstream(out_ + ".sha256") >> digest >> name;
  EXPECT_EQ(digest, FileSha256Hex(out_));
  EXPECT_EQ(name, "out.h5");
  ASSERT_EQ(ReadSummary(out_).size(), 1u);
  EXPECT_EQ(ReadSummary(out_)[0].status, TaskStatus::kOk);
  // An existing --out needs --force; a missing folder is refused before the run.
  EXPECT_NE(with_out(out_, false), 0);
  EXPECT_NE(Log().find("file exists; pass --force to overwrite"), std::string::npos) << Log();
  EXPECT_NE(with_out((dir_ / "missing" / "out.h5").string(), false), 0);
  EXPECT_NE(Log().find("does not exist or is not a folder"), std::string::npos) << Log();
  // One byte altered: `adaptsim report` refuses the file by name.
  {
    std::fstream file(out_, std::ios::in | std::ios::out | std::ios::binary);
    const auto middle = static_cast<std::streamoff>(fs::file_size(out_) / 2);
    char byte = 0;
    file.seekg(middle);
    file.read(&byte, 1);
    file.seekp(middle);
    file.put(static_cast<char>(byte ^ 0x5a));
  }
  EXPECT_THROW(AnalyseResults({out_}, AnalysisOptions{}), StoreError);
  // --force replaces both.
  ASSERT_EQ(with_out(out_, true), 0) << Log();
  EXPECT_TRUE(CheckChecksumFile(OutputPaths(out_)).matches);
}

TEST_F(SweepProcessTest, AnAlteredResultsFileIsNotReadOnResumeAndItsTasksRunAgain) {
  ADAPTSIM_REQUIRE_DATA();
  std::string spec = WriteSpec("policies = \"fifo\"\nseeds = [0, 1, 2]\n");
  ASSERT_EQ(Run(spec), 0) << Log();
  // The sweep records the merged file's SHA-256 next to it, as sha256sum prints it.
  std::string digest, name;
  std::ifstream(out_ + ".sha256") >> digest >> name;
  EXPECT_EQ(digest.size(), 64u);
  EXPECT_EQ(name, "out.h5");
  EXPECT_TRUE(CheckChecksumFile(OutputPaths(out_)).matches);
  std::map<std::string, double> makespans;
  for (const SummaryRow& row : ReadSummary(out_)) makespans[row.task_id] = row.metrics.makespan_s;
  ASSERT_EQ(makespans.size(), 3u);
  // A finished sweep without its shards (removed after the merge unless --keep-shards), then one
  // byte of the file altered on disk.
  fs::remove_all(out_ + ".shards");
  {
    std::fstream file(out_, std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(static_cast<std::streamoff>(fs::file_size(out_) / 2));
    char byte = 0;
    file.read(&byte, 1);
    file.seekp(static_cast<std::streamoff>(fs::file_size(out_) / 2));
    file.put(static_cast<char>(byte ^ 0x5a));
  }
  const ChecksumCheck altered = CheckChecksumFile(OutputPaths(out_));
  EXPECT_TRUE(altered.recorded);
  EXPECT_FALSE(altered.matches);
  // `adaptsim report` and `adaptsim merge` refuse it by name before HDF5 reads it.
  for (const auto& read : std::vector<std::function<void()>>{
           [&] { AnalyseResults({out_}, AnalysisOptions{}); },
           [&] {
             MergeOptions merge;
             merge.sources = {out_};
             MergeResultsWithChecksum(OutputPaths((dir_ / "copy.h5").string()), merge);
           }}) {
    try {
      read();
      ADD_FAILURE() << "an altered file was read";
    } catch (const StoreError& error) {
      EXPECT_NE(std::string(error.what()).find("does not match " + out_ + ".sha256"),
                std::string::npos)
          << error.what();
    }
  }
  EXPECT_FALSE(fs::exists(dir_ / "copy.h5"));
  ASSERT_EQ(Run(spec), 0) << Log();
  // The file was not handed to HDF5: named with both digests, and every task ran again.
  EXPECT_NE(Log().find("ignoring " + out_ + ": its SHA-256 is "), std::string::npos) << Log();
  EXPECT_NE(Log().find(digest), std::string::npos) << Log();
  std::map<std::string, int> reruns = ManifestCounts();
  EXPECT_EQ(reruns.size(), 3u);
  std::vector<SummaryRow> rows = ReadSummary(out_);
  ASSERT_EQ(rows.size(), 3u);
  for (const SummaryRow& row : rows) {
    EXPECT_EQ(row.status, TaskStatus::kOk);
    EXPECT_EQ(row.metrics.makespan_s, makespans.at(row.task_id));
  }
  EXPECT_TRUE(CheckChecksumFile(OutputPaths(out_)).matches);
}

TEST_F(SweepProcessTest, DryRunListsTasksAndRunsNothing) {
  ADAPTSIM_REQUIRE_DATA();
  std::string spec = WriteSpec("policies = [\"fifo\", \"max_min_fairness\"]\nseeds = [0, 1]\n");
  ASSERT_EQ(Run(spec, {"--dry-run"}), 0) << Log();
  EXPECT_FALSE(fs::exists(out_));
  std::string log = Log();
  EXPECT_NE(log.find("4 tasks, 4 to run"), std::string::npos) << log;
  EXPECT_NE(log.find("pending"), std::string::npos) << log;
}

// On the interval engine a cluster of GPU types counts nodes (docs/sia.md §5): the listing shows
// the task's GPUs, 6 × 4 + 3 × 8 + 2 × 8 = 64, as the results record them, not the 11 nodes.
TEST_F(SweepProcessTest, DryRunListsTheGpusOfANodeGroupCluster) {
  ADAPTSIM_REQUIRE_DATA();
  const std::string spec = (dir_ / "groups.toml").string();
  std::ofstream(spec) << "name = \"groups\"\ntraces = \""
                      << testing::DataPath("sia/workloads/saturn/workload-1.csv")
                      << "\"\nthroughputs = \"" << testing::DataPath("sia/traces")
                      << "\"\ncluster = [\"aws=6,rtx=3,dgx-ext=2\"]\npolicies = [\"gavel_tj\"]\n";
  ASSERT_EQ(Run(spec, {"--dry-run"}), 0) << Log();
  const std::string log = Log();
  EXPECT_TRUE(std::regex_search(log, std::regex(R"(gavel_tj +64 +0 )"))) << log;
}

TEST_F(SweepProcessTest, BadSpecFailsBeforeAnyTaskRuns) {
  std::string spec = (dir_ / "bad.toml").string();
  std::ofstream(dir_ / "t.json") << "{}";
  std::ofstream(spec) << "name = \"bad\"\ntraces = \"missing.trace\"\nthroughputs = \"t.json\"\n"
                         "policies = \"fifo\"\nnum_gpus = 4\n";
  EXPECT_EQ(Run(spec), 2);
  EXPECT_NE(Log().find("bad.toml:2: field 'traces': file not found"), std::string::npos) << Log();
  EXPECT_FALSE(fs::exists(out_));
  EXPECT_FALSE(fs::exists(out_ + ".shards"));
}
#endif

}  // namespace
}  // namespace adaptsim
