// Sweep spec: TOML -> validated SweepSpec -> tasks (docs/sweeps.md).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/sweep.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

const std::set<std::string> kKnownKeys = {
    "name",  "traces",           "throughputs",     "policies",      "num_gpus",
    "seeds", "round_duration_s", "deadline_factor", "policy_options"};

int Line(const toml::node& node) {
  return static_cast<int>(node.source().begin.line);
}

std::string TypeName(const toml::node& node) {
  std::ostringstream text;
  text << node.type();
  return text.str();
}

/// The message of `error` without its "file:line: field 'x': " prefix (for re-reporting).
std::string BareMessage(const InputError& error) {
  std::string prefix = error.file() + (error.line() > 0 ? ":" + std::to_string(error.line()) : "") +
                       ": " + (error.field().empty() ? "" : "field '" + error.field() + "': ");
  std::string text = error.what();
  return text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text;
}

/// Reading context: the spec file and its directory (absolute).
struct Reader {
  std::string file;
  fs::path dir;

  [[noreturn]] void Throw(const toml::node& node, const std::string& field,
                          const std::string& message) const {
    throw InputError(file, Line(node), field, message);
  }
  [[noreturn]] void WrongType(const toml::node& node, const std::string& field,
                              const std::string& expected) const {
    Throw(node, field, "expected " + expected + ", got " + TypeName(node));
  }
};

/// `${NAME}` -> environment variable NAME (ADAPTSIM_DATA has a default, see sweep.hpp).
std::string ExpandVariables(const Reader& reader, const toml::node& node, const std::string& field,
                            const std::string& text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t start = text.find("${", pos);
    if (start == std::string::npos) break;
    std::size_t end = text.find('}', start);
    if (end == std::string::npos) reader.Throw(node, field, "unterminated ${ in '" + text + "'");
    out += text.substr(pos, start - pos);
    std::string name = text.substr(start + 2, end - start - 2);
    const char* value = std::getenv(name.c_str());
    if (value != nullptr && *value != '\0') {
      out += value;
    } else if (name == "ADAPTSIM_DATA" && fs::is_directory(reader.dir / "../../shared/data")) {
      out += (reader.dir / "../../shared/data").lexically_normal().string();
    } else {
      reader.Throw(node, field, "environment variable " + name + " is not set");
    }
    pos = end + 1;
  }
  return out + text.substr(pos);
}

/// A path value: string, variables expanded, relative to the spec's directory, existing file.
std::string ReadPath(const Reader& reader, const toml::node& node, const std::string& field) {
  if (!node.is_string()) reader.WrongType(node, field, "a path string");
  std::string text = ExpandVariables(reader, node, field, *node.value<std::string>());
  if (text.empty()) reader.Throw(node, field, "empty path");
  fs::path path = fs::path(text).is_absolute() ? fs::path(text) : reader.dir / text;
  path = path.lexically_normal();
  if (!fs::is_regular_file(path)) reader.Throw(node, field, "file not found: " + path.string());
  return path.string();
}

/// A scalar or a non-empty list of scalars, each read with `read`; duplicates are rejected.
template <typename T, typename Read>
std::vector<T> ReadList(const Reader& reader, const toml::node& node, const std::string& field,
                        Read read) {
  std::vector<T> values;
  const toml::array* array = node.as_array();
  if (array == nullptr) return {read(node)};
  if (array->empty()) reader.Throw(node, field, "list must not be empty");
  for (const toml::node& element : *array) {
    T value = read(element);
    for (const T& seen : values) {
      if (seen == value) reader.Throw(element, field, "duplicate entry");
    }
    values.push_back(value);
  }
  return values;
}

std::int64_t ReadInteger(const Reader& reader, const toml::node& node, const std::string& field,
                         std::int64_t minimum) {
  if (!node.is_integer()) reader.WrongType(node, field, "an integer");
  std::int64_t value = *node.value<std::int64_t>();
  if (value < minimum) {
    reader.Throw(node, field,
                 "must be >= " + std::to_string(minimum) + ", got " + std::to_string(value));
  }
  return value;
}

double ReadPositiveNumber(const Reader& reader, const toml::node& node, const std::string& field) {
  if (!node.is_number()) reader.WrongType(node, field, "a number");
  double value = *node.value<double>();
  if (!(value > 0.0)) reader.Throw(node, field, "must be > 0");
  return value;
}

nlohmann::json ToJson(const toml::node& node) {
  if (const auto* table = node.as_table()) {
    nlohmann::json json = nlohmann::json::object();
    for (const auto& [key, value] : *table) json[std::string(key.str())] = ToJson(value);
    return json;
  }
  if (const auto* array = node.as_array()) {
    nlohmann::json json = nlohmann::json::array();
    for (const auto& value : *array) json.push_back(ToJson(value));
    return json;
  }
  if (node.is_integer()) return *node.value<std::int64_t>();
  if (node.is_floating_point()) return *node.value<double>();
  if (node.is_boolean()) return *node.value<bool>();
  if (node.is_string()) return *node.value<std::string>();
  std::ostringstream text;  // dates and times: keep TOML's spelling
  node.visit([&](const auto& value) { text << value; });
  return text.str();
}

std::string ReadPolicyName(const Reader& reader, const toml::node& node) {
  if (!node.is_string()) reader.WrongType(node, "policies", "a policy name string");
  std::string name = *node.value<std::string>();
  std::string known;
  for (const PolicyInfo& info : RegisteredPolicies()) {
    if (info.name == name) return name;
    known += (known.empty() ? "" : ", ") + info.name;
  }
  reader.Throw(node, "policies", "unknown policy '" + name + "' (registered: " + known + ")");
}

