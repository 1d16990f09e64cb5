// Bad input: every case gives an InputError naming the file, the line and the field.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/simulator.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "policies/gavel/gavel_mechanism.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {
namespace {

const char* kGoodLine =
    "LM (batch size 10)\tpython3 main.py\tlanguage_modeling\t--steps\t1\t134583\t1\tgns\t1\t"
    "-1.000000\t1418\t0";

// Replaces TAB-separated field `index` of the good line.
std::string WithField(int index, const std::string& value) {
  std::vector<std::string> fields;
  std::stringstream in(kGoodLine);
  for (std::string f; std::getline(in, f, '\t');) fields.push_back(f);
  fields[index] = value;
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "\t" : "") + fields[i];
  return line;
}

InputError ParseError(const std::string& text) {
  std::istringstream in(text);
  try {
    ParseTrace(in, "bad.trace");
  } catch (const InputError& error) {
    return error;
  }
  ADD_FAILURE() << "no InputError for:\n" << text;
  return InputError("", 0, "", "");
}

struct TraceCase {
  const char* name;
  std::string text;
  int line;
  const char* field;
};

class BadTrace : public ::testing::TestWithParam<TraceCase> {};

TEST_P(BadTrace, NamesFileLineAndField) {
  const TraceCase& c = GetParam();
  InputError error = ParseError(c.text);
  EXPECT_EQ(error.file(), "bad.trace");
  EXPECT_EQ(error.line(), c.line);
  EXPECT_EQ(error.field(), c.field);
  EXPECT_NE(std::string(error.what()).find("bad.trace:" + std::to_string(c.line)),
            std::string::npos)
      << error.what();
}

std::string TwoLines(const std::string& second) {
  return std::string(kGoodLine) + "\n" + second;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadTrace,
    ::testing::Values(
        TraceCase{"too_few_fields", "LM (batch size 10)\tpython3\t1", 1, ""},
        TraceCase{"too_many_fields", std::string(kGoodLine) + "\textra", 1, ""},
        TraceCase{"non_numeric_steps", WithField(5, "many"), 1, "total_steps"},
        TraceCase{"zero_steps", WithField(5, "0"), 1, "total_steps"},
        TraceCase{"scale_factor_3", WithField(6, "3"), 1, "scale_factor"},
        TraceCase{"scale_factor_text", WithField(6, "two"), 1, "scale_factor"},
        TraceCase{"unknown_mode", WithField(7, "elastic"), 1, "mode"},
        TraceCase{"negative_duration", WithField(10, "-5"), 1, "duration"},
        TraceCase{"negative_arrival", WithField(11, "-1"), 1, "arrival_time"},
        TraceCase{"decreasing_arrivals", WithField(11, "100") + "\n" + kGoodLine, 2,
                  "arrival_time"},
        TraceCase{"malformed_job_type", WithField(0, "LM batch 10"), 1, "job_type"},
        TraceCase{"zero_batch_size", WithField(0, "LM (batch size 0)"), 1, "job_type"},
        TraceCase{"bad_needs_data_dir", WithField(4, "yes"), 1, "needs_data_dir"},
        TraceCase{"bad_priority", WithField(8, "0"), 1, "priority_weight"},
        TraceCase{"second_line_bad", TwoLines(WithField(5, "1.5e")), 2, "total_steps"}),
    [](const ::testing::TestParamInfo<TraceCase>& info) { return std::string(info.param.name); });

TEST(BadTraceFile, EmptyTraceIsAnError) {
  InputError error = ParseError("");
  EXPECT_NE(std::string(error.what()).find("no jobs"), std::string::npos);
}

TEST(BadTraceFile, MissingFileNamesThePath) {
  try {
    ReadTrace("/nonexistent/jobs.trace");
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "/nonexistent/jobs.trace");
  }
}

// Unique per test and process: CTest runs tests in parallel processes.
/// A file in the temporary folder, removed when the test is done with it.
struct TempFile {
  std::string path;
  explicit TempFile(std::string p) : path(std::move(p)) {}
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() { std::filesystem::remove(path); }
};

TempFile WriteTemp(const std::string& name, const std::string& text) {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               (std::string(info->test_suite_name()) + "." + info->name() + "." +
                                std::to_string(::getpid()) + "." + name);
  std::ofstream(path) << text;
  return TempFile(path.string());
}

TEST(BadThroughputs, MalformedJsonNamesTheLine) {
  TempFile path = WriteTemp("adaptsim_bad.json", "{\n  \"v100\": {\n    \"x\": [1,\n}\n");
  try {
    ThroughputTable::ReadJson(path.path);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path.path);
    EXPECT_EQ(error.line(), 4);
  }
}

TEST(BadThroughputs, AFolderIsAClearError) {
  const std::string folder = std::filesystem::temp_directory_path().string();
  try {
    ThroughputTable::ReadJson(folder);
    FAIL() << "accepted a folder";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), folder);
    EXPECT_NE(std::string(error.what()).find("is not a regular file"), std::string::npos);
  }
}

TEST(BadThroughputs, MissingWorkerTypeAndBadKey) {
  TempFile no_v100 = WriteTemp("adaptsim_nov100.json", R"({"k80": {}})");
  EXPECT_THROW(ThroughputTable::ReadJson(no_v100.path), InputError);
  TempFile bad_key = WriteTemp("adaptsim_badkey.json", R"({"v100": {"LM": {"null": 1.0}}})");
  try {
    ThroughputTable::ReadJson(bad_key.path);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "v100.LM");
  }
  TempFile negative = WriteTemp("adaptsim_negative.json",
                                R"j({"v100": {"('LM (batch size 10)', 1)": {"null": -2.0}}})j");
  EXPECT_THROW(ThroughputTable::ReadJson(negative.path), InputError);
}

