// Fuzz target: the shard manifest reader that resume uses (ShardDirectory::Newest, which
// Finished and Details wrap; include/adaptsim/shard_directory.hpp): the input is
// `<out>.shards/manifest.jsonl`, next to one valid shard whose id the manifest may name. A line the
// reader cannot use is skipped (the shard itself is read instead); nothing in the manifest may
// crash the resume.
#include <filesystem>

#include "adaptsim/error.hpp"
#include "adaptsim/output_paths.hpp"
#include "adaptsim/shard_directory.hpp"
#include "adaptsim/store.hpp"
#include "fuzz_support.hpp"

namespace {

namespace fs = std::filesystem;

const char kTaskId[] = "0123456789abcdef0123456789abcdef";

/// The sweep's --out in the scratch folder, with one shard written once per process.
const adaptsim::ShardDirectory& Directory() {
  static const adaptsim::ShardDirectory directory = [] {
    adaptsim::ShardDirectory shards(
        adaptsim::OutputPaths((adaptsim::fuzz::ScratchDir() / "sweep.h5").string()).shards());
    shards.Open();
    adaptsim::TaskRecord record;
    record.task_id = kTaskId;
    record.keys.policy = "fifo";
    record.config_json = {{"policy", "fifo"}};
    adaptsim::Provenance provenance;
    provenance.argv = {"fuzz_shard_manifest"};
    adaptsim::WriteShard((fs::path(shards.dir()) / (std::string(kTaskId) + ".h5")).string(), record,
                         provenance);
    return shards;
  }();
  return directory;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
  const ShardDirectory& shards = Directory();
  fuzz::WriteFile(fs::path(shards.dir()) / "manifest.jsonl", fuzz::AsText(data, size));
  try {
    shards.Newest();
  } catch (const StoreError&) {
  }
  return 0;
}
