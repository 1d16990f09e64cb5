// Fuzz target: the Shockwave configuration JSON reader (ReadShockwaveConfig,
// src/policies/shockwave/shockwave_config.hpp), and the same JSON given as the policy's options
// (MakePolicy: the key check, then the declared options' parsing).
#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "fuzz_support.hpp"
#include "shockwave_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
  const std::string path = fuzz::WriteScratchFile("shockwave.json", data, size);
  try {
    ReadShockwaveConfig(path);
  } catch (const InputError&) {
  }
  const nlohmann::json options =
      nlohmann::json::parse(fuzz::AsText(data, size), nullptr, /*allow_exceptions=*/false);
  if (!options.is_discarded()) {
    try {
      MakePolicy("shockwave", options, "fuzz options");
    } catch (const InputError&) {
    }
  }
  return 0;
}
