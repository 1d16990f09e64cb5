// A policy's options, each declared once (docs/policies.md §11.1, docs/architecture.md). An
// options struct lists its options in one static member function
//
//   template <typename Self, typename V>
//   static void VisitOptions(Self& self, V&& visit) {
//     visit(Option("alpha", "share of the unallocated jobs considered each solve", AtLeast(0)),
//           self.alpha);
//   }
//
// which calls `visit(spec, member)` once per option, in the order `adaptsim run --policy help`
// lists them (`Self` is the struct, const or not). The spec is the option's key, its one-line
// meaning and the rule of its accepted values; the member's type gives the JSON type (bool,
// number, integer, string, list of numbers, or a name from Choices) and its default member
// initialiser gives the default. Options shared by several structs live in a struct of their own
// whose VisitOptions the others call (LpPathOptions), so they too are declared once. Everything
// else is derived from that one list, like the result fields of include/adaptsim/result_fields.hpp:
//   DescribeOptions<O>()   the registry's PolicyInfo::options: key, default (JSON), doc line with
//                          the rule (hence `adaptsim run --policy help`, adaptsim.policies() and
//                          the table of docs/policies.md §11, which a test compares);
//   ParseOptions<O>()      JSON -> O: type errors, then ValidateOptions;
//   ValidateOptions()      every rule, then O::CheckOptions (constraints across options) if any;
//   OptionsJson()          O -> JSON of every declared key;
//   OptionKeys<O>()        the declared keys, for the one unknown-key check (RequireKnownKeys,
//                          made by MakePolicy on the policy's PolicyInfo::options).
// Errors are InputError(file = OptionContext::file, field = "<prefix>.<key>").
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/config_field.hpp"
#include "adaptsim/error.hpp"

namespace adaptsim {

/// One option of a policy (a key of its JSON options, `--policy-option KEY=VALUE`).
struct PolicyOption {
  std::string name;              ///< the key
  nlohmann::json default_value;  ///< the value used when the key is absent
  std::string doc;               ///< meaning, units and accepted values, one line
};

/// Where a set of options comes from, for error messages.
struct OptionContext {
  std::string file;    ///< InputError's file: the input that holds the options (spec, path, ...)
  std::string prefix;  ///< field prefix: the policy's name, or "" for a file of options

