#include "adaptsim/policy_options.hpp"

#include <algorithm>

#include "adaptsim/error.hpp"

namespace adaptsim::internal {

void RequireKnownOptions(const nlohmann::json& options, const std::string& policy,
                         std::initializer_list<const char*> allowed, const std::string& context) {
  if (options.is_null()) return;
  if (!options.is_object()) throw InputError(context, 0, policy, "policy options must be a table");
  for (const auto& item : options.items()) {
    const std::string& key = item.key();  // not a structured binding: captured below (clang 14)
    bool known =
        std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; });
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
      throw InputError(context, 0, policy + "." + key,
                       "unknown option for policy '" + policy +
                           "' (known: " + (list.empty() ? "none" : list) + ")");
    }
  }
}

double NumberOption(const nlohmann::json& options, const std::string& policy, const char* key,
                    double fallback, const std::string& context) {
  if (!options.is_object() || !options.contains(key)) return fallback;
  if (!options[key].is_number()) {
    throw InputError(context, 0, policy + "." + key, "expected a number");
  }
  return options[key].get<double>();
}

bool BoolOption(const nlohmann::json& options, const std::string& policy, const char* key,
                bool fallback, const std::string& context) {
  if (!options.is_object() || !options.contains(key)) return fallback;
  if (!options[key].is_boolean()) {
    throw InputError(context, 0, policy + "." + key, "expected true or false");
  }
  return options[key].get<bool>();
}

std::string StringOption(const nlohmann::json& options, const std::string& policy, const char* key,
                         const std::string& fallback, const std::string& context) {
  if (!options.is_object() || !options.contains(key)) return fallback;
  if (!options[key].is_string()) {
    throw InputError(context, 0, policy + "." + key, "expected a string");
  }
  return options[key].get<std::string>();
}

}  // namespace adaptsim::internal
