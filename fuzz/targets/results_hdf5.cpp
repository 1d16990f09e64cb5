// Fuzz target: the results/shard HDF5 reader that resume and merge use (ReadSummary, ReadTask,
// ReadFileDetail, ReadMeta, ReadColumnUnits, MissingTasks; include/adaptsim/store.hpp). The
// bytes are a results file's image, written to a scratch file; a file the store cannot read must
// end in StoreError. MergeResults reads its sources with the same code as ReadTask and is left
// out: it fsyncs its output, which would slow every run to a crawl.
#include <filesystem>
#include <set>

#include "adaptsim/error.hpp"
#include "adaptsim/store.hpp"
#include "fuzz_support.hpp"
#include "results_readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
  const std::string path = fuzz::WriteScratchFile("results.h5", data, size);
  fuzz::ReadResultsEveryWay(path, {}, /*input_error_ok=*/true);
  return 0;
}
