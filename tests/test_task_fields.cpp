// The task configuration's field list (adaptsim/task_fields.hpp): names unique, every field
// round-trips through the canonical JSON, named arguments (adaptsim.run keywords, adaptsim run
// flags) set the declared fields, and the docs name every sweep key, keyword and stored key.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

std::vector<ConfigField> Fields() {
  std::vector<ConfigField> fields;
  const TaskConfig probe;
  VisitTaskConfigFields(probe,
                        [&](const ConfigField& field, const auto&) { fields.push_back(field); });
  return fields;
}

TEST(TaskFields, KeysAxesFlagsAndKeywordsAreUnique) {
  std::set<std::string> keys, axes, flags, keywords;
  for (const ConfigField& field : Fields()) {
    EXPECT_TRUE(keys.insert(JsonLabel(field)).second) << field.key;
    EXPECT_FALSE(field.doc.empty()) << field.key;
    if (!AxisName(field).empty()) {
      EXPECT_TRUE(axes.insert(AxisName(field)).second) << field.key;
    }
    if (!FlagName(field).empty()) {
      EXPECT_TRUE(flags.insert(FlagName(field)).second) << field.key;
    }
    if (!KwargName(field).empty()) {
      EXPECT_TRUE(keywords.insert(KwargName(field)).second) << field.key;
    }
    // A field written inside another must come after it (ToJson writes into the parent).
    if (!field.json_parent.empty()) {
      EXPECT_TRUE(keys.count(std::string(field.json_parent)) > 0) << field.key;
    }
  }
  EXPECT_EQ(FlagName(Fields()[0]), "");  // production: its own flag group
  EXPECT_TRUE(flags.count("--round-duration-s") > 0);
  EXPECT_TRUE(keywords.count("gpus") > 0);
  EXPECT_TRUE(axes.count("seeds") > 0);
}

/// A task with every field away from its default (and every optional one set).
TaskConfig EveryFieldSet() {
  TaskConfig task;
  task.trace_path = "/data/a.trace";
  task.throughputs_path = "/data/t.json";
  task.trace_hash = "0123";
  task.throughputs_hash = "4567";
  task.policy = "pollux";
  task.seed = 3;
  task.simulation = {16,
                     60.0,
                     10.0,
                     2.0,
                     1.25,
                     500.0,
                     3,
                     IdleRoundStart::kArrival,
                     Cluster::Parse("v100=8,k80=8")};
  task.interval = {WrittenNumber{2, true}, WrittenNumber{90.5, false}, WrittenNumber{20, true},
                   WrittenNumber{0.5, false}, IsolatedFtf::kPaper};
  task.policy_options = {{"p", -2.0}};
  task.production = ProductionSource{};
  return task;
}

TEST(TaskFields, EveryFieldRoundTripsThroughTheCanonicalJson) {
  const TaskConfig task = EveryFieldSet();
  const nlohmann::json json = task.ToJson();
  const TaskConfig back = TaskConfig::FromJson(nlohmann::json::parse(json.dump()), "test");
  EXPECT_EQ(back.ToJson(), json);
  EXPECT_EQ(back.Id(), task.Id());
  // Field by field, through the declarations: nothing is lost on the way.
  std::map<std::string, nlohmann::json> written;
  VisitTaskConfigFields(task, [&](const ConfigField& field, const auto& member) {
    written[JsonLabel(field)] = WriteFieldJson(member);
  });
  VisitTaskConfigFields(back, [&](const ConfigField& field, const auto& member) {
    EXPECT_EQ(WriteFieldJson(member), written.at(JsonLabel(field))) << field.key;
  });
  // The identity drops the paths whose content hash is set.
  EXPECT_FALSE(task.IdentityJson().contains("trace_path"));
  EXPECT_FALSE(task.IdentityJson().contains("throughputs_path"));
}

/// Files the named arguments can point at.
class TaskArguments : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("adaptsim_arguments_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "a.trace") << "a\n";
    std::ofstream(dir_ / "t.json") << "{}";
  }
  void TearDown() override { fs::remove_all(dir_); }

  nlohmann::json Keywords() const {
    return {{"trace", (dir_ / "a.trace").string()},
            {"throughputs", (dir_ / "t.json").string()},
            {"policy", "pollux"},
            {"gpus", 64}};
  }
  InputError Error(const nlohmann::json& arguments, ArgumentNames names) const {
    try {
      TaskConfigFromArguments(arguments, names, "ctx");
    } catch (const InputError& error) {
      return error;
    }
    ADD_FAILURE() << "no InputError for " << arguments.dump();
    return InputError("", 0, "", "");
  }

  fs::path dir_;
};

