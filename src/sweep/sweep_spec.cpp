// Sweep spec: TOML -> validated SweepSpec -> tasks (docs/sweeps.md).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <type_traits>

#include <toml++/toml.h>

#include "adaptsim/content_hash.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/production_source.hpp"
#include "adaptsim/registry.hpp"
#include "adaptsim/sweep.hpp"
#include "adaptsim/task_fields.hpp"
#include "adaptsim/trace.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

/// A field swept as a table, key by key, rather than as one value: the production source
/// ("production.<key>") and the policy options ("<policy>.<option>").
template <typename M>
constexpr bool kTableField =
    std::is_same_v<M, nlohmann::json> || std::is_same_v<M, std::optional<ProductionSource>>;

/// A field of the task's field list (adaptsim/task_fields.hpp) as the spec sees it.
struct SpecKey {
  ConfigField field;
  int rank = 0;        ///< position among the swept fields: the default expansion order
  bool table = false;  ///< kTableField
};

/// The sweep keys of the task's fields, in their declared (expansion) order.
const std::vector<SpecKey>& SpecKeys() {
  static const std::vector<SpecKey> keys = [] {
    std::vector<SpecKey> out;
    const TaskConfig probe;
    VisitTaskConfigFields(probe, [&](const ConfigField& field, const auto& member) {
      if (AxisName(field).empty()) return;
      const bool table = kTableField<std::remove_cvref_t<decltype(member)>>;
      out.push_back({field, static_cast<int>(out.size()), table});
    });
    return out;
  }();
  return keys;
}

/// The field whose sweep key is `key` (a plain field, or a table's name); nullptr otherwise.
const SpecKey* FindSpecKey(std::string_view key) {
  for (const SpecKey& entry : SpecKeys()) {
    if (AxisName(entry.field) == key) return &entry;
  }
  return nullptr;
}

const SpecKey& PolicyOptionsKey() {
  return *FindSpecKey(kPolicyOptionsKey);
}

