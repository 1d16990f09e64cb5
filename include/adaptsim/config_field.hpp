// A configuration field declared once (docs/architecture.md, "Task configuration"). An options
// struct declares its fields in a Visit*Fields function that calls `visit(field, member)` for
// every field, in a fixed order, with a ConfigField saying everything the rest of the program
// needs to know about it: its canonical key, units, one-line doc, accepted range, how it is
// written in a task's canonical JSON (and so in its id), which tasks it belongs to, and its name
// as a sweep axis, an `adaptsim run` flag and a keyword of the Python `adaptsim.run`. The task's
// JSON, the sweep reader and expansion, the command line, the Python module and the validation
// iterate these lists (adaptsim/task_fields.hpp), as the result records' lists
// (adaptsim/result_fields.hpp) drive the results file.
//
// This header holds the declaration vocabulary and the conversions of a field's value to and from
// JSON for the plain member types (bool, int, int64, uint64, double, string, enumerations with a
// `EnumChoices` list, WrittenNumber and std::optional of those); a stage with a field of another
// type adds ReadFieldJson / WriteFieldJson overloads for it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"

namespace adaptsim {

/// The accepted values of a number field: finite, above (or at least) `min`, below (or at most)
/// `max`, and integer-valued when `integral`. The default accepts every finite number.
struct NumberRange {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false;  ///< min itself is excluded
  bool max_open = false;  ///< max itself is excluded
  bool integral = false;  ///< only whole numbers (also when written as 4.0)

