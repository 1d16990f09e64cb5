// Fuzz target: the sweep spec reader (LoadSweepSpec: TOML, `${VAR}` expansion, [[zip]] groups,
// policy options, [production]; include/adaptsim/sweep.hpp), the expansion into tasks and their
// expected cost.
//
// The spec is written to <scratch>/sweep/spec/spec.toml next to small valid input files in
// <scratch>/sweep/data (also $ADAPTSIM_DATA and $FUZZ_DATA), so that paths such as
// "../data/a.trace" or "${ADAPTSIM_DATA}/t.json" resolve.
//
// A spec whose grid can exceed kMaxGridTasks tasks is skipped before it is read: expansion is
// linear in the tasks (a 613-byte spec of several thousand tasks takes 0.15 s in the release
// build, 3.2 s under the sanitizers and coverage), and a large grid runs the same code as a
// small one (docs/reliability.md, "Long run").
#include <toml++/toml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "adaptsim/error.hpp"
#include "adaptsim/sweep.hpp"
#include "fuzz_support.hpp"

namespace {

namespace fs = std::filesystem;

const char kTrace[] =
    "ResNet-18 (batch size 32)\tpython3 main.py\tcifar10\t--num_steps\t1\t2000\t1\tstatic\t1\t"
    "-1.000000\t600\t0\n"
    "LM (batch size 20)\tpython3 main.py\tlm\t--steps\t1\t3000\t2\taccordion\t1\t-1.000000\t900\t"
    "60\n";
const char kThroughputs[] =
    "{\"v100\": {\"('ResNet-18 (batch size 32)', 1)\": {\"null\": 30.0},"
    " \"('ResNet-18 (batch size 32)', 2)\": {\"null\": 55.0},"
    " \"('LM (batch size 20)', 2)\": {\"null\": 40.0}}}";
const char kWorkload[] =
    "name,time,application,num_replicas,batch_size\ncifar10-0,10,cifar10,2,256\n"
    "ncf-1,20,ncf,1,1024\n";
const char kPhilly[] =
    "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1,66.0,11cb48\n"
    "2017-10-09 06:13:03,2951.0,2,5902.0,6214e9\n";
const char kItp[] = "job_id,submission_time,duration,num_gpu\nj1,100,2429,4\nj2,200,1532,1\n";
const char kShockwave[] = R"({"future_rounds": 10, "k": 0.001, "lambda": 12.0})";

constexpr double kMaxGridTasks = 1024;

/// An upper bound of the tasks `node` expands into: the product of the lengths of every array in
/// it (the grid's axes are arrays; a [[zip]] group or an array that is not an axis only makes
/// the true count smaller).
double GridBound(const toml::node& node) {
  double bound = 1;
  if (const toml::table* table = node.as_table()) {
    for (const auto& [key, child] : *table) bound *= GridBound(child);
  } else if (const toml::array* array = node.as_array()) {
    bound *= static_cast<double>(std::max<std::size_t>(array->size(), 1));
    for (const toml::node& child : *array) bound *= GridBound(child);
  }
  return bound;
}

/// False for a spec whose grid may exceed kMaxGridTasks (text that is not TOML is read).
bool SmallGrid(std::string_view text) {
  try {
    return GridBound(toml::parse(text)) <= kMaxGridTasks;
  } catch (const toml::parse_error&) {
    return true;
  }
}

fs::path SetUp() {
  const fs::path root = adaptsim::fuzz::ScratchDir() / "sweep";
  const fs::path data = root / "data";
  fs::create_directories(data / "profiles");
  fs::create_directories(root / "spec");
  using adaptsim::fuzz::WriteFile;
  WriteFile(data / "a.trace", kTrace);
  WriteFile(data / "b.trace", kTrace);
  WriteFile(data / "t.json", kThroughputs);
  WriteFile(data / "w.csv", kWorkload);
  WriteFile(data / "philly.csv", kPhilly);
  WriteFile(data / "itp.csv", kItp);
  WriteFile(data / "sw.json", kShockwave);
  fs::copy_file(ADAPTSIM_CATALOGUE, data / "v100.toml", fs::copy_options::overwrite_existing);
  ::setenv("ADAPTSIM_DATA", data.c_str(), 1);
  ::setenv("FUZZ_DATA", data.c_str(), 1);
  return root / "spec" / "spec.toml";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace adaptsim;
  static const fs::path spec_path = SetUp();
  if (!SmallGrid(fuzz::AsText(data, size))) return 0;
  fuzz::WriteFile(spec_path, fuzz::AsText(data, size));
  try {
    const SweepSpec spec = LoadSweepSpec(spec_path.string());
    for (const TaskConfig& task : ExpandSweep(spec)) {
      ExpectedCost(spec, task);
      task.Id();
    }
  } catch (const InputError&) {
  }
  return 0;
}
