// Fuzz target: the Pollux workload CSV reader (ReadPolluxWorkload,
// include/adaptsim/pollux_workload.hpp).
#include "adaptsim/pollux_workload.hpp"
#include "adaptsim/error.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
  const std::string path = fuzz::WriteScratchFile("workload.csv", data, size);
  try {
    ReadPolluxWorkload(path);
  } catch (const InputError&) {
  }
  return 0;
}