  bool Contains(double value) const {
    if (!std::isfinite(value)) return false;
    if (min_open ? !(value > min) : !(value >= min)) return false;
    if (max_open ? !(value < max) : !(value <= max)) return false;
    return !integral || value == std::floor(value);
  }
  /// "> 0", ">= 1", "in [0, 1)", "an integer in [1, 9]"; "" for the default range.
  std::string Describe() const;
};

/// A number > min.
constexpr NumberRange Above(double min) {
  return {min, std::numeric_limits<double>::infinity(), true, false, false};
}
/// A number >= min.
constexpr NumberRange AtLeast(double min) {
  return {min, std::numeric_limits<double>::infinity(), false, false, false};
}
/// A number <= max.
constexpr NumberRange AtMost(double max) {
  return {-std::numeric_limits<double>::infinity(), max, false, false, false};
}
/// A number in [min, max] (or [min, max) when `max_open`).
constexpr NumberRange Within(double min, double max, bool max_open = false) {
  return {min, max, false, max_open, false};
}
/// A whole number in [min, max].
constexpr NumberRange WholeWithin(double min, double max) {
  return {min, max, false, false, true};
}

/// How a field is written in a task's canonical JSON (TaskConfig::ToJson), which the task id
/// hashes (docs/sweeps.md §4.1).
enum class Encoding {
  kAlways,         ///< always written; required when read back
  kOptional,       ///< always written; absent when read back = the default (keys added later)
  kUnlessDefault,  ///< written only when not the default, so earlier tasks keep their ids
  kWhenSet,        ///< a std::optional member, written only when set
};

/// Which tasks a field belongs to.
enum class Applies {
  kEveryTask,           ///< part of every task's configuration (and id)
  kIntervalEngineOnly,  ///< only of tasks whose policy runs on the interval engine: a sweep axis
                        ///< leaves other tasks alone, and a task of another engine that sets it
                        ///< is refused
};

/// What a text field names, which decides how a sweep spec and the command line check it.
enum class TextKind {
  kText,          ///< free text or an enumeration
  kFile,          ///< an existing file (resolved to an absolute path)
  kFileOrFolder,  ///< an existing file or folder
  kPolicy,        ///< a policy name of the table or a policy scheme ("py:MODULE:CLASS")
};

/// A name that equals the field's key (`axis`, `kwarg`) or is derived from it (`flag`: "--" and
/// the key with '-' for '_').
inline constexpr std::string_view kFromKey = "";
/// The field has no such name: it is not a sweep axis, command-line flag or Python keyword.
inline constexpr std::string_view kNotExposed = "-";

/// Everything about one configuration field except its type and default, which are its member's
/// (the default is the member's value in a default-constructed struct).
struct ConfigField {
  std::string_view key;   ///< canonical key in the task's JSON
  std::string_view unit;  ///< units vocabulary of adaptsim/result_fields.hpp; "" text/enumeration
  std::string_view doc;   ///< one line: meaning and source
  NumberRange range = {};
  Encoding encoding = Encoding::kAlways;
  Applies applies = Applies::kEveryTask;
  /// "" = a top-level key of the JSON; otherwise the key of the (earlier visited) JSON-object
  /// field the value is written in ("policy_options": the interval engine's options, which were
  /// policy options once, keep their place so that task ids do not change).
  std::string_view json_parent = {};
  std::string_view axis = kFromKey;   ///< key in a sweep spec (docs/sweeps.md §1)
  std::string_view flag = kFromKey;   ///< `adaptsim run` flag
  std::string_view kwarg = kFromKey;  ///< keyword argument of the Python `adaptsim.run`
  TextKind text = TextKind::kText;
  bool required = false;  ///< a sweep, `adaptsim run` and `adaptsim.run` must give it
  /// What the default means when it is not simply the member's default value (an unset optional:
  /// "the catalogue's node size").
  std::string_view default_doc = {};
  /// The default of an optional number field (an unset member means this value), for help and
  /// docs; NaN when the field has none of its own.
  double default_number = std::numeric_limits<double>::quiet_NaN();
  /// A content-hash field that, when set, replaces this one in the task id (a path: the same
  /// bytes have the same id wherever they live).
  std::string_view identified_by = {};
  /// The key of an earlier field of the same list: this field is written exactly when that one is
  /// (a production log's sample_start_hour and sample_hours, with sample_jobs); "" = on its own.
  std::string_view written_with = {};
  /// The key of a required field that this one may be given in place of, and then determines
  /// (`cluster` for `num_gpus`: a cluster of GPU types gives its GPU count). A sweep, `adaptsim
  /// run` and `adaptsim.run` need one of the two and refuse both.
  std::string_view instead_of = {};
};

/// The field's sweep key, flag or keyword; "" when it has none.
inline std::string AxisName(const ConfigField& field) {
  if (field.axis == kNotExposed) return "";
  return std::string(field.axis.empty() ? field.key : field.axis);
}
inline std::string FlagName(const ConfigField& field) {
  if (field.flag == kNotExposed) return "";
  if (!field.flag.empty()) return std::string(field.flag);
  std::string flag = "--" + std::string(field.key);
  for (char& c : flag) c = c == '_' ? '-' : c;
  return flag;
}
inline std::string KwargName(const ConfigField& field) {
  if (field.kwarg == kNotExposed) return "";
  return std::string(field.kwarg.empty() ? field.key : field.kwarg);
}
/// The field's place in messages about a task's JSON: "key" or "parent.key".
inline std::string JsonLabel(const ConfigField& field) {
  return field.json_parent.empty() ? std::string(field.key)
                                   : std::string(field.json_parent) + "." + std::string(field.key);
}

/// A number together with how it was written: as an integer (`240`) or not (`240.0`). A field of
/// this type is written back exactly as it was given, so that the ids of tasks whose JSON held the
/// value as given (the interval engine's options, once policy options) do not change.
struct WrittenNumber {
  double value = 0.0;
  bool integer = false;  ///< written as a JSON/TOML integer
  friend bool operator==(const WrittenNumber&, const WrittenNumber&) = default;
};

/// The value type of an enumeration field: it must have an ADL-visible `EnumChoices(E)` returning
/// pairs (value, name), e.g. `constexpr std::array<std::pair<E, std::string_view>, 2>
/// EnumChoices(E)`.
template <typename E>
concept ChoiceEnum = std::is_enum_v<E> && requires(E e) {
  EnumChoices(e).begin();
};

/// The name of `value` in its EnumChoices list.
template <ChoiceEnum E>
std::string_view ChoiceName(E value) {
  for (const auto& [choice, name] : EnumChoices(value)) {
    if (choice == value) return name;
  }
  return "";
}

/// `"a" or "b"` / `"a", "b" or "c"`: the names of E's choices for messages.
template <ChoiceEnum E>
std::string ChoiceList(E probe = E{}) {
  std::string text;
  const auto choices = EnumChoices(probe);
  std::size_t i = 0;
  for (const auto& [choice, name] : choices) {
    if (i > 0) text += i + 1 == choices.size() ? " or " : ", ";
    text.append("\"").append(name).append("\"");  // piecewise: GCC 12's -Wrestrict on "\"" + s
    ++i;
  }
  return text;
}

namespace field_detail {

[[noreturn]] inline void Fail(const std::string& context, const std::string& label,
                              const std::string& message) {
  throw InputError(context, 0, label, message);
}

inline void CheckRange(const ConfigField& field, double value, const std::string& context,
                       const std::string& label) {
  if (!field.range.Contains(value)) {
    nlohmann::json shown = value;
    Fail(context, label, "must be " + field.range.Describe() + ", got " + shown.dump());
  }
}

/// "a string", "an integer", "a number", ... for "expected X, got Y".
inline std::string JsonTypeName(const nlohmann::json& value) {
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_number_integer()) return "an integer";
  if (value.is_number()) return "a number";
  if (value.is_array()) return "a list";
  if (value.is_object()) return "a table";
  return "nothing";
}

[[noreturn]] inline void WrongType(const nlohmann::json& value, const std::string& expected,
                                   const std::string& context, const std::string& label) {
  Fail(context, label, "expected " + expected + ", got " + JsonTypeName(value));
}

}  // namespace field_detail

// ReadFieldJson(field, value, member, context, label): checks `value`'s type and the field's range
// and sets `member`; throws InputError(context, 0, label, message) otherwise. WriteFieldJson
// returns the member's JSON value. An optional member is read as its value type (null = unset).

