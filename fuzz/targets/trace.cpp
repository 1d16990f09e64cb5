// Fuzz target: the Shockwave/Gavel `.trace` reader (ParseTrace, include/adaptsim/trace.hpp) and
// the per-job profile built from every job it accepts (BuildProfile, include/adaptsim/profile.hpp)
// of its first jobs with the built-in catalogue's throughputs.
#include <sstream>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/profile.hpp"
#include "adaptsim/trace.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
  static const models::CatalogueThroughput throughputs =
      models::CatalogueThroughput::Read(ADAPTSIM_CATALOGUE);
  std::istringstream in{std::string(fuzz::AsText(data, size))};
  try {
    const Trace trace = ParseTrace(in, "fuzz.trace");
    // The first jobs only: a profile costs one throughput evaluation per epoch.
    for (std::size_t i = 0; i < trace.jobs.size() && i < 4; ++i) {
      const JobSpec& job = trace.jobs[i];
      try {
        BuildProfile(job, throughputs, trace.path);
      } catch (const InputError&) {
      }
    }
  } catch (const InputError&) {
  }
  return 0;
}