TEST(BadThroughputs, SeveralTypesFromOneParse) {
  TempFile two = WriteTemp("adaptsim_two_types.json",
                           R"j({"v100": {"('LM (batch size 10)', 1)": {"null": 2.0}},
                                "k80": {"('LM (batch size 10)', 1)": {"null": 0.5},
                                        "('LM (batch size 10)', 2)": {"null": 0.9}}})j");
  const std::vector<ThroughputTable> tables =
      ThroughputTable::ReadJsonTypes(two.path, {"k80", "v100"});
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0].entries(), ThroughputTable::ReadJson(two.path, "k80").entries());
  EXPECT_EQ(tables[1].entries(), ThroughputTable::ReadJson(two.path, "v100").entries());
  EXPECT_EQ(tables[0].entries().size(), 2u);
  try {
    ThroughputTable::ReadJsonTypes(two.path, {"v100", "p100", "a100"});
    FAIL() << "accepted a type the file does not hold";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), two.path);
    EXPECT_EQ(error.field(), "p100");  // the first missing type, in the order asked
  }
}

// Engine-level input checks need a table; a one-entry JSON is enough.
class EngineInput : public ::testing::Test {
 protected:
  SimulationResult Run(const std::string& trace_text, int gpus, const std::string& table_json) {
    TempFile trace_path = WriteTemp("adaptsim_engine.trace", trace_text);
    TempFile table_path = WriteTemp("adaptsim_engine.json", table_json);
    TaskConfig task;
    task.trace_path = trace_path.path;
    task.throughputs_path = table_path.path;
    task.policy = "gandiva_fair";
    task.simulation.num_gpus = gpus;
    return RunTask(task);
  }
  const std::string table_ = R"j({"v100": {"('LM (batch size 10)', 1)": {"null": 94.9},
                                          "('LM (batch size 10)', 2)": {"null": 0.0}}})j";
};

TEST_F(EngineInput, ScaleFactorLargerThanCluster) {
  try {
    Run(WithField(6, "4"), 2, table_);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.line(), 1);
    EXPECT_EQ(error.field(), "scale_factor");
  }
}

TEST_F(EngineInput, JobTypeMissingFromThroughputs) {
  try {
    Run(WithField(0, "ResNet-50 (batch size 32)"), 4, table_);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "job_type");
    EXPECT_NE(std::string(error.what()).find("ResNet-50 (batch size 32)"), std::string::npos);
  }
}

TEST_F(EngineInput, ZeroThroughputIsAClearError) {
  try {
    Run(WithField(6, "2"), 4, table_);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("zero throughput"), std::string::npos);
  }
}

TEST_F(EngineInput, UnknownModel) {
  std::string table = R"j({"v100": {"('GPT (batch size 10)', 1)": {"null": 5.0}}})j";
  EXPECT_THROW(Run(WithField(0, "GPT (batch size 10)"), 4, table), InputError);
}

TEST(BadPolicy, UnknownPolicyNameListsTheKnownOnes) {
  try {
    MakePolicy("round_robin", nlohmann::json::object(), "spec.toml");
    FAIL();
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "policy");
    EXPECT_NE(std::string(error.what()).find("gandiva_fair"), std::string::npos);
  }
}

TEST(BadPolicy, UnknownOptionAndOutOfRangeValue) {
  EXPECT_THROW(MakePolicy("gandiva_fair", {{"alpha", 0.2}}), InputError);
  EXPECT_THROW(MakePolicy("max_min_fairness", {{"face_rule", "vendored_ecos"}}), InputError);
  EXPECT_THROW(MakePolicy("max_min_fairness", {{"face_position", 1.5}}), InputError);
  EXPECT_THROW(MakePolicy("replay", nlohmann::json::object()), InputError);
  EXPECT_THROW(MakePolicy("replay", {{"schedule", "/nonexistent.json"}}), InputError);
  EXPECT_THROW(MakePolicy("fifo", {{"respect_capacity", 1}}), InputError);
}

// The test aid `fail_after` exists only in the test build of the command line; the library's
// table does not have it, and nothing can be added once the table has been read.
TEST(PolicyRegistry, TestAidsAreNotInTheShippedTable) {
  EXPECT_THROW(MakePolicy("fail_after", nlohmann::json::object()), InputError);
  for (const PolicyInfo& info : RegisteredPolicies()) EXPECT_NE(info.name, "fail_after");
  EXPECT_THROW(RegisterTestPolicy({{"late", "registered too late"},
                                   [](const nlohmann::json&, const std::string&, std::uint64_t) {
                                     return PolicyInstance{};
                                   }}),
               std::logic_error);
}

TEST(BadOptions, SimulationOptionsOutOfRange) {
  SimulationOptions options;
  options.deadline_factor = 0.5;
  EXPECT_THROW(options.Validate(), InputError);
  options = {};
  options.num_gpus = 0;
  EXPECT_THROW(options.Validate(), InputError);
  options = {};
  options.round_duration_s = -120;
  EXPECT_THROW(options.Validate(), InputError);
  options = {};
  options.deadline_factor = 1.0;  // the comparison runs' factor is valid
  EXPECT_NO_THROW(options.Validate());
}

}  // namespace
}  // namespace adaptsim::testing