TEST_F(TaskArguments, KeywordsSetTheirFieldsAndTheRestArePolicyOptions) {
  nlohmann::json keywords = Keywords();
  keywords["interval_s"] = 120;
  keywords["round_duration_s"] = 60;
  keywords["deadline_factor"] = nullptr;  // the default
  keywords["p"] = -0.5;
  const TaskConfig task = TaskConfigFromArguments(keywords, ArgumentNames::kKeyword, "ctx");
  EXPECT_EQ(task.trace_path, (dir_ / "a.trace").lexically_normal().string());
  EXPECT_EQ(task.simulation.num_gpus, 64);
  EXPECT_EQ(task.simulation.round_duration_s, 60.0);
  EXPECT_EQ(task.simulation.deadline_factor, SimulationOptions{}.deadline_factor);
  ASSERT_TRUE(task.interval.interval_s.has_value());
  EXPECT_EQ(*task.interval.interval_s, (WrittenNumber{120, true}));
  EXPECT_EQ(task.policy_options, nlohmann::json({{"p", -0.5}}));
  EXPECT_FALSE(task.trace_hash.empty());  // content hashes filled, as in a sweep
  EXPECT_EQ(task.ToJson()["policy_options"].dump(), R"({"interval_s":120,"p":-0.5})");
  EXPECT_FALSE(task.production.has_value());
  // A table is given key by key over its defaults (as a sweep's [production]); the canonical
  // JSON, read by FromJson, must hold every key.
  keywords["production"] = {{"format", "itp"}, {"min_duration_s", 60}};
  const TaskConfig log = TaskConfigFromArguments(keywords, ArgumentNames::kKeyword, "ctx");
  ASSERT_TRUE(log.production.has_value());
  EXPECT_EQ(log.production->format, ProductionLogFormat::kItp);
  EXPECT_EQ(log.production->select.min_duration_s, 60.0);
  EXPECT_EQ(log.production->rule.seed, ProductionSource{}.rule.seed);
  nlohmann::json partial = log.ToJson();
  partial["production"] = keywords["production"];
  EXPECT_THROW(TaskConfig::FromJson(partial, "ctx"), InputError);
}

TEST_F(TaskArguments, BadArgumentsNameTheirKeywordOrFlag) {
  nlohmann::json missing = Keywords();
  missing.erase("gpus");
  EXPECT_EQ(Error(missing, ArgumentNames::kKeyword).field(), "gpus");
  nlohmann::json range = Keywords();
  range["round_duration_s"] = 0;
  EXPECT_EQ(Error(range, ArgumentNames::kKeyword).field(), "round_duration_s");
  nlohmann::json choice = Keywords();
  choice["idle_round_start"] = "later";
  EXPECT_EQ(Error(choice, ArgumentNames::kKeyword).field(), "idle_round_start");
  nlohmann::json no_file = Keywords();
  no_file["trace"] = (dir_ / "none.trace").string();
  EXPECT_EQ(Error(no_file, ArgumentNames::kKeyword).field(), "trace");
  nlohmann::json round_engine = Keywords();
  round_engine["policy"] = "fifo";
  round_engine["interference"] = 0.5;
  EXPECT_EQ(Error(round_engine, ArgumentNames::kKeyword).field(), "interference");
}