/// The sweep key of TaskConfig's member `member` (AxisName of its field), e.g. "policies" for
/// &TaskConfig::policy.
template <typename M>
std::string AxisOf(M TaskConfig::*member) {
  const TaskConfig probe;
  std::string axis;
  VisitTaskConfigFields(probe, [&](const ConfigField& field, const auto& visited) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(visited)>, M>) {
      if (&visited == &(probe.*member)) axis = AxisName(field);
    }
  });
  return axis;
}

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

  /// InputError at `node`; `multiline` keeps the line breaks of a message that quotes a
  /// policy's error (a Python traceback) when the command line prints it.
  [[noreturn]] void Throw(const toml::node& node, const std::string& field,
                          const std::string& message, bool multiline = false) const {
    throw InputError(file, Line(node), field, message).Multiline(multiline);
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

/// A path value: string, variables expanded, relative to the spec's directory, an existing file
/// — or, when `folder_ok` (`throughputs`: the Pollux profile folder), an existing folder.
std::string ReadPath(const Reader& reader, const toml::node& node, const std::string& field,
                     bool folder_ok) {
  if (!node.is_string()) reader.WrongType(node, field, "a path string");
  std::string text = ExpandVariables(reader, node, field, *node.value<std::string>());
  if (text.empty()) reader.Throw(node, field, "empty path");
  fs::path path = fs::path(text).is_absolute() ? fs::path(text) : reader.dir / text;
  path = path.lexically_normal();
  if (fs::is_regular_file(path)) return path.string();
  if (fs::is_directory(path)) {
    if (folder_ok) return path.string();
    reader.Throw(node, field, "expected a file, got a folder: " + path.string());
  }
  reader.Throw(node, field,
               std::string(folder_ok ? "file or folder" : "file") + " not found: " + path.string());
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

toml::table ParseFile(const std::string& path) {
  if (!fs::is_regular_file(path)) throw InputError(path, 0, "", "sweep spec not found");
  try {
    return toml::parse_file(path);
  } catch (const toml::parse_error& error) {
    throw InputError(path, static_cast<int>(error.source().begin.line), "",
                     "malformed TOML: " + std::string(error.description()));
  }
}

bool IsRegisteredPolicy(const std::string& name) {
  for (const PolicyInfo& info : RegisteredPolicies()) {
    if (info.name == name) return true;
  }
  return false;
}

std::string ReadPolicyName(const Reader& reader, const toml::node& node, const std::string& field) {
  if (!node.is_string()) reader.WrongType(node, field, "a policy name string");
  std::string name = *node.value<std::string>();
  if (IsRegisteredPolicy(name)) return name;
  if (name.find(':') != std::string::npos) {  // a policy scheme's name, e.g. "py:MODULE:CLASS"
    try {
      FindPolicy(name, field);
      return name;
    } catch (const InputError& error) {
      reader.Throw(node, field, error.what(), error.multiline());
    }
  }
  std::string known;
  for (const PolicyInfo& info : RegisteredPolicies())
    known += (known.empty() ? "" : ", ") + info.name;
  reader.Throw(node, field, "unknown policy '" + name + "' (registered: " + known + ")");
}

/// Canonical keys of the `[production]` table: "production.<key>" (docs/sweeps.md §1.1), the
/// keys of ProductionSourceKeys().
const std::string kProductionPrefix = "production.";

/// One value of `[production]` key `key` as the canonical JSON of its field
/// (VisitProductionSourceFields), type- and range-checked by the field's declaration; errors point
/// at the node. Checks across keys (Philly-only options, the mapping's order, mode_mix's sum) are
/// ProductionSource::FromJson's when the tasks are expanded. A value that is itself a list
/// (virtual_clusters, mapping, mode_mix) is swept as a list of lists; a single virtual cluster may
/// be written as a string.
nlohmann::json ReadProductionValue(const Reader& reader, const std::string& key,
                                   const toml::node& node, const std::string& field) {
  nlohmann::json canonical;
  ProductionSource scratch;
  VisitProductionSourceFields(scratch, [&](const ConfigField& declared, auto& member) {
    if (declared.key != key) return;
    nlohmann::json value = ToJson(node);
    if (std::is_same_v<std::remove_cvref_t<decltype(member)>, std::vector<std::string>> &&
        value.is_string()) {
      value = nlohmann::json::array({value});  // a single virtual cluster
    }
    try {
      ReadFieldJson(declared, value, member, reader.file, field);
    } catch (const InputError& error) {
      const bool list_hint = WriteFieldJson(member).is_array() && !value.is_array();
      reader.Throw(
          node, field,
          BareMessage(error) +
              (list_hint ? " (a single list value is written as a list of lists: [[...]])" : ""));
    }
    canonical = WriteFieldJson(member);
  });
  return canonical;
}

/// `node` as the JSON value of the field whose sweep key is `axis`, checked against the field's
/// type and declared range (ReadFieldJson); errors point at the node.
nlohmann::json FieldValue(const Reader& reader, const std::string& axis, const toml::node& node,
                          const std::string& field) {
  nlohmann::json value = ToJson(node);
  TaskConfig scratch;
  WithTaskField(scratch, axis, [&](const ConfigField& declared, auto& member) {
    try {
      ReadFieldJson(declared, value, member, reader.file, field);
    } catch (const InputError& error) {
      reader.Throw(node, field, BareMessage(error));
    }
  });
  return value;
}

/// One value of axis `key` as JSON, type- and range-checked by its field's declaration.
nlohmann::json ReadValue(const Reader& reader, const std::string& key, const toml::node& node,
                         const std::string& field) {
  if (key.rfind(kProductionPrefix, 0) == 0) {
    return ReadProductionValue(reader, key.substr(kProductionPrefix.size()), node, field);
  }
  const SpecKey* spec_key = FindSpecKey(key);
  if (spec_key == nullptr) {
    // "<policy>.<option>": an option of the policy, which checks it, or an interval engine
    // option scoped to the policy's tasks, which its field checks.
    const std::string option = key.substr(key.rfind('.') + 1);
    return FieldInPolicyOptions(option) ? FieldValue(reader, option, node, field) : ToJson(node);
  }
  switch (spec_key->field.text) {
    case TextKind::kFile:
      return ReadPath(reader, node, field, false);
    case TextKind::kFileOrFolder:
      return ReadPath(reader, node, field, true);
    case TextKind::kPolicy:
      return ReadPolicyName(reader, node, field);
    case TextKind::kText:
      break;
  }
  return FieldValue(reader, key, node, field);
}

/// An axis as written: where it came from and its values.
struct Axis {
  std::string key;
  std::string field;
  const toml::node* node = nullptr;
};

/// Reads one (non-zip) axis: a scalar is one value, a list is a dimension (no empty lists, no
/// duplicates). A policy option whose value is itself a list is written as a list of lists.
SweepDimension ReadAxis(const Reader& reader, const Axis& axis) {
  SweepDimension dimension{{axis.key}, {axis.field}, {}};
  const toml::array* array = axis.node->as_array();
  if (array == nullptr) {
    dimension.rows.push_back({ReadValue(reader, axis.key, *axis.node, axis.field)});
    return dimension;
  }
  if (array->empty()) reader.Throw(*axis.node, axis.field, "list must not be empty");
  for (const toml::node& element : *array) {
    nlohmann::json value = ReadValue(reader, axis.key, element, axis.field);
    for (const auto& row : dimension.rows) {
      if (row[0] == value) reader.Throw(element, axis.field, "duplicate entry");
    }
    dimension.rows.push_back({std::move(value)});
  }
  return dimension;
}

/// Everything the reader collected before building dimensions.
struct Collected {
  std::vector<Axis> axes;                                  ///< top-level axes
  std::vector<std::vector<Axis>> zips;                     ///< one list per [[zip]] group
  std::vector<const toml::node*> zip_nodes;                ///< the group tables
  std::map<std::string, const toml::node*> policy_tables;  ///< policy -> its options table
  std::map<std::string, std::string> policy_fields;        ///< policy -> "policy_options.<p>"
};

/// `[policy_options.<p>]` or `[<p>]`: every option is an axis "<p>.<option>".
void CollectOptions(const Reader& reader, const toml::node& node, const std::string& policy,
                    const std::string& field, Collected& collected, std::vector<Axis>& out) {
  if (!node.is_table()) reader.WrongType(node, field, "a table");
  if (collected.policy_tables.count(policy) > 0) {
    reader.Throw(node, field, "options of policy '" + policy + "' given twice");
  }
  collected.policy_tables[policy] = &node;
  collected.policy_fields[policy] = field;
  for (const auto& [option, value] : *node.as_table()) {
    // An axis key is split at its last dot (the policy's name may hold dots): an option name
    // with a dot would silently become another policy's option.
    if (option.str().find('.') != std::string_view::npos) {
      reader.Throw(value, field + "." + std::string(option.str()),
                   "an option name cannot contain '.'");
    }
    out.push_back({policy + "." + std::string(option.str()),
                   field + "." + std::string(option.str()), &value});
  }
}

/// A key of a plain field (one value per task), not a table.
bool IsAxisKey(const std::string& key) {
  const SpecKey* spec_key = FindSpecKey(key);
  return spec_key != nullptr && !spec_key->table;
}

/// Sorts a table's keys into axes: sweep keys, policy option tables (`policy_options.<p>` or a
/// top-level table named after a registered policy). `prefix` names zip groups in messages.
void CollectTable(const Reader& reader, const toml::table& table, const std::string& prefix,
                  Collected& collected, std::vector<Axis>& out,
                  const std::set<std::string>& skip = {}) {
  for (const auto& [key_view, node] : table) {
    std::string key(key_view.str());
    if (skip.count(key) > 0) continue;
    if (IsAxisKey(key)) {
      out.push_back({key, prefix + key, &node});
    } else if (key == kPolicyOptionsKey) {
      if (!node.is_table()) reader.WrongType(node, prefix + key, "a table");
      for (const auto& [policy, options] : *node.as_table()) {
        std::string name(policy.str());
        CollectOptions(reader, options, name, prefix + key + "." + name, collected, out);
      }
    } else if (node.is_table() && IsRegisteredPolicy(key)) {
      CollectOptions(reader, node, key, prefix + key, collected, out);
    } else if (key + "." == kProductionPrefix) {
      if (!node.is_table()) reader.WrongType(node, prefix + key, "a table");
      for (const auto& [name_view, value] : *node.as_table()) {
        std::string name(name_view.str());
        if (ProductionSourceKeys().count(name) == 0) {
          reader.Throw(value, prefix + key + "." + name, "unknown key of [production]");
        }
        out.push_back({kProductionPrefix + name, prefix + key + "." + name, &value});
      }
    } else {
      reader.Throw(node, prefix + key, "unknown key");
    }
  }
}

/// A [[zip]] group: every entry a list, all of one length, distinct rows.
SweepDimension ReadZip(const Reader& reader, const toml::node& group, const std::vector<Axis>& axes,
                       const std::string& field) {
  if (axes.empty()) reader.Throw(group, field, "zip group has no keys");
  SweepDimension dimension;
  std::size_t length = 0;
  for (const Axis& axis : axes) {
    const toml::array* array = axis.node->as_array();
    if (array == nullptr)
      reader.WrongType(*axis.node, axis.field, "a list (zip entries vary together)");
    if (array->empty()) reader.Throw(*axis.node, axis.field, "list must not be empty");
    if (length == 0) length = array->size();
    if (array->size() != length) {
      reader.Throw(*axis.node, axis.field,
                   "zip lists must have equal lengths: " + std::to_string(array->size()) +
                       " here, " + std::to_string(length) + " for '" + dimension.fields.at(0) +
                       "'");
    }
    dimension.keys.push_back(axis.key);
    dimension.fields.push_back(axis.field);
  }
  dimension.rows.assign(length, {});
  for (const Axis& axis : axes) {
    const toml::array& array = *axis.node->as_array();
    for (std::size_t i = 0; i < length; ++i) {
      dimension.rows[i].push_back(ReadValue(reader, axis.key, array[i], axis.field));
    }
  }
  for (std::size_t i = 0; i < length; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (dimension.rows[i] == dimension.rows[j]) {
        reader.Throw((*axes[0].node->as_array())[i], field, "duplicate zip row");
      }
    }
  }
  return dimension;
}

void CollectZips(const Reader& reader, const toml::node& node, Collected& collected) {
  const toml::array* groups = node.as_array();
  if (groups == nullptr) reader.WrongType(node, "zip", "an array of tables ([[zip]])");
  if (groups->empty()) reader.Throw(node, "zip", "list must not be empty");
  for (std::size_t i = 0; i < groups->size(); ++i) {
    const toml::node& group = (*groups)[i];
    std::string prefix = "zip[" + std::to_string(i) + "].";
    if (!group.is_table()) reader.WrongType(group, "zip", "a table");
    collected.zips.emplace_back();
    collected.zip_nodes.push_back(&group);
    CollectTable(reader, *group.as_table(), prefix, collected, collected.zips.back());
  }
}

/// The default expansion order of a key: its field's position in the field list (a production
/// key: the production field's; a policy option: the policy options').
int Rank(const std::string& key) {
  if (key.rfind(kProductionPrefix, 0) == 0) {
    return FindSpecKey(kProductionPrefix.substr(0, kProductionPrefix.size() - 1))->rank;
  }
  const SpecKey* spec_key = FindSpecKey(key);
  return spec_key != nullptr ? spec_key->rank : PolicyOptionsKey().rank;
}

/// Default expansion order: by the smallest rank of a dimension's keys, then key name.
void SortDimensions(std::vector<SweepDimension>& dimensions) {
  auto order = [](const SweepDimension& d) {
    int best = 2000;
    std::string name;
    for (const auto& key : d.keys) {
      if (Rank(key) < best) best = Rank(key), name = key;
    }
    return std::make_pair(best, name);
  };
  std::stable_sort(dimensions.begin(), dimensions.end(),
                   [&](const auto& a, const auto& b) { return order(a) < order(b); });
}

/// Where an axis was written (for messages), by canonical key.
using AxisIndex = std::map<std::string, Axis>;

void BuildDimensions(const Reader& reader, const Collected& collected, SweepSpec& spec,
                     AxisIndex& index) {
  auto remember = [&](const Axis& axis) {
    auto [it, fresh] = index.emplace(axis.key, axis);
    if (!fresh) {
      reader.Throw(*axis.node, axis.field,
                   "'" + axis.key + "' is given twice (also as '" + it->second.field + "')");
    }
  };
  for (const Axis& axis : collected.axes) {
    remember(axis);
    spec.dimensions.push_back(ReadAxis(reader, axis));
  }
  for (std::size_t i = 0; i < collected.zips.size(); ++i) {
    for (const Axis& axis : collected.zips[i]) remember(axis);
    spec.dimensions.push_back(ReadZip(reader, *collected.zip_nodes[i], collected.zips[i],
                                      "zip[" + std::to_string(i) + "]"));
  }
  for (const SpecKey& spec_key : SpecKeys()) {
    const std::string key = AxisName(spec_key.field);
    const std::optional<ConfigField> instead = FieldInsteadOf(spec_key.field.key);
    const std::string instead_key = instead ? AxisName(*instead) : std::string();
    const bool instead_given = !instead_key.empty() && index.count(instead_key) > 0;
    if (spec_key.field.required && index.count(key) == 0 && !instead_given) {
      throw InputError(
          reader.file, 0, key,
          "missing required key" + (instead_key.empty() ? "" : " (or `" + instead_key + "`)"));
    }
    if (instead_given && index.count(key) > 0) {
      const Axis& axis = index.at(instead_key);
      reader.Throw(*axis.node, axis.field, "give `" + key + "` or `" + instead_key + "`, not both");
    }
  }
  // A log's format is never guessed from its name: [production] needs `format`.
  const auto production = index.lower_bound(kProductionPrefix);
  if (production != index.end() && production->first.rfind(kProductionPrefix, 0) == 0 &&
      index.count(kProductionPrefix + "format") == 0) {
    reader.Throw(*production->second.node, production->second.field,
                 "[production] needs `format` (\"philly\" or \"itp\")");
  }
  SortDimensions(spec.dimensions);
}

/// An interval engine option in a policy's table (scoped to that policy's tasks) needs a policy
/// of the interval engine, and must not be given at the top level too (one field set twice).
void CheckScopedEngineOptions(const Reader& reader, const AxisIndex& index) {
  for (const auto& [key, axis] : index) {
    const std::size_t dot = key.rfind('.');
    if (dot == std::string::npos || key.rfind(kProductionPrefix, 0) == 0) continue;
    const std::string policy = key.substr(0, dot), option = key.substr(dot + 1);
    if (!FieldInPolicyOptions(option)) continue;
    if (FindPolicy(policy, reader.file).engine != EngineKind::kInterval) {
      reader.Throw(*axis.node, axis.field,
                   "'" + option + "' is an option of the interval engine, but policy '" + policy +
                       "' runs on the round engine");
    }
    if (auto top = index.find(option); top != index.end()) {
      reader.Throw(*axis.node, axis.field,
                   "'" + option + "' is given twice for policy '" + policy +
                       "' (also at the top level, as '" + top->second.field + "')");
    }
  }
}

/// Policy options must belong to a swept policy.
void CheckOptionPolicies(const Reader& reader, const Collected& collected, const SweepSpec& spec) {
  const std::string policy_axis = AxisOf(&TaskConfig::policy);
  std::set<std::string> policies;
  for (const SweepDimension& d : spec.dimensions) {
    for (std::size_t k = 0; k < d.keys.size(); ++k) {
      if (d.keys[k] != policy_axis) continue;
      for (const auto& row : d.rows) policies.insert(row[k].get<std::string>());
    }
  }
  for (const auto& [policy, node] : collected.policy_tables) {
    if (policies.count(policy) == 0) {
      reader.Throw(*node, collected.policy_fields.at(policy),
                   "policy '" + policy + "' is not in `" + policy_axis + "`");
    }
  }
}

/// ExpectedCost's statistics of a task's workload, read by the one reader of its format (a
/// `.trace`, or a Pollux workload CSV). A file that does not read has none: its tasks fail with
/// the reader's error, naming file, line and field, when they run (docs/sweeps.md §3), and the
/// estimate needs no more than that.
TraceStats ReadWorkloadStats(const std::string& path) {
  try {
    return IsPolluxWorkload(path) ? ComputeTraceStats(ReadPolluxWorkload(path))
                                  : ComputeTraceStats(ReadTrace(path));
  } catch (const InputError&) {
    return {};
  }
}

void ReadPolicyWeights(const Reader& reader, const toml::node* node, SweepSpec& spec) {
  spec.policy_weights = DefaultPolicyWeights();
  if (node == nullptr) return;
  if (!node->is_table()) reader.WrongType(*node, "policy_weights", "a table");
  for (const auto& [policy, value] : *node->as_table()) {
    std::string field = "policy_weights." + std::string(policy.str());
    spec.policy_weights[std::string(policy.str())] = ReadPositiveNumber(reader, value, field);
  }
}

/// Reads a production task's log once per (log, selection, cluster size) — every row is checked,
/// so a bad row fails the spec with the log's file, line and field before any task runs — and
/// records the selected jobs' TraceStats for ExpectedCost.
void ReadProductionStats(const Reader& reader, SweepSpec& spec, const AxisIndex& index,
                         const TaskConfig& task) {
  const std::string key = ProductionStatsKey(task);
  if (spec.production_stats.count(key) > 0) return;
  ProductionLog log;
  try {
    log = ReadProductionLog(task.trace_path, task.production->format,
                            task.production->LogOptions(task.simulation.num_gpus));
  } catch (const InputError& error) {
    if (error.file() == task.trace_path) throw;  // a row of the log: its own file and line
    auto it = index.find(kProductionPrefix + error.field());  // an option: where it was written
    if (it != index.end()) reader.Throw(*it->second.node, it->second.field, BareMessage(error));
    throw InputError(reader.file, 0, "production", BareMessage(error));
  }
  TraceStats stats;
  stats.num_jobs = static_cast<int>(log.jobs.size());
  for (const LoggedJob& job : log.jobs) {
    stats.last_arrival_s = std::max(stats.last_arrival_s, job.arrival_time_s);
    stats.gpu_seconds += job.gpu_time_s;
  }
  spec.production_stats[key] = stats;
}

/// `detail = "summary" | "per_job" | "full"` (optional; ResultDetail).
void ReadDetail(const Reader& reader, const toml::node* node, SweepSpec& spec) {
  if (node == nullptr) return;
  std::optional<ResultDetail> detail;
  if (node->is_string()) detail = ParseResultDetail(*node->value<std::string>());
  if (!detail) reader.Throw(*node, "detail", "expected \"summary\", \"per_job\" or \"full\"");
  spec.detail = detail;
}

/// Builds each distinct (policy, options) once and validates every task's SimulationOptions;
/// errors point at the axis that set the offending value.
void ValidateTasks(const Reader& reader, SweepSpec& spec, const AxisIndex& index,
                   const Collected& collected) {
  auto rethrow = [&](const InputError& error, const std::string& key, const toml::node* fallback,
                     const std::string& fallback_field) {
    auto it = index.find(key);
    const bool lines = error.multiline();
    if (it != index.end()) {
      reader.Throw(*it->second.node, it->second.field, BareMessage(error), lines);
    }
    if (fallback != nullptr) reader.Throw(*fallback, fallback_field, BareMessage(error), lines);
    throw InputError(reader.file, 0, key, BareMessage(error)).Multiline(lines);
  };
  std::set<std::string> built;
  std::vector<TaskConfig> tasks;
  try {
    tasks = ExpandSweep(spec);
  } catch (const InputError& error) {  // ProductionSource::FromJson: field "production.<key>"
    rethrow(error, error.field(), nullptr, "");
  }
  // An axis of the interval engine's options applies to interval-engine tasks only: one that
  // applies to none is a mistake, as a policy's options without the policy.
  const bool any_interval = std::any_of(tasks.begin(), tasks.end(), [](const TaskConfig& task) {
    return FindPolicy(task.policy).engine == EngineKind::kInterval;
  });
  for (const SpecKey& spec_key : SpecKeys()) {
    auto it = index.find(AxisName(spec_key.field));
    if (any_interval || it == index.end() ||
        spec_key.field.applies != Applies::kIntervalEngineOnly) {
      continue;
    }
    reader.Throw(*it->second.node, it->second.field,
                 "an option of the interval engine, but no policy in `policies` runs on it");
  }
  for (const TaskConfig& task : tasks) {
    try {
      task.simulation.Validate();
    } catch (const InputError& error) {
      rethrow(error, error.field(), nullptr, "");
    }
    if (task.production) {
      ReadProductionStats(reader, spec, index, task);
    } else if (spec.trace_stats.count(task.trace_path) == 0) {
      spec.trace_stats[task.trace_path] = ReadWorkloadStats(task.trace_path);
    }
    std::string key = task.policy + " " + task.policy_options.dump();
    if (!built.insert(key).second) continue;
    try {
      MakePolicy(task.policy, task.policy_options, reader.file);
    } catch (const InputError& error) {
      auto table = collected.policy_tables.find(task.policy);
      const toml::node* node = table != collected.policy_tables.end() ? table->second : nullptr;
      const std::string policy_axis = AxisOf(&TaskConfig::policy);
      std::string field = node != nullptr ? collected.policy_fields.at(task.policy) : policy_axis;
      if (node == nullptr && index.count(policy_axis)) node = index.at(policy_axis).node;
      rethrow(error, error.field(), node, field);
    }
  }
}

}  // namespace

