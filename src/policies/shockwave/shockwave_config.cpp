// Shockwave configuration (shockwave_config.hpp).
#include "shockwave_config.hpp"

#include <cmath>
#include <fstream>

#include "adaptsim/error.hpp"

namespace adaptsim {

void ShockwaveConfig::CheckOptions(const OptionContext& where) const {
  const std::vector<double>& b = log_approximation_bases;
  const char* key = "log_approximation_bases";
  if (b.size() < 2) where.Fail(key, "need at least 2 bases");
  if (b.front() != 0.0) where.Fail(key, "the first base must be 0 (the reference asserts it)");
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (!(std::isfinite(b[i]) && b[i] >= 0.0 && b[i] <= 1.0)) {
      where.Fail(key, "every base must lie in [0, 1]");
    }
    if (i > 0 && !(b[i] > b[i - 1])) where.Fail(key, "bases must strictly increase");
  }
  if (!(b[1] > 1e-6))
    where.Fail(key, "the second base must exceed 1e-6 (log values must increase)");
}

ShockwaveConfig ReadShockwaveConfig(const std::string& path) {
  std::ifstream in = OpenInputFile(path, "Shockwave configuration");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {  // parse_error, number overflow
    throw InputError(path, 0, "", std::string("malformed JSON: ") + error.what());
  }
  if (!json.is_object()) throw InputError(path, 0, "", "expected a JSON object");
  const OptionContext where{path, ""};
  RequireKnownKeys(json, OptionKeys<ShockwaveConfig>(), where, "Shockwave key");
  return ParseOptions<ShockwaveConfig>(json, where);
}

}  // namespace adaptsim
