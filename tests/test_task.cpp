// TaskConfig: canonical JSON, content-hash ids, FromJson round trip and errors.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <set>

#include <gtest/gtest.h>

#include "adaptsim/content_hash.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/task.hpp"

namespace adaptsim {
namespace {

TaskConfig BaseTask() {
  TaskConfig task;
  task.trace_path = "/data/a.trace";
  task.throughputs_path = "/data/t.json";
  task.policy = "max_min_fairness";
  task.seed = 7;
  task.simulation.num_gpus = 32;
  task.policy_options = {{"face_rule", "fill"}, {"face_position", 0.5}};
  return task;
}

TEST(TaskConfigTest, IdIs32LowercaseHexDigits) {
  std::string id = BaseTask().Id();
  ASSERT_EQ(id.size(), 32u);
  for (char c : id) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) << id;
  EXPECT_EQ(id, BaseTask().Id());
}

TEST(TaskConfigTest, IdIgnoresKeyOrderOfPolicyOptions) {
  TaskConfig a = BaseTask();
  TaskConfig b = BaseTask();
  a.policy_options = nlohmann::json::parse(R"({"face_rule": "fill", "face_position": 0.5})");
  b.policy_options = nlohmann::json::parse(R"({"face_position": 0.5, "face_rule": "fill"})");
  EXPECT_EQ(a.Id(), b.Id());
}

TEST(TaskConfigTest, IdChangesWithEveryResultRelevantField) {
  std::vector<std::function<void(TaskConfig&)>> changes = {
      [](TaskConfig& t) { t.trace_path = "/data/b.trace"; },
      [](TaskConfig& t) { t.throughputs_path = "/data/u.json"; },
      [](TaskConfig& t) { t.policy = "fifo"; },
      [](TaskConfig& t) { t.seed = 8; },
      [](TaskConfig& t) { t.policy_options["face_position"] = 0.25; },
      [](TaskConfig& t) { t.simulation.num_gpus = 64; },
      [](TaskConfig& t) { t.simulation.round_duration_s = 360; },
      [](TaskConfig& t) { t.simulation.restart_overhead_s = 10; },
      [](TaskConfig& t) { t.simulation.restart_slack_s = 0; },
      [](TaskConfig& t) { t.simulation.deadline_factor = 1.0; },
      [](TaskConfig& t) { t.simulation.allocation_reset_interval_s = 0; },
      [](TaskConfig& t) { t.simulation.max_failed_attempts = 3; },
      [](TaskConfig& t) { t.simulation.idle_round_start = IdleRoundStart::kArrival; },
      [](TaskConfig& t) { t.trace_hash = "0123"; },
      [](TaskConfig& t) { t.throughputs_hash = "4567"; },
  };
  std::set<std::string> ids = {BaseTask().Id()};
  for (const auto& change : changes) {
    TaskConfig task = BaseTask();
    change(task);
    EXPECT_TRUE(ids.insert(task.Id()).second) << task.ToJson().dump();
  }
}

// The reference's round start is the default and is not written, so ids of tasks from before the
// option existed are unchanged; the other value round-trips.
TEST(TaskConfigTest, IdleRoundStartIsWrittenOnlyWhenNotTheReferences) {
  EXPECT_FALSE(BaseTask().ToJson().contains("idle_round_start"));
  TaskConfig task = BaseTask();
  task.simulation.idle_round_start = IdleRoundStart::kArrival;
  EXPECT_EQ(task.ToJson()["idle_round_start"], "arrival");
  TaskConfig back = TaskConfig::FromJson(task.ToJson(), "test");
  EXPECT_EQ(back.simulation.idle_round_start, IdleRoundStart::kArrival);
  EXPECT_EQ(back.Id(), task.Id());
  nlohmann::json bad = task.ToJson();
  bad["idle_round_start"] = "later";
  EXPECT_THROW(TaskConfig::FromJson(bad, "test"), InputError);
}

TEST(TaskConfigTest, BudgetsAreNotPartOfTheId) {
  TaskConfig task = BaseTask();
  task.simulation.max_wall_time_s = 60;
  task.simulation.max_rounds = 100;
  EXPECT_EQ(task.Id(), BaseTask().Id());
  EXPECT_FALSE(task.ToJson().contains("max_wall_time_s"));
  EXPECT_EQ(task.ToJson()["max_rounds"], 100);  // still stored with the task
}

TEST(TaskConfigTest, WithContentHashesTheIdIgnoresWhereTheDataLives) {
  TaskConfig a = BaseTask();
  a.trace_hash = "aaaa";
  a.throughputs_hash = "bbbb";
  TaskConfig b = a;
  b.trace_path = "/elsewhere/copy.trace";
  b.throughputs_path = "/elsewhere/t.json";
  EXPECT_EQ(a.Id(), b.Id());
  EXPECT_NE(a.Id(), BaseTask().Id());  // without hashes, the paths identify the inputs
  b.trace_hash = "cccc";               // other content: other id
  EXPECT_NE(a.Id(), b.Id());
}

TEST(TaskConfigTest, FileContentHashDependsOnBytesOnly) {
  std::string dir = ::testing::TempDir();
  std::string p1 = dir + "/adaptsim_hash_a_" + std::to_string(::getpid());
  std::string p2 = dir + "/adaptsim_hash_b_" + std::to_string(::getpid());
  { std::ofstream(p1) << "same bytes"; }
  { std::ofstream(p2) << "same bytes"; }
  EXPECT_EQ(FileContentHash(p1), FileContentHash(p2));
  EXPECT_EQ(FileContentHash(p1).size(), 32u);
  { std::ofstream(p2) << "other bytes"; }
  EXPECT_NE(FileContentHash(p1), FileContentHash(p2));
  std::remove(p1.c_str());
  std::remove(p2.c_str());
  EXPECT_THROW(FileContentHash(p1), InputError);
}

TEST(TaskConfigTest, FromJsonInvertsToJson) {
  TaskConfig task = BaseTask();
  task.seed = 18446744073709551615ull;  // the full uint64 range survives
  task.simulation.round_duration_s = 360.5;
  task.simulation.max_rounds = 12345;
  TaskConfig back = TaskConfig::FromJson(nlohmann::json::parse(task.ToJson().dump()));
  EXPECT_EQ(back.ToJson(), task.ToJson());
  EXPECT_EQ(back.Id(), task.Id());
  EXPECT_EQ(back.trace_path, task.trace_path);
  EXPECT_EQ(back.seed, task.seed);
  EXPECT_EQ(back.simulation.round_duration_s, 360.5);
  EXPECT_EQ(back.simulation.max_rounds, 12345);
  EXPECT_EQ(back.policy_options, task.policy_options);
}

InputError FromJsonError(const nlohmann::json& json) {
  try {
    TaskConfig::FromJson(json, "ctx");
  } catch (const InputError& error) {
    return error;
  }
  ADD_FAILURE() << "no InputError for " << json.dump();
  return InputError("", 0, "", "");
}

TEST(TaskConfigTest, FromJsonNamesTheBadField) {
  nlohmann::json good = BaseTask().ToJson();
  nlohmann::json missing = good;
  missing.erase("num_gpus");
  EXPECT_EQ(FromJsonError(missing).field(), "num_gpus");
  EXPECT_EQ(FromJsonError(missing).file(), "ctx");
  nlohmann::json mistyped = good;
  mistyped["policy"] = 3;
  EXPECT_EQ(FromJsonError(mistyped).field(), "policy");
  nlohmann::json negative_seed = good;
  negative_seed["seed"] = -1;
  EXPECT_EQ(FromJsonError(negative_seed).field(), "seed");
  nlohmann::json unknown = good;
  unknown["colour"] = "red";
  EXPECT_EQ(FromJsonError(unknown).field(), "colour");
  EXPECT_EQ(FromJsonError(nlohmann::json::array()).field(), "");
}

}  // namespace
}  // namespace adaptsim
