// TaskConfig <-> canonical JSON and named arguments, driven by its field list
// (adaptsim/task_fields.hpp), and the content-hash task id (docs/sweeps.md §4).
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <type_traits>
#include <vector>

#include <boost/uuid/uuid.hpp>

#include "adaptsim/content_hash.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/task_fields.hpp"

namespace adaptsim {
namespace {

/// Keys that configurations written by earlier versions hold and FromJson accepts and ignores:
/// the run budget's max_rounds, part of the stored configuration until the budget left it
/// (docs/results-format.md).
const std::set<std::string, std::less<>> kRetiredKeys = {"max_rounds"};

/// Fixed namespace of adaptsim task ids (a random UUID drawn once; never change it, ids depend
/// on it).
constexpr boost::uuids::uuid kTaskNamespace = {{0x6b, 0x1f, 0x3a, 0x52, 0x9d, 0x04, 0x4c, 0x7e,
                                                0xa1, 0x8e, 0x27, 0x5c, 0xd3, 0x60, 0xf9, 0x4b}};

/// Every field's JSON value in a default-constructed TaskConfig (Encoding::kUnlessDefault).
const std::map<std::string, nlohmann::json, std::less<>>& DefaultFieldJson() {
  static const auto defaults = [] {
    std::map<std::string, nlohmann::json, std::less<>> values;
    const TaskConfig task;
    VisitTaskConfigFields(task, [&](const ConfigField& field, const auto& member) {
      values[std::string(field.key)] = WriteFieldJson(member);
    });
    return values;
  }();
  return defaults;
}

/// Where `field` lives in a canonical JSON object: the object holding its key (the top level or
/// its parent's object); null when the parent is absent.
const nlohmann::json* Holder(const nlohmann::json& json, const ConfigField& field) {
  if (field.json_parent.empty()) return &json;
  auto parent = json.find(field.json_parent);
  return parent != json.end() && parent->is_object() ? &*parent : nullptr;
}

/// Whether `member` holds a number (so that command-line text is parsed as JSON).
template <typename M>
constexpr bool IsNumberMember() {
  if constexpr (requires(M m) { m.has_value(); }) {
    return IsNumberMember<typename M::value_type>();
  } else {
    return (std::is_arithmetic_v<M> && !std::is_same_v<M, bool>) ||
           std::is_same_v<M, WrittenNumber>;
  }
}

/// One `--policy-option` value (docs/python.md §4): JSON (0.2, true, null, [1, 2], {"a": 1},
/// "text"); Python's True, False and None, as a Python user writes them, are true, false and null;
/// other text that is not JSON is a string (mode=fast, config=path/to/file.json), except text that
/// starts like JSON (a digit, a sign, [, { or ") and does not parse, which is refused with a hint
/// instead of silently becoming a string.
nlohmann::json PolicyOptionValue(const std::string& key, const std::string& value,
                                 const std::string& context) {
  if (value == "True") return true;
  if (value == "False") return false;
  if (value == "None") return nullptr;
  nlohmann::json parsed = nlohmann::json::parse(value, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_discarded()) return parsed;
  const bool looks_like_json =
      !value.empty() && (std::isdigit(static_cast<unsigned char>(value[0])) ||
                         std::string("[{\"+-").find(value[0]) != std::string::npos);
  if (!looks_like_json) return value;
  std::string hint = "JSON: a number, true/false/null, [1, 2], {\"key\": 1} or \"a string\"";
  if (value.find("True") != std::string::npos || value.find("False") != std::string::npos ||
      value.find("None") != std::string::npos) {
    hint += "; inside a list or object write true, false and null";
  }
  if (value.find('\'') != std::string::npos) hint += "; JSON strings use double quotes";
  throw InputError(context, 0, "--policy-option",
                   key + "=" + value + " is not valid " + hint + " (quote a string that starts " +
                       "like a number: " + key + "='\"" + value + "\"')");
}

/// The texts of `--policy-option KEY=VALUE` flags (a JSON array of strings) as the policy
/// options, {KEY: PolicyOptionValue(VALUE)}; a later KEY replaces an earlier one.
nlohmann::json PolicyOptionsFromText(const nlohmann::json& items, const std::string& context) {
  if (!items.is_array()) {
    throw InputError(context, 0, "--policy-option", "expected KEY=VALUE texts");
  }
  nlohmann::json options = nlohmann::json::object();
  for (const nlohmann::json& item : items) {
    const std::string text = item.is_string() ? item.get<std::string>() : item.dump();
    const std::size_t eq = text.find('=');
    if (!item.is_string() || eq == std::string::npos || eq == 0) {
      throw InputError(context, 0, "--policy-option", "expected key=value, got '" + text + "'");
    }
    const std::string key = text.substr(0, eq);
    options[key] = PolicyOptionValue(key, text.substr(eq + 1), context);
  }
  return options;
}

/// Command-line text as the JSON value of a field of type M: the policy options' KEY=VALUE texts
/// by PolicyOptionsFromText; a number is parsed (as JSON, so that "240" and "240.0" keep their
/// spelling), anything else stays text.
template <typename M>
nlohmann::json FromText(const nlohmann::json& value, const std::string& context) {
  if constexpr (std::is_same_v<M, nlohmann::json>) {
    return PolicyOptionsFromText(value, context);
  } else {
    if (!value.is_string() || !IsNumberMember<M>()) return value;
    nlohmann::json parsed =
        nlohmann::json::parse(value.get<std::string>(), nullptr, /*allow_exceptions=*/false);
    return parsed.is_number() ? parsed : value;
  }
}

/// An existing file (or, when the field allows it, folder) as an absolute, normal path.
std::string ResolvePath(const ConfigField& field, const nlohmann::json& value,
                        const std::string& context, const std::string& name) {
  if (!value.is_string()) throw InputError(context, 0, name, "expected a path string");
  const std::string text = value.get<std::string>();
  const bool folder_ok = field.text == TextKind::kFileOrFolder;
  const bool ok =
      std::filesystem::is_regular_file(text) || (folder_ok && std::filesystem::is_directory(text));
  if (text.empty() || !ok) {
    throw InputError(text, 0, name, folder_ok ? "file or folder not found" : "file not found");
  }
  return std::filesystem::absolute(text).lexically_normal().string();
}

}  // namespace

void ReadFieldJson(const ConfigField& /*field*/, const nlohmann::json& value,
                   nlohmann::json& member, const std::string& context, const std::string& label) {
  if (!value.is_object()) throw InputError(context, 0, label, "expected an object");
  member = value;
}

nlohmann::json WriteFieldJson(const nlohmann::json& member) {
  return member;
}

void ReadFieldJson(const ConfigField& /*field*/, const nlohmann::json& value,
                   ProductionSource& member, const std::string& context, const std::string& label) {
  if (!value.is_object()) throw InputError(context, 0, label, "expected an object");
  member = ProductionSource::FromJson(value, context);
}

nlohmann::json WithDefaults(const std::optional<ProductionSource>& /*member*/,
                            const nlohmann::json& value) {
  if (!value.is_object()) return value;
  nlohmann::json merged = ProductionSource{}.ToJson();
  for (const auto& [key, item] : value.items()) merged[key] = item;
  return merged;
}

nlohmann::json WriteFieldJson(const ProductionSource& member) {
  return member.ToJson();
}

std::optional<ConfigField> FieldInPolicyOptions(std::string_view option) {
  std::optional<ConfigField> found;
  const TaskConfig probe;
  VisitTaskConfigFields(probe, [&](const ConfigField& field, const auto&) {
    if (field.json_parent == kPolicyOptionsKey && field.key == option) found = field;
  });
  return found;
}

std::optional<ConfigField> FieldInsteadOf(std::string_view key) {
  std::optional<ConfigField> found;
  const TaskConfig probe;
  VisitTaskConfigFields(probe, [&](const ConfigField& field, const auto&) {
    if (field.instead_of == key) found = field;
  });
  return found;
}

void CheckEngineFields(const TaskConfig& task, const std::string& context) {
  std::string set;  // the first interval-engine field the task sets
  VisitTaskConfigFields(task, [&](const ConfigField& field, const auto& member) {
    if (set.empty() && field.applies == Applies::kIntervalEngineOnly &&
        !WriteFieldJson(member).is_null()) {
      set = field.key;
    }
  });
  if (set.empty()) return;
  const PolicyInfo& info = FindPolicy(task.policy, context);
  if (info.engine == EngineKind::kInterval) return;
  throw InputError(context, 0, set,
                   "an option of the interval engine, but policy '" + task.policy +
                       "' runs on the " + std::string(ToString(info.engine)) + " engine");
}

nlohmann::json TaskConfig::ToJson() const {
  // nlohmann::json objects are std::map-backed: keys come out sorted whatever the insertion order,
  // which makes dump() canonical (also inside policy_options).
  nlohmann::json json = nlohmann::json::object();
  VisitTaskConfigFields(*this, [&](const ConfigField& field, const auto& member) {
    nlohmann::json value = WriteFieldJson(member);
    if (field.encoding == Encoding::kWhenSet && value.is_null()) return;
    if (field.encoding == Encoding::kUnlessDefault &&
        value == DefaultFieldJson().find(field.key)->second) {
      return;
    }
    if (field.json_parent.empty()) {
      json[std::string(field.key)] = std::move(value);
      return;
    }
    nlohmann::json& parent = json[std::string(field.json_parent)];
    ADAPTSIM_CHECK(parent.is_object());  // the parent field is visited first
    parent[std::string(field.key)] = std::move(value);
  });
  return json;
}

TaskConfig TaskConfig::FromJson(const nlohmann::json& json, const std::string& context) {
  if (!json.is_object()) throw InputError(context, 0, "", "task config must be a JSON object");
  TaskConfig task;
  std::set<std::string, std::less<>> top_level(kRetiredKeys);
  VisitTaskConfigFields(task, [&](const ConfigField& field, auto& member) {
    if (field.json_parent.empty()) top_level.insert(std::string(field.key));
    const nlohmann::json* holder = Holder(json, field);
    auto it = holder != nullptr ? holder->find(field.key) : json.end();
    if (holder == nullptr || it == holder->end()) {
      if (field.encoding == Encoding::kAlways) {
        throw InputError(context, 0, JsonLabel(field), "missing field");
      }
      return;
    }
    ReadFieldJson(field, *it, member, context, JsonLabel(field));
    // A field written inside the policy options is not one of the policy's options.
    if (field.json_parent == kPolicyOptionsKey) task.policy_options.erase(field.key);
  });
  for (const auto& item : json.items()) {
    if (top_level.count(item.key()) == 0) {
      throw InputError(context, 0, item.key(), "unknown field");
    }
  }
  return task;
}

nlohmann::json TaskConfig::IdentityJson() const {
  nlohmann::json json = ToJson();
  VisitTaskConfigFields(*this, [&](const ConfigField& field, const auto&) {
    if (field.identified_by.empty()) return;
    auto hash = json.find(field.identified_by);
    if (hash != json.end() && hash->is_string() && !hash->get<std::string>().empty()) {
      json.erase(std::string(field.key));
    }
  });
  // A policy resolved by a scheme (a Python class) is also identified by its code's hash, so
  // that editing it reruns its tasks on resume.
  const std::string policy_code = PolicyIdentity(policy);
  if (!policy_code.empty()) json["policy_code"] = policy_code;
  return json;
}

TaskConfig TaskConfigFromArguments(const nlohmann::json& arguments, ArgumentNames names,
                                   const std::string& context) {
  if (!arguments.is_object()) throw InputError(context, 0, "", "arguments must be an object");
  const bool flags = names == ArgumentNames::kFlag;
  TaskConfig task;
  std::set<std::string, std::less<>> used;
  auto given = [&](const std::string& name) {
    auto it = arguments.find(name);
    return !name.empty() && it != arguments.end() && !it->is_null();
  };
  VisitTaskConfigFields(task, [&](const ConfigField& field, auto& member) {
    using Member = std::remove_reference_t<decltype(member)>;
    const std::string name = flags ? FlagName(field) : KwargName(field);
    if (name.empty()) return;
    const std::optional<ConfigField> instead = FieldInsteadOf(field.key);
    const std::string instead_name = !instead ? std::string()
                                     : flags  ? FlagName(*instead)
                                              : KwargName(*instead);
    if (!given(name)) {
      if (field.required && !given(instead_name)) {
        throw InputError(context, 0, name,
                         "required" + (instead_name.empty() ? "" : " (or " + instead_name + ")") +
                             (flags ? " (see adaptsim run --help)" : ""));
      }
      return;
    }
    if (given(instead_name)) {
      throw InputError(context, 0, instead_name,
                       "give " + name + " or " + instead_name + ", not both");
    }
    auto it = arguments.find(name);
    used.insert(name);
    nlohmann::json value = WithDefaults(member, flags ? FromText<Member>(*it, context) : *it);
    if (field.text == TextKind::kFile || field.text == TextKind::kFileOrFolder) {
      value = ResolvePath(field, value, context, name);
    }
    ReadFieldJson(field, value, member, context, name);
  });
  for (const auto& [name, value] : arguments.items()) {
    if (used.count(name) > 0 || value.is_null()) continue;
    if (flags) throw InputError(context, 0, name, "unknown flag");
    task.policy_options[name] = value;  // a keyword that names no field: a policy option
  }
  for (const auto& item : task.policy_options.items()) {
    if (auto field = FieldInPolicyOptions(item.key())) {
      const std::string own = flags ? FlagName(*field) : KwargName(*field);
      throw InputError(context, 0, flags ? "--policy-option" : item.key(),
                       "'" + item.key() +
                           "' is an option of the interval engine, not of the "
                           "policy: give it as " +
                           own);
    }
  }
  task.simulation.TakeGpuCountFromCluster();
  FillContentHashes(task);  // the id names the data by content, as in a sweep
  CheckEngineFields(task, context);
  return task;
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