TEST_F(TaskArguments, FlagsAreCommandLineTextAndTheEngineOptionsHaveTheirOwn) {
  const nlohmann::json flags = {{"--trace", (dir_ / "a.trace").string()},
                                {"--throughputs", (dir_ / "t.json").string()},
                                {"--policy", "pollux"},
                                {"--gpus", "64"},
                                {"--interval-s", "240.0"},
                                {"--idle-round-start", "arrival"},
                                {"--policy-option", {"p=-1"}}};
  const TaskConfig task = TaskConfigFromArguments(flags, ArgumentNames::kFlag, "command line");
  EXPECT_EQ(task.simulation.num_gpus, 64);
  EXPECT_EQ(*task.interval.interval_s, (WrittenNumber{240, false}));  // spelled as given
  EXPECT_EQ(task.simulation.idle_round_start, IdleRoundStart::kArrival);
  EXPECT_EQ(task.policy_options, nlohmann::json({{"p", -1}}));
  nlohmann::json text = flags;
  text["--gpus"] = "many";
  EXPECT_EQ(Error(text, ArgumentNames::kFlag).field(), "--gpus");
  // The old spelling, a policy option, points to the flag.
  nlohmann::json old = flags;
  old.erase("--interval-s");
  old["--policy-option"] = {"interval_s=240.0"};
  const InputError error = Error(old, ArgumentNames::kFlag);
  EXPECT_EQ(error.field(), "--policy-option");
  EXPECT_NE(std::string(error.what()).find("--interval-s"), std::string::npos) << error.what();
}

/// `--policy-option KEY=VALUE`: VALUE as JSON, Python's True/False/None as a Python user writes
/// them, other words as strings; text that starts like JSON but is not refused with a hint.
TEST_F(TaskArguments, PolicyOptionTextsAreJsonWithPythonsConstants) {
  nlohmann::json flags = {{"--trace", (dir_ / "a.trace").string()},
                          {"--throughputs", (dir_ / "t.json").string()},
                          {"--policy", "pollux"},
                          {"--gpus", "64"}};
  flags["--policy-option"] = {"a=True", "b=False", "c=None", "d=0.5", "e=[1, 2]", "f={\"g\": 1}",
                              "h=fast", "i=\"7\"", "j=true", "k=x=y", "p=1",      "p=-2"};
  const TaskConfig task = TaskConfigFromArguments(flags, ArgumentNames::kFlag, "command line");
  const nlohmann::json expected = {{"a", true},   {"b", false},      {"c", nullptr}, {"d", 0.5},
                                   {"e", {1, 2}}, {"f", {{"g", 1}}}, {"h", "fast"},  {"i", "7"},
                                   {"j", true},   {"k", "x=y"},      {"p", -2}};  // the later one
  EXPECT_EQ(task.policy_options, expected);
  auto refused = [&](const char* item) {
    nlohmann::json bad = flags;
    bad["--policy-option"] = {item};
    const InputError error = Error(bad, ArgumentNames::kFlag);
    EXPECT_EQ(error.field(), "--policy-option") << item;
    return std::string(error.what());
  };
  EXPECT_NE(refused("l=[True, 1]").find("inside a list or object write true, false and null"),
            std::string::npos);
  EXPECT_NE(refused("m={'a': 1}").find("JSON strings use double quotes"), std::string::npos);
  EXPECT_NE(refused("n=1.2.3").find("quote a string that starts like a number: n='\"1.2.3\"'"),
            std::string::npos);
  EXPECT_NE(refused("novalue").find("expected key=value, got 'novalue'"), std::string::npos);
  EXPECT_NE(refused("=1").find("expected key=value"), std::string::npos);
}

/// The docs name every field where users look for it: a sweep key in docs/sweeps.md, a keyword
/// in docs/python.md, a stored key in docs/results-format.md (`adaptsim run --help` is generated).
TEST(TaskFields, TheDocsNameEveryField) {
  auto read = [](const char* name) {
    std::ifstream in(fs::path(ADAPTSIM_SOURCE_DIR) / "docs" / name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const std::string sweeps = read("sweeps.md"), python = read("python.md"),
                    results = read("results-format.md");
  // Backticked names, appended piecewise (GCC 12's -Wrestrict on "`" + name).
  auto quoted = [](const std::string& name) { return std::string("`").append(name).append("`"); };
  for (const ConfigField& field : Fields()) {
    const std::string axis = AxisName(field), keyword = KwargName(field);
    if (!axis.empty()) {
      EXPECT_NE(sweeps.find(quoted(axis)), std::string::npos) << axis << " in docs/sweeps.md";
    }
    if (!keyword.empty()) {
      EXPECT_NE(python.find(quoted(keyword)), std::string::npos) << keyword << " in docs/python.md";
    }
    EXPECT_NE(results.find(quoted(std::string(field.key))), std::string::npos)
        << field.key << " in docs/results-format.md";
  }
}

}  // namespace
}  // namespace adaptsim
