// Shockwave configuration: the reference JSONs read unchanged, and bad input.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <variant>

#include <gtest/gtest.h>

#include "adaptsim/error.hpp"
#include "adaptsim/registry.hpp"
#include "policies/shockwave/shockwave_config.hpp"
#include "test_support.hpp"

namespace adaptsim::testing {
namespace {

std::string ConfigPath(const std::string& name) {
  return DataPath("shockwave/configurations/" + name + ".json");
}

TEST(ShockwaveConfig, ReadsEveryReferenceConfiguration) {
  ADAPTSIM_REQUIRE_DATA();
  struct Expected {
    const char* name;
    double k;
    double lambda;
  };
  for (const Expected& e :
       {Expected{"tacc_32gpus", 1e-3, 12.0}, Expected{"scale_64gpus", 10.0, 5.0},
        Expected{"scale_128gpus", 1e-3, 15.0}, Expected{"scale_256gpus", 1e5, 5.0},
        Expected{"shockwave_example_config", 10.0, 5.0}}) {
    ShockwaveConfig config = ReadShockwaveConfig(ConfigPath(e.name));
    EXPECT_EQ(config.future_rounds, 20) << e.name;
    EXPECT_DOUBLE_EQ(config.k, e.k) << e.name;
    EXPECT_DOUBLE_EQ(config.lambda, e.lambda) << e.name;
    EXPECT_DOUBLE_EQ(config.rhomax, 1.0) << e.name;
    EXPECT_EQ(config.log_approximation_bases, (std::vector<double>{0.0, 0.2, 0.4, 0.6, 0.8, 1.0}))
        << e.name;
    EXPECT_DOUBLE_EQ(config.solver_rel_gap, 1e-3) << e.name;
    EXPECT_EQ(config.solver_num_threads, 24) << e.name;
    EXPECT_DOUBLE_EQ(config.solver_timeout, 15.0) << e.name;
    EXPECT_DOUBLE_EQ(config.gpu_ram, 16.0) << e.name;
    EXPECT_EQ(config.solver, ShockwaveSolver::kStructured) << e.name;
  }
}

TEST(ShockwaveConfig, RegistryOptionsOverrideTheFile) {
  ADAPTSIM_REQUIRE_DATA();
  nlohmann::json options = {
      {"config", ConfigPath("tacc_32gpus")}, {"future_rounds", 10}, {"solver", "general"}};
  ShockwaveConfig config = ParseOptions<ShockwaveOptions>(options, {"test", "shockwave"});
  EXPECT_EQ(config.future_rounds, 10);
  EXPECT_DOUBLE_EQ(config.lambda, 12.0);
  EXPECT_EQ(config.solver, ShockwaveSolver::kGeneral);
  PolicyInstance policy = MakePolicy("shockwave", options, "test");
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<RoundScheduler>>(policy));
  EXPECT_NE(std::get<std::unique_ptr<RoundScheduler>>(policy), nullptr);
}

// Each bad value is rejected with an InputError naming the key: as the policy's options (file =
// the input, field = "shockwave.<key>") and in a configuration file (file = its path, field = the
// key).
TEST(ShockwaveConfig, RejectsOutOfRangeValues) {
  const std::vector<std::pair<nlohmann::json, std::string>> cases = {
      {{{"future_rounds", 0}}, "future_rounds"},
      {{{"future_rounds", 2.5}}, "future_rounds"},
      {{{"rhomax", 0.0}}, "rhomax"},
      {{{"rhomax", -1.0}}, "rhomax"},
      {{{"k", -1e-3}}, "k"},
      {{{"log_approximation_bases", {0.0, 0.6, 0.4, 1.0}}}, "log_approximation_bases"},
      {{{"log_approximation_bases", {0.0, 0.5, 1.5}}}, "log_approximation_bases"},
      {{{"log_approximation_bases", {-0.1, 0.5, 1.0}}}, "log_approximation_bases"},
      {{{"log_approximation_bases", {0.0, 0.5, 0.5, 1.0}}}, "log_approximation_bases"},
      {{{"log_approximation_bases", {0.2, 1.0}}}, "log_approximation_bases"},
      {{{"log_approximation_bases", "0,1"}}, "log_approximation_bases"},
      {{{"solver", "gurobi"}}, "solver"},
      {{{"k", "big"}}, "k"},
      {{{"no_such_key", 1}}, "no_such_key"},
      {{{"solver_max_nodes", 0}}, "solver_max_nodes"},
  };
  const std::string path =
      ::testing::TempDir() + "shockwave_range_" + std::to_string(::getpid()) + ".json";
  for (const auto& [options, field] : cases) {
    try {
      MakePolicy("shockwave", options, "opts");
      ADD_FAILURE() << "accepted " << options.dump();
    } catch (const InputError& error) {
      EXPECT_EQ(error.file(), "opts") << options.dump() << ": " << error.what();
      EXPECT_EQ(error.field(), "shockwave." + field) << options.dump() << ": " << error.what();
    }
    std::ofstream(path) << options.dump();
    try {
      ReadShockwaveConfig(path);
      ADD_FAILURE() << "accepted the file " << options.dump();
    } catch (const InputError& error) {
      EXPECT_EQ(error.file(), path) << options.dump() << ": " << error.what();
      EXPECT_EQ(error.field(), field) << options.dump() << ": " << error.what();
    }
  }
  std::remove(path.c_str());
}

TEST(ShockwaveConfig, RejectsMissingAndMalformedFiles) {
  EXPECT_THROW(ReadShockwaveConfig("/nonexistent/shockwave.json"), InputError);
  // A folder opens as a stream and fails on its first read (found by fuzz_shockwave_config).
  try {
    ReadShockwaveConfig(::testing::TempDir());
    ADD_FAILURE() << "accepted a folder";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("is not a regular file"), std::string::npos)
        << error.what();
  }
  const std::string path =
      ::testing::TempDir() + "shockwave_bad_" + std::to_string(::getpid()) + ".json";
  {
    std::ofstream out(path);
    out << "{\"future_rounds\": 20, ";  // truncated
  }
  EXPECT_THROW(ReadShockwaveConfig(path), InputError);
  {
    std::ofstream out(path);
    out << R"({"future_rounds": -3})";
  }
  try {
    ReadShockwaveConfig(path);
    ADD_FAILURE() << "accepted future_rounds = -3";
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), path);
    EXPECT_EQ(error.field(), "future_rounds");
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace adaptsim::testing