template <typename T>
requires(std::is_integral_v<T> &&
         !std::is_same_v<T, bool>) void ReadFieldJson(const ConfigField& field,
                                                      const nlohmann::json& value, T& member,
                                                      const std::string& context,
                                                      const std::string& label) {
  const bool is_unsigned = std::is_unsigned_v<T>;
  if (!value.is_number_integer()) {
    field_detail::WrongType(value, is_unsigned ? "an integer >= 0" : "an integer", context, label);
  }
  if constexpr (is_unsigned) {
    if (!value.is_number_unsigned() && value.get<std::int64_t>() < 0) {
      field_detail::Fail(context, label, "must be >= 0, got " + value.dump());
    }
    member = value.get<T>();
  } else {
    const std::int64_t v = value.get<std::int64_t>();
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) {
      field_detail::Fail(context, label, "out of range: " + value.dump());
    }
    member = static_cast<T>(v);
  }
  field_detail::CheckRange(field, static_cast<double>(member), context, label);
}

inline void ReadFieldJson(const ConfigField& field, const nlohmann::json& value, double& member,
                          const std::string& context, const std::string& label) {
  if (!value.is_number()) field_detail::WrongType(value, "a number", context, label);
  member = value.get<double>();
  field_detail::CheckRange(field, member, context, label);
}

inline void ReadFieldJson(const ConfigField& field, const nlohmann::json& value,
                          WrittenNumber& member, const std::string& context,
                          const std::string& label) {
  if (!value.is_number()) field_detail::WrongType(value, "a number", context, label);
  member = {value.get<double>(), value.is_number_integer()};
  field_detail::CheckRange(field, member.value, context, label);
}

inline void ReadFieldJson(const ConfigField& /*field*/, const nlohmann::json& value,
                          std::string& member, const std::string& context,
                          const std::string& label) {
  if (!value.is_string()) field_detail::WrongType(value, "a string", context, label);
  member = value.get<std::string>();
}

inline void ReadFieldJson(const ConfigField& /*field*/, const nlohmann::json& value, bool& member,
                          const std::string& context, const std::string& label) {
  if (!value.is_boolean()) field_detail::WrongType(value, "true or false", context, label);
  member = value.get<bool>();
}

template <ChoiceEnum E>
void ReadFieldJson(const ConfigField& /*field*/, const nlohmann::json& value, E& member,
                   const std::string& context, const std::string& label) {
  if (!value.is_string()) field_detail::WrongType(value, ChoiceList<E>(), context, label);
  const std::string text = value.get<std::string>();
  for (const auto& [choice, name] : EnumChoices(member)) {
    if (name == text) {
      member = choice;
      return;
    }
  }
  field_detail::Fail(context, label, "expected " + ChoiceList<E>() + ", got \"" + text + "\"");
}

template <typename T>
void ReadFieldJson(const ConfigField& field, const nlohmann::json& value, std::optional<T>& member,
                   const std::string& context, const std::string& label) {
  if (value.is_null()) {
    member.reset();
    return;
  }
  T parsed{};
  ReadFieldJson(field, value, parsed, context, label);
  member = std::move(parsed);
}

template <typename T>
requires(std::is_arithmetic_v<T> || std::is_same_v<T, std::string>) nlohmann::json
    WriteFieldJson(const T& member) {
  return member;
}

inline nlohmann::json WriteFieldJson(const WrittenNumber& member) {
  if (member.integer) return static_cast<std::int64_t>(member.value);
  return member.value;
}

template <ChoiceEnum E>
nlohmann::json WriteFieldJson(const E& member) {
  return std::string(ChoiceName(member));
}

template <typename T>
nlohmann::json WriteFieldJson(const std::optional<T>& member) {
  return member ? WriteFieldJson(*member) : nlohmann::json();
}

/// Checks a member's value against its field's range (options structs' Validate()); throws
/// InputError(context, 0, key, ...). Non-numbers and unset optionals pass.
template <typename T>
void CheckFieldRange(const ConfigField& field, const T& member, const std::string& context) {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    field_detail::CheckRange(field, static_cast<double>(member), context, std::string(field.key));
  } else if constexpr (std::is_same_v<T, WrittenNumber>) {
    field_detail::CheckRange(field, member.value, context, std::string(field.key));
  } else if constexpr (requires { member.has_value(); }) {
    if (member) CheckFieldRange(field, *member, context);
  }
}

inline std::string NumberRange::Describe() const {
  const bool has_min = std::isfinite(min), has_max = std::isfinite(max);
  auto number = [](double v) {
    nlohmann::json shown = v;
    std::string text = shown.dump();
    if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) {
      text.resize(text.size() - 2);
    }
    return text;
  };
  std::string text = integral ? "an integer " : "";
  if (has_min && has_max) {
    return text + "in " + (min_open ? "(" : "[") + number(min) + ", " + number(max) +
           (max_open ? ")" : "]");
  }
  if (has_min) return text + (min_open ? "> " : ">= ") + number(min);
  if (has_max) return text + (max_open ? "< " : "<= ") + number(max);
  return integral ? "an integer" : "";
}

}  // namespace adaptsim
