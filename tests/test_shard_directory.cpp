// Shards of several tasks (include/adaptsim/shard_directory.hpp): the manifest indexes every task,
// a task rerun into a newer shard is taken from it, and a shard without manifest lines is read.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/output_paths.hpp"
#include "adaptsim/shard_directory.hpp"
#include "adaptsim/store.hpp"
#include "adaptsim/task.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

TaskRecord Record(std::uint64_t seed, TaskStatus status, double makespan_s) {
  TaskConfig config;
  config.trace_path = "/data/a.trace";
  config.throughputs_path = "/data/t.json";
  config.policy = "fifo";
  config.seed = seed;
  SimulationResult result;
  result.status = status;
  result.summary.makespan_s = makespan_s;
  TaskRecord record = MakeTaskRecord(config, static_cast<int>(seed), std::move(result), 1);
  record.detail = ResultDetail::kSummary;
  return record;
}

class ShardDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = (fs::temp_directory_path() /
            ("adaptsim_shards_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".h5"))
               .string();
    fs::remove_all(out_ + ".shards");
    fs::remove(out_);
  }
  void TearDown() override {
    fs::remove_all(out_ + ".shards");
    fs::remove(out_);
  }
  /// Opens the shard folder of `shards` and writes `first` and `second` as two shards; returns
  /// their paths in write order.
  static std::vector<std::string> WriteTwoShards(ShardDirectory& shards,
                                                 const std::vector<TaskRecord>& first,
                                                 const std::vector<TaskRecord>& second) {
    shards.Open();
    shards.Write(first, Provenance{});
    shards.Write(second, Provenance{});
    std::vector<std::string> paths = shards.ShardPaths();
    EXPECT_EQ(paths.size(), 2u);  // one file per batch
    return paths;
  }
  std::string out_;
};

TEST_F(ShardDirectoryTest, ABatchIsOneShardAndARerunIsTakenFromTheNewerShard) {
  ShardDirectory shards(OutputPaths(out_).shards());
  const TaskRecord a_failed = Record(0, TaskStatus::kFailed, 0.0);
  const TaskRecord b = Record(1, TaskStatus::kOk, 20.0);
  const TaskRecord a_ok = Record(0, TaskStatus::kOk, 10.0);
  const TaskRecord c = Record(2, TaskStatus::kOk, 30.0);
  // --retry-failed: A again, in another batch
  std::vector<std::string> paths = WriteTwoShards(shards, {a_failed, b}, {a_ok, c});
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(ReadSummary(paths[0]).size(), 2u);
  EXPECT_EQ(ReadSummary(paths[0]).front().task_id, a_failed.task_id);
  std::map<std::string, TaskStatus> finished = shards.Finished();
  ASSERT_EQ(finished.size(), 3u);
  EXPECT_EQ(finished.at(a_ok.task_id), TaskStatus::kOk);
  EXPECT_EQ(shards.Details().at(b.task_id), ResultDetail::kSummary);
  // The merge takes A from the newer shard, whatever the shards' names.
  MergeOptions merge;
  merge.sources = ShardFiles(shards.dir());
  EXPECT_EQ(merge.sources, paths);
  merge.provenance.detail = ResultDetail::kSummary;
  ASSERT_EQ(MergeResults(OutputPaths(out_), merge), 3u);
  EXPECT_EQ(ReadTask(out_, a_ok.task_id).status, TaskStatus::kOk);
  EXPECT_EQ(ReadTask(out_, a_ok.task_id).result.summary.makespan_s, 10.0);
}

TEST_F(ShardDirectoryTest, AShardWithoutManifestLinesIsReadAndCountsAsNewest) {
  ShardDirectory shards(OutputPaths(out_).shards());
  shards.Open();
  const TaskRecord a_failed = Record(0, TaskStatus::kFailed, 0.0);
  const TaskRecord b = Record(1, TaskStatus::kOk, 20.0);
  shards.Write({a_failed, b}, Provenance{});
  const fs::path manifest = fs::path(shards.dir()) / "manifest.jsonl";
  std::string before;
  {
    std::ifstream in(manifest);
    before.assign(std::istreambuf_iterator<char>(in), {});
  }
  // kill -9 between the rename of the second shard and its manifest lines (one torn line).
  // Stored at per_job: the shard's /meta@detail, read when it has no manifest lines.
  std::vector<TaskRecord> per_job = {Record(0, TaskStatus::kOk, 10.0),
                                     Record(2, TaskStatus::kOk, 30.0)};
  for (TaskRecord& record : per_job) record.detail = ResultDetail::kPerJob;
  shards.Write(per_job, Provenance{});
  std::ofstream(manifest, std::ios::trunc) << before << "{\"id\":\"trunc";
  std::map<std::string, TaskStatus> finished = shards.Finished();
  ASSERT_EQ(finished.size(), 3u);
  EXPECT_EQ(finished.at(a_failed.task_id), TaskStatus::kOk);
  std::vector<std::string> paths = shards.ShardPaths();
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(ReadSummary(paths[1]).size(), 2u);  // the unlisted shard comes last
  EXPECT_EQ(ReadSummary(paths[1]).front().status, TaskStatus::kOk);
  // Status and detail in one pass: the unlisted shard's from its file (one opening), b's from
  // its manifest line.
  const SummaryWithDetail read = ReadSummaryWithDetail(paths[1]);
  ASSERT_EQ(read.rows.size(), 2u);
  EXPECT_EQ(read.detail, ResultDetail::kPerJob);
  EXPECT_EQ(read.detail, ReadFileDetail(paths[1]));
  const std::map<std::string, ShardDirectory::Stored> newest = shards.Newest();
  ASSERT_EQ(newest.size(), 3u);
  for (const SummaryRow& row : read.rows) {
    EXPECT_EQ(newest.at(row.task_id).status, row.status);
    EXPECT_EQ(newest.at(row.task_id).detail, ResultDetail::kPerJob);
  }
  EXPECT_EQ(newest.at(b.task_id).detail, ResultDetail::kSummary);
  EXPECT_EQ(shards.Details().at(b.task_id), ResultDetail::kSummary);
  // A shard whose file is gone (its rename lost) does not count, though its lines remain.
  fs::remove(paths[0]);
  EXPECT_EQ(shards.Finished().count(b.task_id), 0u);
}

