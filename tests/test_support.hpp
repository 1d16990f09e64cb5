// Helpers shared by the tests: where the reference data lives, and skipping when it is absent.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <gtest/gtest.h>

namespace adaptsim::testing {

/// $ADAPTSIM_DATA if set, else the configured default (../shared/data next to the checkout);
/// std::nullopt when that folder does not exist.
std::optional<std::string> DataDir();

/// DataDir() + "/" + relative.
std::string DataPath(const std::string& relative);

/// The 120-job canonical trace and the tacc throughputs.
std::string CanonicalTracePath();
std::string TaccThroughputsPath();

/// An empty folder for the current test: <temp>/<prefix>_<test name>_<pid>, created afresh.
std::filesystem::path FreshTestDirectory(const std::string& prefix);

}  // namespace adaptsim::testing

/// Skips the current test, saying why, when the reference data is absent.
#define ADAPTSIM_REQUIRE_DATA()                                                              \
  do {                                                                                       \
    if (!::adaptsim::testing::DataDir()) {                                                   \
      GTEST_SKIP() << "reference data not found: set ADAPTSIM_DATA or place ../shared/data"; \
    }                                                                                        \
  } while (0)