/// `[policy_options.<policy>]`: one table per listed policy, checked by building the policy.
void ReadPolicyOptions(const Reader& reader, const toml::node& node, SweepSpec& spec) {
  const toml::table* table = node.as_table();
  if (table == nullptr) reader.WrongType(node, "policy_options", "a table");
  for (const auto& [key, value] : *table) {
    std::string policy(key.str());
    std::string field = "policy_options." + policy;
    if (std::find(spec.policies.begin(), spec.policies.end(), policy) == spec.policies.end()) {
      reader.Throw(value, field, "policy '" + policy + "' is not in `policies`");
    }
    if (!value.is_table()) reader.WrongType(value, field, "a table");
    nlohmann::json options = ToJson(value);
    try {
      MakePolicy(policy, options, reader.file);
    } catch (const InputError& error) {
      // Policies name the field "<policy>.<option>"; point at that option's line when we can.
      std::string option = error.field();
      if (option.rfind(policy + ".", 0) == 0) option = option.substr(policy.size() + 1);
      if (option == policy) option.clear();
      const toml::node* option_node = option.empty() ? nullptr : value.as_table()->get(option);
      reader.Throw(option_node != nullptr ? *option_node : value,
                   option.empty() ? field : field + "." + option, BareMessage(error));
    }
    spec.policy_options[policy] = std::move(options);
  }
}

const toml::node& Required(const Reader& reader, const toml::table& root, const std::string& key) {
  const toml::node* node = root.get(key);
  if (node == nullptr) throw InputError(reader.file, 0, key, "missing required key");
  return *node;
}

toml::table ParseFile(const std::string& path) {
  if (!fs::is_regular_file(path)) throw InputError(path, 0, "", "sweep spec not found");
  try {
    return toml::parse_file(path);
  } catch (const toml::parse_error& error) {
    throw InputError(path, static_cast<int>(error.source().begin.line), "",
                     "malformed TOML: " + std::string(error.description()));
  }
}

void ReadLists(const Reader& reader, const toml::table& root, SweepSpec& spec) {
  const toml::node& name = Required(reader, root, "name");
  if (!name.is_string() || name.value<std::string>()->empty()) {
    reader.WrongType(name, "name", "a non-empty string");
  }
  spec.name = *name.value<std::string>();
  spec.traces =
      ReadList<std::string>(reader, Required(reader, root, "traces"), "traces",
                            [&](const toml::node& n) { return ReadPath(reader, n, "traces"); });
  spec.throughputs_path = ReadPath(reader, Required(reader, root, "throughputs"), "throughputs");
  spec.policies =
      ReadList<std::string>(reader, Required(reader, root, "policies"), "policies",
                            [&](const toml::node& n) { return ReadPolicyName(reader, n); });
  spec.num_gpus = ReadList<int>(
      reader, Required(reader, root, "num_gpus"), "num_gpus",
      [&](const toml::node& n) { return static_cast<int>(ReadInteger(reader, n, "num_gpus", 1)); });
  spec.seeds = {0};
  if (const toml::node* seeds = root.get("seeds")) {
    spec.seeds = ReadList<std::uint64_t>(reader, *seeds, "seeds", [&](const toml::node& n) {
      return static_cast<std::uint64_t>(ReadInteger(reader, n, "seeds", 0));
    });
  }
}

/// Runs SimulationOptions::Validate on the spec's options, reporting against the spec file.
void ValidateOptions(const Reader& reader, const toml::table& root, const SweepSpec& spec) {
  for (const TaskConfig& task : ExpandSweep(spec)) {
    try {
      task.simulation.Validate();
    } catch (const InputError& error) {
      const toml::node* node = root.get(error.field());
      throw InputError(reader.file, node != nullptr ? Line(*node) : 0, error.field(),
                       BareMessage(error));
    }
  }
}

}  // namespace

SweepSpec LoadSweepSpec(const std::string& path) {
  toml::table root = ParseFile(path);
  Reader reader{path, fs::absolute(path).parent_path()};
  for (const auto& [key, node] : root) {
    if (kKnownKeys.count(std::string(key.str())) == 0) {
      reader.Throw(node, std::string(key.str()), "unknown key");
    }
  }
  SweepSpec spec;
  spec.spec_path = path;
  ReadLists(reader, root, spec);
  if (const toml::node* node = root.get("round_duration_s")) {
    spec.round_duration_s = ReadPositiveNumber(reader, *node, "round_duration_s");
  }
  if (const toml::node* node = root.get("deadline_factor")) {
    spec.deadline_factor = ReadPositiveNumber(reader, *node, "deadline_factor");
  }
  if (const toml::node* node = root.get("policy_options")) ReadPolicyOptions(reader, *node, spec);
  ValidateOptions(reader, root, spec);
  return spec;
}

std::vector<TaskConfig> ExpandSweep(const SweepSpec& spec) {
  std::vector<TaskConfig> tasks;
  for (const std::string& trace : spec.traces) {
    for (const std::string& policy : spec.policies) {
      for (int gpus : spec.num_gpus) {
        for (std::uint64_t seed : spec.seeds) {
          TaskConfig task;
          task.trace_path = trace;
          task.throughputs_path = spec.throughputs_path;
          task.policy = policy;
          task.seed = seed;
          task.simulation.num_gpus = gpus;
          if (spec.round_duration_s) task.simulation.round_duration_s = *spec.round_duration_s;
          if (spec.deadline_factor) task.simulation.deadline_factor = *spec.deadline_factor;
          auto options = spec.policy_options.find(policy);
          if (options != spec.policy_options.end()) task.policy_options = options->second;
          tasks.push_back(std::move(task));
        }
      }
    }
  }
  return tasks;
}

}  // namespace adaptsim
