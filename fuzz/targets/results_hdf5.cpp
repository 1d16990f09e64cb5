// Fuzz target: the results/shard HDF5 reader that resume and merge use (ReadSummary, ReadTask,
// ReadFileDetail, ReadMeta, ReadColumnUnits, MissingTasks, MergeResults, ResultsFile::
// OpenForAppend; include/adaptsim/store.hpp). The bytes are a results file's image; a file the
// store cannot read must end in StoreError.
#include <filesystem>
#include <set>

#include "adaptsim/error.hpp"
#include "adaptsim/store.hpp"
#include "fuzz_support.hpp"

namespace {

template <typename Call>
void Expect(Call&& call) {
  try {
    call();
  } catch (const adaptsim::StoreError&) {
  } catch (const adaptsim::InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
  const std::string path = fuzz::WriteScratchFile("results.h5", data, size);
  const std::string merged = (fuzz::ScratchDir() / "merged.h5").string();
  std::set<std::string> ids;
  Expect([&] {
    for (const SummaryRow& row : ReadSummary(path)) {
      if (ids.size() < 4) ids.insert(row.task_id);
    }
  });
  for (const std::string& id : ids) Expect([&] { ReadTask(path, id); });
  Expect([&] { ReadFileDetail(path); });
  Expect([&] { ReadMeta(path); });
  Expect([&] { ReadColumnUnits(path, "/summary"); });
  Expect([&] { MissingTasks(path, ids); });
  Expect([&] {
    MergeOptions merge;
    merge.sources = {path};
    MergeResults(merged, merge);
  });
  Expect([&] { ResultsFile::OpenForAppend(path).TaskIds(); });
  return 0;
}
