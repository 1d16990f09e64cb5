// Fuzz target: the catalogue TOML reader (ReadCatalogue, include/adaptsim/catalogue_file.hpp).
// A catalogue it accepts must survive WriteCatalogue and read back equal.
#include <sstream>

#include "adaptsim/catalogue_file.hpp"
#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
  const std::string path = fuzz::WriteScratchFile("catalogue.toml", data, size);
  Catalogue catalogue;
  try {
    catalogue = ReadCatalogue(path);
  } catch (const InputError&) {
    return 0;
  }
  // Round trip: what the reader accepts, the writer writes so that the reader accepts it again.
  std::ostringstream text;
  WriteCatalogue(text, catalogue, {"fuzz"});
  const std::string again_path = fuzz::WriteFile(fuzz::ScratchDir() / "again.toml", text.str());
  const Catalogue again = ReadCatalogue(again_path);  // an InputError here is a finding
  if (again.models.size() != catalogue.models.size() || again.name != catalogue.name ||
      again.source != catalogue.source || again.gpus_per_node != catalogue.gpus_per_node) {
    __builtin_trap();
  }
  for (std::size_t i = 0; i < again.models.size(); ++i) {
    if (again.models[i].info.name != catalogue.models[i].info.name ||
        again.models[i].perf_params != catalogue.models[i].perf_params) {
      __builtin_trap();
    }
  }
  const models::CatalogueThroughput throughputs(std::move(catalogue));
  for (const CatalogueModel& model : again.models) {
    for (int sf : {1, 2, 4, 8}) throughputs.ThroughputStepsPerS(model.info.name, 64, sf);
  }
  return 0;
}
