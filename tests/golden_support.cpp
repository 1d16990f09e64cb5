#include "golden_support.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "adaptsim/task.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {

std::string GoldenPath(const std::string& name) {
  return DataPath("golden/shockwave_tacc32/tacc_32gpus__" + name + "__simulation.json");
}

GoldenRun LoadGolden(const std::string& name) {
  std::ifstream in(GoldenPath(name));
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
    for (const auto& [key, workers] : round.items()) jobs.push_back(std::stoi(key));
    run.round_jobs.push_back(jobs);
  }
  for (const auto& [job, entries] : json["throughput_timeline"].items()) {
    for (const auto& [r, value] : entries.items()) {
      run.timeline[std::stoi(job)][std::stoi(r)] = {value[0].get<double>(), value[1].get<int>()};
    }
  }
  run.cluster_util = json["cluster_util"];
  run.extension_percentage = json["extension_percentage"];
  return run;
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
