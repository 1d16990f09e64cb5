#include "replay.hpp"

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"

namespace adaptsim {

ReplayPolicy ReplayPolicy::FromJsonFile(const std::string& path) {
  std::ifstream in = OpenInputFile(path, "schedule file");
  nlohmann::ordered_json json;
  try {
    json = nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    throw InputError(path, 0, "", std::string("malformed JSON: ") + error.what());
  }
  if (!json.is_object() || !json.contains("per_round_schedule") ||
      !json["per_round_schedule"].is_array()) {
    throw InputError(path, 0, "per_round_schedule", "expected a list of rounds");
  }
  std::vector<std::vector<ScheduledJob>> rounds;
  for (const auto& round : json["per_round_schedule"]) {
    if (!round.is_object()) {
      throw InputError(path, 0, "per_round_schedule", "each round must be an object");
    }
    std::vector<ScheduledJob> jobs;
    for (const auto& [key, workers] : round.items()) {
      try {
        jobs.push_back({std::stoi(key), workers.get<std::vector<int>>()});
      } catch (const std::exception&) {
        throw InputError(path, 0,
                         "per_round_schedule[" + std::to_string(rounds.size()) + "]." + key,
                         "expected a job id with a list of worker ids");
      }
    }
    rounds.push_back(std::move(jobs));
  }
  return ReplayPolicy(std::move(rounds));
}

RoundPlan ReplayPolicy::PlanRound(const ClusterState& state) {
  RoundPlan plan;
  if (state.round_index >= static_cast<int>(rounds_.size())) return plan;
  for (const ScheduledJob& job : rounds_[state.round_index]) {
    bool active = std::any_of(state.jobs.begin(), state.jobs.end(),
                              [&](const ActiveJobView& v) { return v.id == job.id; });
    if (active) plan.jobs.push_back({job.id, job.worker_ids});
  }
  return plan;
}

}  // namespace adaptsim
