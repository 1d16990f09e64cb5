#include "test_support.hpp"

#include <unistd.h>
#include <cstdlib>
#include <filesystem>

namespace adaptsim::testing {

std::optional<std::string> DataDir() {
  const char* env = std::getenv("ADAPTSIM_DATA");
  std::string dir = (env != nullptr && *env != '\0') ? env : ADAPTSIM_DEFAULT_DATA_DIR;
  if (!std::filesystem::is_directory(dir)) return std::nullopt;
  return dir;
}

std::string DataPath(const std::string& relative) {
  return DataDir().value_or("") + "/" + relative;
}

std::string CanonicalTracePath() {
  return DataPath(
      "shockwave/traces/"
      "120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace");
}

std::string TaccThroughputsPath() {
  return DataPath("shockwave/throughputs/tacc_throughputs.json");
}

std::filesystem::path FreshTestDirectory(const std::string& prefix) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      (prefix + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
       std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace adaptsim::testing
