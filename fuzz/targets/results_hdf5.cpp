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
  return 0;
}
