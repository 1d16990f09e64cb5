// TaskConfig <-> canonical JSON, and the content-hash task id (docs/sweeps.md §4).
#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

#include <boost/uuid/name_generator_sha1.hpp>
#include <boost/uuid/uuid.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/task.hpp"
#include "content_hash.hpp"

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
/// Fixed namespace of file content hashes (likewise never to be changed).
constexpr boost::uuids::uuid kFileNamespace = {{0x2c, 0x94, 0x61, 0x0e, 0x5b, 0xd7, 0x4a, 0x13,
                                                0x8f, 0x36, 0xc1, 0x72, 0x09, 0xae, 0x54, 0xd8}};

std::string Hex(const boost::uuids::uuid& id) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  text.reserve(32);
  for (std::uint8_t byte : id) {
    text.push_back(kHex[byte >> 4]);
    text.push_back(kHex[byte & 0x0f]);
  }
  return text;
}

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
  boost::uuids::name_generator_sha1 generate(kTaskNamespace);
  return Hex(generate(IdentityJson().dump()));
}

std::string FileContentHash(const std::string& path) {
  // A folder (the Pollux profile folder) hashes its files' hashes (content_hash.hpp).
  if (std::filesystem::is_directory(path)) return FolderContentHash(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", "cannot read file");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path, 0, "", "cannot read file");
  return BytesContentHash(bytes);
}

std::string BytesContentHash(std::string_view bytes) {
  boost::uuids::name_generator_sha1 generate(kFileNamespace);
  return Hex(generate(bytes.data(), bytes.size()));
}

std::string FolderContentHash(const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(folder, error)) throw InputError(folder, 0, "", "folder not found");
  // Only <application>/*.csv, two levels down: the files PolluxApplication::Load reads. The walk
  // never descends further, so a path such as "/" is refused quickly instead of reading the whole
  // file system (and blocking on a pseudo-file; docs/reliability.md, "Findings fixed").
  std::vector<std::string> files;  // relative paths, '/'-separated
  fs::directory_iterator apps(folder, error), end;
  if (error) throw InputError(folder, 0, "", "cannot list folder: " + error.message());
  for (; apps != end; apps.increment(error)) {
    if (error) throw InputError(folder, 0, "", "cannot list folder: " + error.message());
    std::error_code type_error;  // a dangling link is no application folder, not an error
    if (apps->is_symlink(type_error) || !apps->is_directory(type_error)) continue;
    fs::directory_iterator it(apps->path(), error);
    for (; !error && it != end; it.increment(error)) {
      if (it->path().extension() != ".csv" || !it->is_regular_file(type_error)) continue;
      files.push_back(it->path().lexically_relative(folder).generic_string());
    }
    if (error) {
      throw InputError(apps->path().string(), 0, "", "cannot list folder: " + error.message());
    }
  }
  if (files.empty()) {
    throw InputError(folder, 0, "", "folder holds no profile file (<application>/*.csv)");
  }
  std::sort(files.begin(), files.end());
  std::string manifest;
  for (const std::string& file : files) {
    manifest += file + "\t" + FileContentHash((fs::path(folder) / file).string()) + "\n";
  }
  return BytesContentHash(manifest);
}

void FillContentHashes(TaskConfig& task) {
  task.trace_hash = FileContentHash(task.trace_path);
  // A file or a folder (Pollux profiles) is hashed; anything else (a catalogue name) is not.
  const bool hashable = std::filesystem::is_regular_file(task.throughputs_path) ||
                        std::filesystem::is_directory(task.throughputs_path);
  task.throughputs_hash = hashable ? FileContentHash(task.throughputs_path) : std::string();
}

}  // namespace adaptsim