SweepSpec LoadSweepSpec(const std::string& path) {
  toml::table root = ParseFile(path);
  Reader reader{path, fs::absolute(path).parent_path()};
  SweepSpec spec;
  spec.spec_path = path;
  const toml::node* name = root.get("name");
  if (name == nullptr) throw InputError(path, 0, "name", "missing required key");
  if (!name->is_string() || name->value<std::string>()->empty()) {
    reader.WrongType(*name, "name", "a non-empty string");
  }
  spec.name = *name->value<std::string>();
  Collected collected;
  CollectTable(reader, root, "", collected, collected.axes,
               {"name", "zip", "policy_weights", "detail"});
  if (const toml::node* zip = root.get("zip")) CollectZips(reader, *zip, collected);
  ReadPolicyWeights(reader, root.get("policy_weights"), spec);
  ReadDetail(reader, root.get("detail"), spec);
  AxisIndex index;
  BuildDimensions(reader, collected, spec, index);
  CheckOptionPolicies(reader, collected, spec);
  CheckScopedEngineOptions(reader, index);
  // The files a task's id names by content (ConfigField::identified_by) are hashed once here.
  for (const SweepDimension& d : spec.dimensions) {
    for (std::size_t k = 0; k < d.keys.size(); ++k) {
      const SpecKey* key = FindSpecKey(d.keys[k]);
      if (key == nullptr || key->field.identified_by.empty()) continue;
      for (const auto& row : d.rows) {
        std::string file = row[k].get<std::string>();
        if (spec.file_hashes.count(file) == 0) spec.file_hashes[file] = FileContentHash(file);
      }
    }
  }
  ValidateTasks(reader, spec, index, collected);
  return spec;
}

}  // namespace adaptsim
