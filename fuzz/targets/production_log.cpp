// Fuzz target: a production-log reader (ReadProductionLog, include/adaptsim/production_log.hpp),
// Philly or ITP by the ADAPTSIM_FUZZ_ITP definition, with the default selection and with a
// window, the Pollux filter and a cluster size that skips unsimulable jobs.
#include "adaptsim/production_log.hpp"
#include "adaptsim/error.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
#ifdef ADAPTSIM_FUZZ_ITP
  constexpr ProductionLogFormat kFormat = ProductionLogFormat::kItp;
#else
  constexpr ProductionLogFormat kFormat = ProductionLogFormat::kPhilly;
#endif
  const std::string path = fuzz::WriteScratchFile("log.csv", data, size);
  try {
    ReadProductionLog(path, kFormat);
  } catch (const InputError&) {
  }
  ProductionLogOptions options;
  options.window_start_s = 3600;
  options.window_length_s = 7 * 86400;
  options.pollux_filter = true;
  options.cluster_gpus = 64;
  options.skip_unsimulable = true;
  try {
    const ProductionLog log = ReadProductionLog(path, kFormat, options);
    const ProductionLogStats& s = log.stats;
    if (s.outside_window + s.other_virtual_cluster + s.below_min_duration + s.pollux_filtered +
            s.skipped_too_many_gpus + s.skipped_zero_duration + s.selected !=
        s.rows_read) {
      __builtin_trap();  // every row is counted once (production_log.hpp)
    }
  } catch (const InputError&) {
  }
  return 0;
}
