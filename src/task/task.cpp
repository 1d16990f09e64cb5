// TaskConfig <-> canonical JSON, and the content-hash task id (docs/sweeps.md §4).
#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

#include <boost/uuid/uuid.hpp>

#include "adaptsim/content_hash.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/task.hpp"

namespace adaptsim {
namespace {

/// The keys of the canonical JSON: the fields FromJson requires, plus the optional hashes and
/// "production".
const std::set<std::string>& CanonicalKeys() {
  static const std::set<std::string> keys = {"allocation_reset_interval_s",
                                             "deadline_factor",
                                             "idle_round_start",
                                             "max_failed_attempts",
                                             "max_rounds",
                                             "num_gpus",
                                             "policy",
                                             "policy_options",
                                             "production",
                                             "restart_overhead_s",
                                             "restart_slack_s",
                                             "round_duration_s",
                                             "seed",
                                             "throughputs_hash",
                                             "throughputs_path",
                                             "trace_hash",
                                             "trace_path"};
  return keys;
}

/// Fixed namespace of adaptsim task ids (a random UUID drawn once; never change it, ids depend
/// on it).
constexpr boost::uuids::uuid kTaskNamespace = {{0x6b, 0x1f, 0x3a, 0x52, 0x9d, 0x04, 0x4c, 0x7e,
                                                0xa1, 0x8e, 0x27, 0x5c, 0xd3, 0x60, 0xf9, 0x4b}};
std::string OptionalString(const nlohmann::json& json, const std::string& context,
                           const std::string& key) {
  auto it = json.find(key);
  if (it == json.end()) return "";
  if (!it->is_string()) throw InputError(context, 0, key, "expected a string");
  return it->get<std::string>();
}

const nlohmann::json& Field(const nlohmann::json& json, const std::string& context,
                            const std::string& key) {
  auto it = json.find(key);
  if (it == json.end()) throw InputError(context, 0, key, "missing field");
  return *it;
}

double GetNumber(const nlohmann::json& json, const std::string& context, const std::string& key) {
  const auto& value = Field(json, context, key);
  if (!value.is_number()) throw InputError(context, 0, key, "expected a number");
  return value.get<double>();
}

std::int64_t GetInteger(const nlohmann::json& json, const std::string& context,
                        const std::string& key) {
  const auto& value = Field(json, context, key);
  if (!value.is_number_integer()) throw InputError(context, 0, key, "expected an integer");
  return value.get<std::int64_t>();
}

std::string GetString(const nlohmann::json& json, const std::string& context,
                      const std::string& key) {
  const auto& value = Field(json, context, key);
  if (!value.is_string()) throw InputError(context, 0, key, "expected a string");
  return value.get<std::string>();
}

}  // namespace

nlohmann::json TaskConfig::ToJson() const {
  // nlohmann::json objects are std::map-backed: keys come out sorted whatever the insertion order,
  // which makes dump() canonical (also inside policy_options).
  nlohmann::json json = nlohmann::json::object();
  json["trace_path"] = trace_path;
  json["throughputs_path"] = throughputs_path;
  json["trace_hash"] = trace_hash;
  json["throughputs_hash"] = throughputs_hash;
  json["policy"] = policy;
  json["seed"] = seed;
  json["policy_options"] = policy_options;
  json["num_gpus"] = simulation.num_gpus;
  json["round_duration_s"] = simulation.round_duration_s;
  json["restart_overhead_s"] = simulation.restart_overhead_s;
  json["restart_slack_s"] = simulation.restart_slack_s;
  json["deadline_factor"] = simulation.deadline_factor;
  json["allocation_reset_interval_s"] = simulation.allocation_reset_interval_s;
  json["max_failed_attempts"] = simulation.max_failed_attempts;
  json["max_rounds"] = simulation.max_rounds;
  // Written only when not the reference's, so the ids of earlier tasks do not change.
  if (simulation.idle_round_start != IdleRoundStart::kReference) {
    json["idle_round_start"] = IdleRoundStartName(simulation.idle_round_start);
  }
  if (production) json["production"] = production->ToJson();
  return json;
}

TaskConfig TaskConfig::FromJson(const nlohmann::json& json, const std::string& context) {
  if (!json.is_object()) throw InputError(context, 0, "", "task config must be a JSON object");
  for (const auto& [key, value] : json.items()) {
    if (CanonicalKeys().count(key) == 0) throw InputError(context, 0, key, "unknown field");
  }
  TaskConfig task;
  task.trace_path = GetString(json, context, "trace_path");
  task.throughputs_path = GetString(json, context, "throughputs_path");
  task.trace_hash = OptionalString(json, context, "trace_hash");
  task.throughputs_hash = OptionalString(json, context, "throughputs_hash");
  task.policy = GetString(json, context, "policy");
  const auto& seed = Field(json, context, "seed");
  if (!seed.is_number_unsigned()) throw InputError(context, 0, "seed", "expected an integer >= 0");
  task.seed = seed.get<std::uint64_t>();
  task.policy_options = Field(json, context, "policy_options");
  if (!task.policy_options.is_object()) {
    throw InputError(context, 0, "policy_options", "expected an object");
  }
  SimulationOptions& sim = task.simulation;
  sim.num_gpus = static_cast<int>(GetInteger(json, context, "num_gpus"));
  sim.round_duration_s = GetNumber(json, context, "round_duration_s");
  sim.restart_overhead_s = GetNumber(json, context, "restart_overhead_s");
  sim.restart_slack_s = GetNumber(json, context, "restart_slack_s");
  sim.deadline_factor = GetNumber(json, context, "deadline_factor");
  sim.allocation_reset_interval_s = GetNumber(json, context, "allocation_reset_interval_s");
  sim.max_failed_attempts = static_cast<int>(GetInteger(json, context, "max_failed_attempts"));
  sim.max_rounds = GetInteger(json, context, "max_rounds");
  if (auto idle = OptionalString(json, context, "idle_round_start"); !idle.empty()) {
    if (idle != "reference" && idle != "arrival") {
      throw InputError(context, 0, "idle_round_start", "expected \"reference\" or \"arrival\"");
    }
    sim.idle_round_start = ParseIdleRoundStart(idle);
  }
  if (auto it = json.find("production"); it != json.end()) {
    task.production = ProductionSource::FromJson(*it, context);
  }
  return task;
}

nlohmann::json TaskConfig::IdentityJson() const {
  nlohmann::json json = ToJson();
  json.erase("max_rounds");
  if (!trace_hash.empty()) json.erase("trace_path");
  if (!throughputs_hash.empty()) json.erase("throughputs_path");
  // A policy resolved by a scheme (a Python class) is also identified by its code's hash, so
  // that editing it reruns its tasks on resume.
  const std::string policy_code = PolicyIdentity(policy);
  if (!policy_code.empty()) json["policy_code"] = policy_code;
  return json;
}

std::string TaskConfig::Id() const {
  return NameBasedUuidHex(kTaskNamespace, IdentityJson().dump());
}

void FillContentHashes(TaskConfig& task) {
  task.trace_hash = FileContentHash(task.trace_path);
  // A file or a folder (Pollux profiles) is hashed; anything else (a catalogue name) is not.
  const bool hashable = std::filesystem::is_regular_file(task.throughputs_path) ||
                        std::filesystem::is_directory(task.throughputs_path);
  task.throughputs_hash = hashable ? FileContentHash(task.throughputs_path) : std::string();
}

}  // namespace adaptsim
