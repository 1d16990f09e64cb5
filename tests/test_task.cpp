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
#include "adaptsim/task_fields.hpp"

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
      [](TaskConfig& t) { t.simulation.cluster = Cluster::Parse("v100=16,p100=8,k80=8"); },
      [](TaskConfig& t) {
        t.interval.interval_s = WrittenNumber{30.0, false};
      },
      [](TaskConfig& t) {
        t.interval.restart_delay_s = WrittenNumber{10.0, false};
      },
      [](TaskConfig& t) {
        t.interval.interference_slowdown = WrittenNumber{0.1, false};
      },
      [](TaskConfig& t) {
        t.interval.gpus_per_node = WrittenNumber{8.0, true};
      },
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

// The run budget is beside the configuration (RunBudget): configurations stored before it left
// them hold "max_rounds", which still reads, ignored, with the same id.
TEST(TaskConfigTest, TheBudgetIsNotPartOfTheConfiguration) {
  const nlohmann::json json = BaseTask().ToJson();
  EXPECT_FALSE(json.contains("max_rounds"));
  EXPECT_FALSE(json.contains("max_wall_time_s"));
  nlohmann::json stored = json;
  stored["max_rounds"] = 100;
  EXPECT_EQ(TaskConfig::FromJson(stored, "old.h5").Id(), BaseTask().Id());
  EXPECT_EQ(TaskConfig::FromJson(stored, "old.h5").ToJson(), json);
}

// The interval engine's options are typed (IntervalOptions) but written where they were when they
// were policy options: inside policy_options, only when set, with the spelling they were given
// (240 and 240.0 are different JSON, hence different ids, as before).
TEST(TaskConfigTest, IntervalOptionsAreWrittenInsidePolicyOptionsAsGiven) {
  TaskConfig task = BaseTask();
  task.policy = "pollux";
  task.policy_options = {{"p", -1.0}};
  EXPECT_EQ(task.ToJson()["policy_options"], nlohmann::json({{"p", -1.0}}));
  task.interval.interval_s = WrittenNumber{240.0, false};
  task.interval.gpus_per_node = WrittenNumber{4.0, true};
  EXPECT_EQ(task.ToJson()["policy_options"].dump(),
            R"({"gpus_per_node":4,"interval_s":240.0,"p":-1.0})");
  // The same JSON as a task whose options held them, as every earlier version wrote it.
  nlohmann::json earlier = BaseTask().ToJson();
  earlier["policy"] = "pollux";
  earlier["policy_options"] = nlohmann::json::parse(R"({"p": -1.0, "interval_s": 240.0,
                                                        "gpus_per_node": 4})");
  const TaskConfig read = TaskConfig::FromJson(earlier, "old.h5");
  EXPECT_EQ(read.Id(), task.Id());
  EXPECT_EQ(read.policy_options, nlohmann::json({{"p", -1.0}}));  // not the policy's
  ASSERT_TRUE(read.interval.interval_s.has_value());
  EXPECT_EQ(*read.interval.interval_s, (WrittenNumber{240.0, false}));
  EXPECT_FALSE(read.interval.restart_delay_s.has_value());
  TaskConfig integer = task;
  integer.interval.interval_s = WrittenNumber{240.0, true};
  EXPECT_NE(integer.Id(), task.Id());
  EXPECT_EQ(integer.ToJson()["policy_options"]["interval_s"].dump(), "240");
  nlohmann::json bad = earlier;
  bad["policy_options"]["interference"] = 1.0;  // [0, 1)
  try {
    TaskConfig::FromJson(bad, "old.h5");
    ADD_FAILURE() << "interference 1 accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "policy_options.interference");
  }
}

// A round-engine policy has no interval engine: setting its options is an error, not ignored.
TEST(TaskConfigTest, IntervalOptionsOfARoundEnginePolicyAreRefused) {
  TaskConfig task = BaseTask();  // max_min_fairness: the round engine
  EXPECT_NO_THROW(CheckEngineFields(task, "ctx"));
  task.interval.restart_delay_s = WrittenNumber{10.0, false};
  try {
    CheckEngineFields(task, "ctx");
    ADD_FAILURE() << "restart_delay_s accepted for max_min_fairness";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "restart_delay_s");
    EXPECT_NE(std::string(error.what()).find("round engine"), std::string::npos) << error.what();
  }
  task.policy = "tiresias";
  EXPECT_NO_THROW(CheckEngineFields(task, "ctx"));
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
  task.interval.interference_slowdown = WrittenNumber{0.25, false};
  TaskConfig back = TaskConfig::FromJson(nlohmann::json::parse(task.ToJson().dump()));
  EXPECT_EQ(back.ToJson(), task.ToJson());
  EXPECT_EQ(back.Id(), task.Id());
  EXPECT_EQ(back.trace_path, task.trace_path);
  EXPECT_EQ(back.seed, task.seed);
  EXPECT_EQ(back.simulation.round_duration_s, 360.5);
  EXPECT_EQ(back.interval.interference_slowdown, task.interval.interference_slowdown);
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
