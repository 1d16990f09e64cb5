// Fuzz target: the Shockwave/Gavel throughputs JSON reader (ThroughputTable::ReadJson,
// include/adaptsim/throughput.hpp) and look-ups of every entry it accepts.
#include "adaptsim/error.hpp"
#include "adaptsim/throughput.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
  const std::string path = fuzz::WriteScratchFile("throughputs.json", data, size);
  try {
    const ThroughputTable table = ThroughputTable::ReadJson(path);
    for (const auto& [key, value] : table.entries()) {
      if (table.Lookup(key.first, key.second) != value) __builtin_trap();
    }
    table.ThroughputStepsPerS("ResNet-18", 128, 1);
  } catch (const InputError&) {
  }
  return 0;
}