  /// "<prefix>.<key>", or `key` when the prefix is empty.
  std::string Field(std::string_view key) const;
  /// Throws InputError(file, 0, Field(key), message).
  [[noreturn]] void Fail(std::string_view key, const std::string& message) const;
};

// ---- Rules: the accepted values of one option -------------------------------------------------

/// Any value of the member's type.
struct AnyValue {};

/// A finite number in [min, max] (an open end excludes its bound); for an integer member, an
/// integer in that range. The one number-range vocabulary of the configuration fields
/// (adaptsim/config_field.hpp: AtLeast, Above, AtMost, Within).
using Range = NumberRange;

/// A string that must be given (no default); the member's default is the empty string.
struct Required {};

/// One accepted name of a Choices option, the value it stands for, and an optional note.
template <typename T>
struct Choice {
  const char* name;
  T value;
  const char* note = nullptr;
};

/// The option is one of these names; the member holds the value of the name given. Several
/// names may stand for one value (the first is the one shown as the default).
template <typename T>
struct Choices {
  Choices(std::initializer_list<Choice<T>> choices) : list(choices) {}
  std::vector<Choice<T>> list;
};

/// The option is the path of a file of options read first, with `read`, into the whole options
/// struct (its base T); "" = none. Declare it before the keys it provides, which then override
/// the file's values.
template <typename T>
struct BaseFile {
  using Type = T;
  T (*read)(const std::string& path);
};

/// One option's declaration: key, one-line meaning (units first where they apply) and rule.
template <typename Rule>
struct OptionSpec {
  const char* key;
  const char* doc;
  Rule rule;
};

template <typename Rule = AnyValue>
OptionSpec<Rule> Option(const char* key, const char* doc, Rule rule = {}) {
  return {key, doc, std::move(rule)};
}

/// The options struct of a policy without options.
struct NoOptions {
  template <typename Self, typename V>
  static void VisitOptions(Self&, V&&) {}
};

// ---- What the declarations drive ----------------------------------------------------------------

namespace options_detail {

template <typename>
inline constexpr bool kIsChoices = false;
template <typename T>
inline constexpr bool kIsChoices<Choices<T>> = true;
template <typename>
inline constexpr bool kIsBaseFile = false;
template <typename T>
inline constexpr bool kIsBaseFile<BaseFile<T>> = true;
template <typename M>
inline constexpr bool kIsInteger = std::is_integral_v<M> && !std::is_same_v<M, bool>;

/// `value` as text that reads back the same: an integer below 1e6 in full ("100000"), else the
/// shortest form ("1e9", "0.001", "4194304").
std::string NumberText(double value);
/// "an integer in [1, 1e9]", ">= 0", "in (0, 1]", ...
std::string RangeText(const Range& range, bool integer);
/// "expected ..., got <value>" for the JSON value `value`.
std::string Expected(const char* what, const nlohmann::json& value);

template <typename T>
std::string ChoiceNames(const Choices<T>& choices, const char* separator, bool notes) {
  std::string text;
  for (const Choice<T>& choice : choices.list) {
    if (!text.empty()) text += separator;
    text += choice.name;
    if (notes && choice.note) text += std::string(" (") + choice.note + ")";
  }
  return text;
}

/// The rule as text, appended to the option's meaning in its doc line.
template <typename M, typename Rule>
std::string DocLine(const OptionSpec<Rule>& spec) {
  const std::string doc = spec.doc;
  if constexpr (kIsChoices<Rule>) {
    const std::string names = ChoiceNames(spec.rule, " | ", true);
    return doc.empty() ? names : doc + ": " + names;
  } else if constexpr (std::is_same_v<Rule, Range>) {
    return doc + ", " + RangeText(spec.rule, kIsInteger<M>);
  } else if constexpr (std::is_same_v<Rule, Required>) {
    return "required: " + doc;
  } else {
    return doc;
  }
}

/// The member as the option's JSON value (the default, for a default-constructed struct).
template <typename M, typename Rule>
nlohmann::json ValueJson(const M& member, const Rule& rule) {
  if constexpr (kIsChoices<Rule>) {
    for (const auto& choice : rule.list) {
      if (choice.value == member) return choice.name;
    }
    return nullptr;  // a value without a name (e.g. a face position set directly)
  } else if constexpr (kIsBaseFile<Rule>) {
    return "";  // the file is read when parsed; the struct holds its values
  } else if constexpr (std::is_same_v<Rule, Required>) {
    return member.empty() ? nlohmann::json(nullptr) : nlohmann::json(member);
  } else {
    return member;
  }
}

/// Reads one JSON value into the member, checking its type (ValidateOptions checks the rule).
template <typename M, typename Rule>
void ReadValue(const nlohmann::json& value, M& member, const OptionSpec<Rule>& spec,
               const OptionContext& where) {
  const char* key = spec.key;
  if constexpr (kIsChoices<Rule>) {
    const std::string known = ChoiceNames(spec.rule, ", ", false);
    if (!value.is_string()) where.Fail(key, Expected(("one of " + known).c_str(), value));
    for (const auto& choice : spec.rule.list) {
      if (choice.name == value.get<std::string>()) {
        member = choice.value;
        return;
      }
    }
    where.Fail(key, "unknown value '" + value.get<std::string>() + "' (known: " + known + ")");
  } else if constexpr (kIsBaseFile<Rule>) {
    if (!value.is_string()) where.Fail(key, Expected("a path", value));
    const std::string path = value.get<std::string>();
    if (!path.empty()) static_cast<typename Rule::Type&>(member) = spec.rule.read(path);
  } else if constexpr (std::is_same_v<M, bool>) {
    if (!value.is_boolean()) where.Fail(key, Expected("true or false", value));
    member = value.get<bool>();
  } else if constexpr (kIsInteger<M>) {
    const double number = value.is_number() ? value.get<double>() : 0.5;
    if (!value.is_number() || number != std::floor(number) ||
        number < static_cast<double>(std::numeric_limits<M>::lowest()) ||
        number > static_cast<double>(std::numeric_limits<M>::max())) {
      where.Fail(key, Expected("an integer", value));
    }
    member = static_cast<M>(number);
  } else if constexpr (std::is_floating_point_v<M>) {
    if (!value.is_number()) where.Fail(key, Expected("a number", value));
    member = value.get<M>();
  } else if constexpr (std::is_same_v<M, std::string>) {
    if (!value.is_string()) where.Fail(key, Expected("a string", value));
    member = value.get<std::string>();
  } else if constexpr (std::is_same_v<M, std::vector<double>>) {
    if (!value.is_array()) where.Fail(key, Expected("a list of numbers", value));
    member.clear();
    for (const nlohmann::json& item : value) {
      if (!item.is_number()) where.Fail(key, Expected("a list of numbers", value));
      member.push_back(item.get<double>());
    }
  } else {
    static_assert(!sizeof(M), "no JSON reading for this option type");
  }
}

/// Checks the member against the option's rule.
template <typename M, typename Rule>
void CheckValue(const M& member, const OptionSpec<Rule>& spec, const OptionContext& where) {
  if constexpr (std::is_same_v<Rule, Range>) {
    const double value = static_cast<double>(member);
    const Range& r = spec.rule;
    const bool ok = std::isfinite(value) && (r.min_open ? value > r.min : value >= r.min) &&
                    (r.max_open ? value < r.max : value <= r.max);
    if (!ok) {
      where.Fail(spec.key, "must be " + RangeText(r, kIsInteger<M>) + ", got " +
                               nlohmann::json(member).dump());
    }
  } else if constexpr (std::is_same_v<Rule, Required>) {
    if (member.empty()) where.Fail(spec.key, std::string("required option missing: ") + spec.doc);
  }
}

}  // namespace options_detail

/// Every option of O with its default and doc line (the registry's PolicyInfo::options).
template <typename O>
std::vector<PolicyOption> DescribeOptions() {
  std::vector<PolicyOption> options;
  const O defaults{};
  O::VisitOptions(defaults, [&](const auto& spec, const auto& member) {
    using M = std::remove_cvref_t<decltype(member)>;
    options.push_back(
        {spec.key, options_detail::ValueJson(member, spec.rule), options_detail::DocLine<M>(spec)});
  });
  return options;
}

/// The declared keys of O, in declaration order.
template <typename O>
std::vector<std::string> OptionKeys() {
  std::vector<std::string> keys;
  const O defaults{};
  O::VisitOptions(defaults, [&](const auto& spec, const auto&) { keys.push_back(spec.key); });
  return keys;
}

/// Checks every option of `options` against its rule, then O::CheckOptions(where) when O has one.
template <typename O>
void ValidateOptions(const O& options, const OptionContext& where) {
  O::VisitOptions(options, [&](const auto& spec, const auto& member) {
    options_detail::CheckValue(member, spec, where);
  });
  if constexpr (requires { options.CheckOptions(where); }) options.CheckOptions(where);
}

/// O from a JSON object of options (null = no options): each declared key present is read over
/// the default (in declaration order), then the whole is validated. Keys O does not declare are
/// not looked at: MakePolicy rejects those the policy does not accept (RequireKnownKeys).
template <typename O>
O ParseOptions(const nlohmann::json& json, const OptionContext& where) {
  O options{};
  if (!json.is_null() && !json.is_object()) {
    throw InputError(where.file, 0, where.prefix, options_detail::Expected("an object", json));
  }
  if (json.is_object()) {
    O::VisitOptions(options, [&](const auto& spec, auto& member) {
      if (auto it = json.find(spec.key); it != json.end()) {
        options_detail::ReadValue(*it, member, spec, where);
      }
    });
  }
  ValidateOptions(options, where);
  return options;
}

/// Every declared option of `options` as JSON, {key: value}.
template <typename O>
nlohmann::json OptionsJson(const O& options) {
  nlohmann::json json = nlohmann::json::object();
  O::VisitOptions(options, [&](const auto& spec, const auto& member) {
    json[spec.key] = options_detail::ValueJson(member, spec.rule);
  });
  return json;
}

/// The one unknown-key check: every key of the object `json` is in `known`; otherwise
/// InputError(where.file, where.Field(key), "unknown <what> (known: ...)").
void RequireKnownKeys(const nlohmann::json& json, const std::vector<std::string>& known,
                      const OptionContext& where, const std::string& what);

}  // namespace adaptsim
