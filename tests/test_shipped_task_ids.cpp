// The task ids of every shipped sweep spec are pinned (tests/data/shipped_task_ids.txt): results
// files written by earlier versions resume only while the ids stay the same (docs/sweeps.md §4.1).
// Each spec is expanded as `adaptsim sweep --dry-run` does (LoadSweepSpec, ExpandSweep) and its
// ids compared, in expansion order, with the pinned ones.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/sweep.hpp"
#include "adaptsim/trace.hpp"
#include "adaptsim/trace_generator.hpp"
#include "test_support.hpp"

namespace adaptsim {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = ADAPTSIM_SOURCE_DIR;

/// spec (relative to the repository) -> its pinned ids in expansion order.
std::map<std::string, std::vector<std::string>> PinnedIds() {
  std::ifstream in(kSource / "tests/data/shipped_task_ids.txt");
  std::map<std::string, std::vector<std::string>> pinned;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string spec, id;
    std::size_t index = 0;
    fields >> spec >> index >> id;
    std::vector<std::string>& ids = pinned[spec];
    EXPECT_EQ(index, ids.size()) << "pinned ids of " << spec << " out of order: " << line;
    ids.push_back(id);
  }
  return pinned;
}

/// Every sweep spec the repository ships (a TOML file with a `name`; paper_numbers.toml is not
/// a sweep).
std::vector<std::string> ShippedSpecs() {
  std::vector<std::string> specs;
  for (const char* folder : {"experiments", "tests/reproduce"}) {
    for (const auto& entry : fs::directory_iterator(kSource / folder)) {
      if (entry.path().extension() != ".toml") continue;
      std::ifstream in(entry.path());
      std::string line;
      bool sweep = false;
      while (!sweep && std::getline(in, line)) sweep = line.rfind("name", 0) == 0;
      if (sweep) specs.push_back(std::string(folder) + "/" + entry.path().filename().string());
    }
  }
  std::sort(specs.begin(), specs.end());
  return specs;
}

TEST(ShippedTaskIds, EveryShippedSpecIsPinned) {
  const auto pinned = PinnedIds();
  for (const std::string& spec : ShippedSpecs()) {
    EXPECT_TRUE(pinned.count(spec) > 0)
        << spec << " has no pinned ids: add them to tests/data/shipped_task_ids.txt";
  }
  for (const auto& [spec, ids] : pinned) {
    EXPECT_TRUE(fs::exists(kSource / spec)) << "pinned spec " << spec << " no longer exists";
  }
}

/// experiments/default.toml reads ../results/default_120.trace, which scripts/run-default
/// generates; the test generates it the same way in a copy of the layout (the id names the trace
/// and the catalogue by their bytes, so the folder does not matter).
fs::path DefaultSpecCopy() {
  const fs::path root =
      fs::path(::testing::TempDir()) / ("adaptsim_shipped_ids_" + std::to_string(::getpid()));
  fs::create_directories(root / "experiments");
  fs::create_directories(root / "results");
  fs::copy_file(kSource / "experiments/default.toml", root / "experiments/default.toml",
                fs::copy_options::overwrite_existing);
  if (!fs::exists(root / "data")) fs::create_directory_symlink(kSource / "data", root / "data");
  const models::CatalogueThroughput catalogue =
      models::CatalogueThroughput::Read((kSource / "data/catalog/v100.toml").string());
  TraceGeneratorOptions options;  // --num-jobs 120 --lam 40 --seed 0: the generator's defaults
  options.num_jobs = 120;
  options.lam_s = 40.0;
  options.seed = 0;
  const Trace trace = GenerateTrace(options, catalogue.catalogue().WorkloadModels(), catalogue);
  std::ofstream out(root / "results/default_120.trace", std::ios::binary | std::ios::trunc);
  WriteTrace(out, trace);
  return root / "experiments/default.toml";
}

class ShippedSpecIds : public ::testing::TestWithParam<std::string> {};

TEST_P(ShippedSpecIds, ExpandToThePinnedIds) {
  const std::string spec = GetParam();
  const auto pinned = PinnedIds();
  ASSERT_TRUE(pinned.count(spec) > 0) << spec << " has no pinned ids";
  fs::path path = kSource / spec;
  if (spec == "experiments/default.toml") {
    path = DefaultSpecCopy();
  } else {
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find("${ADAPTSIM_DATA}") != std::string::npos) {
      if (!testing::DataDir()) {
        GTEST_SKIP() << spec << " reads the reference data, which is absent: set ADAPTSIM_DATA "
                     << "or place ../shared/data";
      }
      ::setenv("ADAPTSIM_DATA", testing::DataDir()->c_str(), 1);
    }
  }
  std::vector<std::string> ids;
  try {
    for (const TaskConfig& task : ExpandSweep(LoadSweepSpec(path.string()))) {
      ids.push_back(task.Id());
    }
  } catch (const InputError& error) {
    // A data file the spec names may be missing from a partial copy of the reference data.
    const std::string message = error.what();
    if (message.find("not found") != std::string::npos && testing::DataDir() &&
        message.find(*testing::DataDir()) != std::string::npos) {
      GTEST_SKIP() << spec << ": reference data incomplete: " << message;
    }
    FAIL() << spec << ": " << message;
  }
  EXPECT_EQ(ids, pinned.at(spec)) << spec << ": task ids changed (docs/sweeps.md §4.1)";
}

INSTANTIATE_TEST_SUITE_P(Specs, ShippedSpecIds, ::testing::ValuesIn(ShippedSpecs()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace adaptsim
