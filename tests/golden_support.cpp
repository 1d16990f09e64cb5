#include "golden_support.hpp"

#include <cmath>
#include <fstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "adaptsim/task.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {

std::string GoldenPath(const std::string& name) {
  return DataPath("golden/shockwave_tacc32/tacc_32gpus__" + name + "__simulation.json");
}

GoldenRun LoadGolden(const std::string& name) {
  return LoadGoldenFile(GoldenPath(name));
}

GoldenRun LoadGoldenFile(const std::string& path) {
  std::ifstream in(path);
  nlohmann::ordered_json json = nlohmann::ordered_json::parse(in);
  GoldenRun run;
  run.policy = json["policy"];
  run.makespan_s = json["makespan"];
  run.avg_jct_s = json["avg_jct"];
  run.jct_s = json["jct_list"].get<std::vector<double>>();
  run.ftf_rho = json["finish_time_fairness_list"].get<std::vector<double>>();
  run.ftf_rho_themis = json["finish_time_fairness_themis_list"].get<std::vector<double>>();
  for (const auto& round : json["per_round_schedule"]) {
    std::vector<JobId> jobs;
    std::vector<ScheduledJob> placed;
    for (const auto& [key, workers] : round.items()) {
      jobs.push_back(std::stoi(key));
      placed.push_back({jobs.back(), workers.get<std::vector<int>>()});
    }
    run.round_jobs.push_back(jobs);
    run.round_workers.push_back(placed);
  }
  for (const auto& [job, entries] : json["throughput_timeline"].items()) {
    for (const auto& [r, value] : entries.items()) {
      run.timeline[std::stoi(job)][std::stoi(r)] = {value[0].get<double>(), value[1].get<int>()};
    }
  }
  run.cluster_util = json["cluster_util"];
  run.extension_percentage = json["extension_percentage"];
  run.lease_extensions = json["num_lease_extensions"];
  run.lease_extension_opportunities = json["num_lease_extension_opportunities"];
  run.utilization = json["utilization_list"].get<std::vector<double>>();
  return run;
}

void ExpectJctsMatch(const SimulationResult& result, const GoldenRun& golden, double rel_tol) {
  ASSERT_EQ(result.jobs.size(), golden.jct_s.size());
  for (std::size_t j = 0; j < golden.jct_s.size(); ++j) {
    EXPECT_NEAR(result.jobs[j].jct_s, golden.jct_s[j], rel_tol * golden.jct_s[j]) << "job " << j;
  }
}

void ExpectTimelineMatches(const SimulationResult& result, const GoldenRun& golden) {
  std::size_t golden_entries = 0;
  for (const auto& [job, entries] : golden.timeline) golden_entries += entries.size();
  EXPECT_EQ(result.throughput_timeline.size(), golden_entries);
  for (const ThroughputSample& sample : result.throughput_timeline) {
    auto job = golden.timeline.find(sample.job_id);
    ASSERT_NE(job, golden.timeline.end()) << "job " << sample.job_id;
    auto entry = job->second.find(sample.completion_round);
    ASSERT_NE(entry, job->second.end())
        << "job " << sample.job_id << " round " << sample.completion_round;
    EXPECT_NEAR(sample.steps_per_s, entry->second.first,
                1e-6 * std::abs(entry->second.first) + 1e-9)
        << "job " << sample.job_id << " round " << sample.completion_round;
    EXPECT_EQ(sample.batch_size, entry->second.second)
        << "job " << sample.job_id << " round " << sample.completion_round;
  }
}

SimulationResult RunCanonical(const std::string& policy, const std::string& options_json,
                              double deadline_factor) {
  TaskConfig task;
  task.trace_path = CanonicalTracePath();
  task.throughputs_path = TaccThroughputsPath();
  task.policy = policy;
  task.simulation.num_gpus = 32;
  task.simulation.deadline_factor = deadline_factor;
  task.policy_options = nlohmann::json::parse(options_json);
  return RunTask(task);
}

}  // namespace adaptsim::testing