TEST_F(ShardDirectoryTest, ACorruptShardOfTwoTasksReportsBothAndKeepsTheOtherShard) {
  ShardDirectory shards(OutputPaths(out_).shards());
  const TaskRecord a = Record(0, TaskStatus::kOk, 10.0);
  const TaskRecord b = Record(1, TaskStatus::kOk, 20.0);
  const TaskRecord c = Record(2, TaskStatus::kOk, 30.0);
  const TaskRecord d = Record(3, TaskStatus::kOk, 40.0);
  const std::vector<std::string> paths = WriteTwoShards(shards, {a, b}, {c, d});
  ASSERT_EQ(paths.size(), 2u);
  {  // three bytes flipped in the middle of the second shard
    std::fstream file(paths[1], std::ios::in | std::ios::out | std::ios::binary);
    const auto middle = static_cast<std::streamoff>(fs::file_size(paths[1]) / 2);
    char bytes[3];
    file.seekg(middle);
    file.read(bytes, 3);
    for (char& byte : bytes) byte = static_cast<char>(~byte);
    file.seekp(middle);
    file.write(bytes, 3);
  }
  const std::vector<CorruptShard> corrupt = shards.Verify(/*quarantine=*/true);
  ASSERT_EQ(corrupt.size(), 1u);
  EXPECT_EQ(corrupt[0].path, paths[1]);
  ASSERT_EQ(corrupt[0].tasks.size(), 2u);
  EXPECT_EQ(corrupt[0].tasks[0].id, c.task_id);
  EXPECT_EQ(corrupt[0].tasks[0].task_index, 2);
  EXPECT_EQ(corrupt[0].tasks[1].id, d.task_id);
  EXPECT_EQ(corrupt[0].tasks[1].task_index, 3);
  EXPECT_TRUE(fs::exists(paths[1] + ".corrupt"));
  EXPECT_FALSE(fs::exists(paths[1]));
  // Both of its tasks count as not finished; the intact shard's two tasks stay.
  const std::map<std::string, TaskStatus> finished = shards.Finished();
  EXPECT_EQ(finished.size(), 2u);
  EXPECT_EQ(finished.count(a.task_id), 1u);
  EXPECT_EQ(finished.count(b.task_id), 1u);
  EXPECT_EQ(shards.ShardPaths(), std::vector<std::string>{paths[0]});
}

TEST_F(ShardDirectoryTest, ShardFilesLeavesOutACorruptShardAndNamesItsTasks) {
  ShardDirectory shards(OutputPaths(out_).shards());
  const TaskRecord b = Record(1, TaskStatus::kOk, 20.0);
  const TaskRecord c = Record(2, TaskStatus::kOk, 30.0);
  const std::vector<std::string> paths =
      WriteTwoShards(shards, {Record(0, TaskStatus::kOk, 10.0)}, {b, c});
  ASSERT_EQ(paths.size(), 2u);
  fs::resize_file(paths[1], fs::file_size(paths[1]) / 2);  // truncated
  std::vector<std::string> skipped;
  EXPECT_EQ(ShardFiles(shards.dir(), &skipped), std::vector<std::string>{paths[0]});
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0].find(paths[1]), std::string::npos) << skipped[0];
  EXPECT_NE(skipped[0].find(b.task_id), std::string::npos) << skipped[0];
  EXPECT_NE(skipped[0].find(c.task_id), std::string::npos) << skipped[0];
  EXPECT_TRUE(fs::exists(paths[1]));  // nothing moved
  // The merge of what is left holds the intact shard's task.
  MergeOptions merge;
  merge.sources = ShardFiles(shards.dir());
  merge.provenance.detail = ResultDetail::kSummary;
  EXPECT_EQ(MergeResults(OutputPaths(out_), merge), 1u);
}

}  // namespace
}  // namespace adaptsim
