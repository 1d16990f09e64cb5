// The sweep worker's cache of parsed inputs (include/adaptsim/input_cache.hpp): a task reads
// through it exactly what it would read from the file, and a changed file is read again.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "adaptsim/engine_tasks.hpp"
#include "adaptsim/input_cache.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

std::string TraceText(const Trace& trace) {
  std::ostringstream out;
  WriteTrace(out, trace);
  return out.str();
}

TEST(InputCache, ThroughputsAreParsedOnceAndEqualAFreshRead) {
  ADAPTSIM_REQUIRE_DATA();
  const std::string path = testing::TaccThroughputsPath();
  InputCache cache;
  std::shared_ptr<const ThroughputSource> first = cache.Throughputs(path);
  std::shared_ptr<const ThroughputSource> second = cache.Throughputs(path);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_EQ(cache.parsed(), 1u);
  EXPECT_EQ(cache.hits(), 1u);
  const auto* cached = dynamic_cast<const ThroughputTable*>(first.get());
  ASSERT_NE(cached, nullptr);
  EXPECT_EQ(cached->entries(), ThroughputTable::ReadJson(path).entries());
}

TEST(InputCache, AChangedTraceIsReadAgain) {
  ADAPTSIM_REQUIRE_DATA();
  const Trace canonical = ReadTrace(testing::CanonicalTracePath());
  const fs::path path = fs::path(::testing::TempDir()) / "input_cache.trace";
  Trace head = canonical;
  head.jobs.resize(5);
  {
    std::ofstream out(path);
    WriteTrace(out, head);
  }
  InputCache cache;
  EXPECT_EQ(TraceText(cache.ReadTrace(path.string())), TraceText(head));
  EXPECT_EQ(TraceText(cache.ReadTrace(path.string())), TraceText(head));
  EXPECT_EQ(cache.parsed(), 1u);
  head.jobs = canonical.jobs;
  head.jobs.resize(7);  // other bytes, other size: a new stamp
  {
    std::ofstream out(path);
    WriteTrace(out, head);
  }
  EXPECT_EQ(TraceText(cache.ReadTrace(path.string())), TraceText(head));
  EXPECT_EQ(cache.parsed(), 2u);
  fs::remove(path);
  EXPECT_ANY_THROW(cache.ReadTrace(path.string()));  // gone: the same error as without a cache
}

TEST(InputCache, ATaskRunThroughTheCacheGivesTheSameResult) {
  ADAPTSIM_REQUIRE_DATA();
  TaskConfig task;
  task.trace_path = testing::CanonicalTracePath();
  task.throughputs_path = testing::TaccThroughputsPath();
  task.policy = "gandiva_fair";
  InputCache cache;
  for (int run = 0; run < 2; ++run) {  // the second run reads both inputs from memory
    const SimulationResult cached = RunTask(task, {}, {}, &cache);
    const SimulationResult direct = RunTask(task);
    ASSERT_EQ(cached.jobs.size(), direct.jobs.size());
    for (std::size_t j = 0; j < direct.jobs.size(); ++j) {
      EXPECT_EQ(cached.jobs[j].completion_time_s, direct.jobs[j].completion_time_s);
    }
    EXPECT_EQ(cached.rounds.size(), direct.rounds.size());
    EXPECT_EQ(cached.summary.makespan_s, direct.summary.makespan_s);
  }
  EXPECT_EQ(cache.parsed(), 2u);
  EXPECT_EQ(cache.hits(), 2u);
}

}  // namespace
}  // namespace adaptsim
