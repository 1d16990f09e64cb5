// Declared policy options (adaptsim/policy_options.hpp): the parts that do not depend on an options
// type.
#include "adaptsim/policy_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace adaptsim {

std::string OptionContext::Field(std::string_view key) const {
  return prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
}

void OptionContext::Fail(std::string_view key, const std::string& message) const {
  throw InputError(file, 0, Field(key), message);
}

void RequireKnownKeys(const nlohmann::json& json, const std::vector<std::string>& known,
                      const OptionContext& where, const std::string& what) {
  if (!json.is_object()) return;  // the parser reports a value that is not an object
  for (const auto& item : json.items()) {
    if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
    std::string list;
    for (const std::string& key : known) list += (list.empty() ? "" : ", ") + key;
    where.Fail(item.key(), "unknown " + what + " (known: " + (list.empty() ? "none" : list) + ")");
  }
}

namespace options_detail {

std::string NumberText(double value) {
  char text[32];
  if (value == std::floor(value) && std::abs(value) < 1e6) {
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  std::string out = text;
  // "1e+09" -> "1e9", "1e-05" -> "1e-5"
  const std::size_t e = out.find('e');
  if (e != std::string::npos) {
    std::string mantissa = out.substr(0, e), exponent = out.substr(e + 1);
    const bool negative = exponent[0] == '-';
    if (exponent[0] == '+' || exponent[0] == '-') exponent.erase(0, 1);
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    out = mantissa + "e" + (negative ? "-" : "") + exponent;
  }
  return out;
}

std::string RangeText(const Range& range, bool integer) {
  const bool has_min = std::isfinite(range.min), has_max = std::isfinite(range.max);
  std::string text;
  if (has_min && has_max) {
    text = std::string("in ") + (range.min_open ? "(" : "[") + NumberText(range.min) + ", " +
           NumberText(range.max) + (range.max_open ? ")" : "]");
  } else if (has_min) {
    text = (range.min_open ? "> " : ">= ") + NumberText(range.min);
  } else if (has_max) {
    text = (range.max_open ? "< " : "<= ") + NumberText(range.max);
  } else {
    text = "finite";
  }
  return integer ? "an integer " + text : text;
}

std::string Expected(const char* what, const nlohmann::json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return std::string("expected ") + what + ", got " + text;
}

}  // namespace options_detail
}  // namespace adaptsim
