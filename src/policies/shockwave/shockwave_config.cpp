// Shockwave configuration (shockwave_config.hpp).
#include "shockwave_config.hpp"

#include <cmath>
#include <fstream>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

const char* const kKnownKeys[] = {
    "future_rounds",           "k",       "lambda",           "rhomax",
    "log_approximation_bases", "gpu_ram", "solver_rel_gap",   "solver_timeout",
    "solver_num_threads",      "solver",  "solver_max_nodes", "solver_wall_clock"};

double Number(const nlohmann::json& value, const std::string& context, const std::string& key) {
  if (!value.is_number()) {
    throw InputError(context, 0, key, "expected a number, got " + std::string(value.type_name()));
  }
  return value.get<double>();
}

std::int64_t Integer(const nlohmann::json& value, const std::string& context,
                     const std::string& key) {
  const double number = Number(value, context, key);
  if (number != std::floor(number) || std::abs(number) > 9.0e15) {
    throw InputError(context, 0, key, "expected an integer, got " + value.dump());
  }
  return static_cast<std::int64_t>(number);
}

void Check(bool ok, const std::string& context, const std::string& key,
           const std::string& message) {
  if (!ok) throw InputError(context, 0, key, message);
}

void ApplyKey(const std::string& key, const nlohmann::json& value, const std::string& context,
              ShockwaveConfig& config) {
  if (key == "future_rounds") {
    const std::int64_t rounds = Integer(value, context, key);
    Check(rounds >= 1 && rounds <= 100000, context, key, "must be >= 1, got " + value.dump());
    config.future_rounds = static_cast<int>(rounds);
  } else if (key == "k") {
    config.k = Number(value, context, key);
  } else if (key == "lambda") {
    config.lambda = Number(value, context, key);
  } else if (key == "rhomax") {
    config.rhomax = Number(value, context, key);
  } else if (key == "log_approximation_bases") {
    Check(value.is_array(), context, key, "expected a list of numbers");
    config.log_approximation_bases.clear();
    for (const nlohmann::json& base : value) {
      config.log_approximation_bases.push_back(Number(base, context, key));
    }
  } else if (key == "gpu_ram") {
    config.gpu_ram = Number(value, context, key);
  } else if (key == "solver_rel_gap") {
    config.solver_rel_gap = Number(value, context, key);
  } else if (key == "solver_timeout") {
    config.solver_timeout = Number(value, context, key);
  } else if (key == "solver_num_threads") {
    config.solver_num_threads = static_cast<int>(Integer(value, context, key));
  } else if (key == "solver_max_nodes") {
    config.solver_max_nodes = Integer(value, context, key);
  } else if (key == "solver_wall_clock") {
    Check(value.is_boolean(), context, key, "expected true or false");
    config.solver_wall_clock = value.get<bool>();
  } else if (key == "solver") {
    Check(value.is_string(), context, key,
          "expected \"structured\", \"structured_reference\" or \"general\"");
    const std::string name = value.get<std::string>();
    Check(name == "structured" || name == "structured_reference" || name == "general", context, key,
          "unknown solver '" + name + "' (known: structured, structured_reference, general)");
    config.solver = name == "structured"             ? ShockwaveSolver::kStructured
                    : name == "structured_reference" ? ShockwaveSolver::kStructuredReference
                                                     : ShockwaveSolver::kGeneral;
  } else {
    std::string known;
    for (const char* k : kKnownKeys) known += (known.empty() ? "" : ", ") + std::string(k);
    throw InputError(context, 0, key, "unknown Shockwave key (known: " + known + ", config)");
  }
}

}  // namespace

void ShockwaveConfig::Validate(const std::string& context) const {
  Check(future_rounds >= 1, context, "future_rounds", "must be >= 1");
  Check(std::isfinite(k) && k >= 0.0, context, "k", "must be a finite number >= 0");
  Check(std::isfinite(lambda) && lambda >= 0.0, context, "lambda", "must be >= 0");
  Check(std::isfinite(rhomax) && rhomax > 0.0, context, "rhomax", "must be > 0");
  const std::vector<double>& b = log_approximation_bases;
  Check(b.size() >= 2, context, "log_approximation_bases", "need at least 2 bases");
  Check(b.front() == 0.0, context, "log_approximation_bases",
        "the first base must be 0 (the reference asserts it)");
  for (std::size_t i = 0; i < b.size(); ++i) {
    Check(std::isfinite(b[i]) && b[i] >= 0.0 && b[i] <= 1.0, context, "log_approximation_bases",
          "every base must lie in [0, 1]");
    if (i > 0) {
      Check(b[i] > b[i - 1], context, "log_approximation_bases", "bases must strictly increase");
    }
  }
  Check(b[1] > 1e-6, context, "log_approximation_bases",
        "the second base must exceed 1e-6 (log values must increase)");
  Check(std::isfinite(solver_rel_gap) && solver_rel_gap >= 0.0, context, "solver_rel_gap",
        "must be >= 0");
  Check(std::isfinite(solver_timeout) && solver_timeout > 0.0, context, "solver_timeout",
        "must be > 0");
  Check(solver_num_threads >= 1, context, "solver_num_threads", "must be >= 1");
  Check(solver_max_nodes >= 1, context, "solver_max_nodes", "must be >= 1");
  Check(std::isfinite(gpu_ram) && gpu_ram > 0.0, context, "gpu_ram", "must be > 0");
}

void ApplyShockwaveJson(const nlohmann::json& json, const std::string& context,
                        ShockwaveConfig& config) {
  if (!json.is_object()) throw InputError(context, 0, "", "expected a JSON object");
  for (const auto& [key, value] : json.items()) ApplyKey(key, value, context, config);
}

ShockwaveConfig ReadShockwaveConfig(const std::string& path) {
  std::ifstream in = OpenInputFile(path, "Shockwave configuration");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {  // parse_error, number overflow
    throw InputError(path, 0, "", std::string("malformed JSON: ") + error.what());
  }
  ShockwaveConfig config;
  ApplyShockwaveJson(json, path, config);
  config.Validate(path);
  return config;
}

ShockwaveConfig ShockwaveConfigFromOptions(const nlohmann::json& options,
                                           const std::string& context) {
  ShockwaveConfig config;
  if (options.is_null()) return config;
  if (!options.is_object()) throw InputError(context, 0, "shockwave", "expected an object");
  nlohmann::json overrides = options;
  if (options.contains("config")) {
    const nlohmann::json& path = options.at("config");
    if (!path.is_string()) throw InputError(context, 0, "shockwave.config", "expected a path");
    if (!path.get<std::string>().empty()) config = ReadShockwaveConfig(path.get<std::string>());
    overrides.erase("config");
  }
  ApplyShockwaveJson(overrides, context, config);
  config.Validate(context);
  return config;
}

}  // namespace adaptsim
