// The sweep's closing table (src/sweep/sweep_report.cpp): each row's scenario names its own
// trace's jobs and GPUs, and a trace's name is added where two traces would share a label; a
// failed task prints no metrics (docs/results-format.md: it has none).
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/labels.hpp"
#include "adaptsim/result_fields.hpp"
#include "sweep/sweep_report.hpp"

namespace adaptsim {
namespace {

TEST(ScenarioLabels, OneLabelPerTraceAndTraceNamesWhereLabelsCollide) {
  const std::vector<std::string> labels =
      BuiltinLabels().ScenarioLabels({{120, 32, "120_0.2_5_100_40_25_0"},
                                      {120, 32, "120_0.2_5_100_40_25_1"},
                                      {0, 32, "120_0.2_5_100_40_25_1"},
                                      {60, 32, "60_jobs"},
                                      {120, 64, "120_0.2_5_100_40_25_0"}});
  EXPECT_EQ(labels,
            (std::vector<std::string>{
                "120 jobs · 32 GPUs · 120_0.2_5_10", "120 jobs · 32 GPUs · 120_0.2_5_10",
                "120 jobs · 32 GPUs · 120_0.2_5_10", "60 jobs · 32 GPUs", "120 jobs · 64 GPUs"}));
  // A trace whose only task failed (no job count) is named by its file.
  EXPECT_EQ(BuiltinLabels().ScenarioLabels({{0, 8, "only_failed"}, {40, 8, "other"}}),
            (std::vector<std::string>{"only_failed", "40 jobs · 8 GPUs"}));
}

TaskRecord Record(int index, const std::string& trace, int num_jobs, TaskStatus status) {
  TaskRecord record;
  record.task_index = index;
  record.keys.policy = "gandiva_fair";
  record.keys.trace_path = "/data/" + trace + ".trace";
  record.keys.num_gpus = 32;
  record.result.status = status;
  if (status == TaskStatus::kOk) {
    record.result.summary.num_jobs = num_jobs;
    record.result.summary.mean_jct_s = 1000.0 + index;
  } else {
    record.result.summary = AbsentMetrics();
  }
  return record;
}

std::vector<std::string> TableLines(const SweepReport& report) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  report.PrintTable(out);
  std::fclose(out);
  std::stringstream text(std::string(buffer, size));
  std::free(buffer);
  std::vector<std::string> lines;
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

TEST(SweepReport, EachRowNamesItsOwnScenario) {
  SweepReport report;
  report.Add(Record(0, "a", 120, TaskStatus::kOk));
  report.Add(Record(1, "b", 120, TaskStatus::kOk));
  report.Add(Record(2, "c", 60, TaskStatus::kOk));
  report.Add(Record(3, "b", 0, TaskStatus::kFailed));
  const std::vector<std::string> lines = TableLines(report);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[1].rfind("120 jobs · 32 GPUs · a ", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("120 jobs · 32 GPUs · b ", 0), 0u) << lines[2];
  EXPECT_EQ(lines[3].rfind("60 jobs · 32 GPUs ", 0), 0u) << lines[3];
  EXPECT_EQ(lines[4].rfind("120 jobs · 32 GPUs · b ", 0), 0u) << lines[4];
  // The policy column starts at the same character on every row ("·" is one character).
  const auto column = [](const std::string& line) {
    std::size_t characters = 0;
    for (std::size_t i = 0; i < line.find("Gandiva-Fair"); ++i) {
      characters += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80;
    }
    return characters;
  };
  EXPECT_EQ(column(lines[1]), 31u);
  EXPECT_EQ(column(lines[3]), 31u);
  // The failed task prints its status and no numbers.
  std::istringstream row(lines[4]);
  std::vector<std::string> tokens;
  for (std::string token; row >> token;) tokens.push_back(token);
  EXPECT_EQ(std::vector<std::string>(tokens.end() - 6, tokens.end()),
            (std::vector<std::string>{"failed", "-", "-", "-", "-", "-"}))
      << lines[4];
  EXPECT_EQ(lines[5], "4 tasks, 1 failed or timed out");
}

}  // namespace
}  // namespace adaptsim
