// The display names and option labels of `adaptsim report` (src/analysis/display_names.cpp) equal
// those of the figures (analysis/adaptsim_style.py): both tables are read back and compared.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/display_names.hpp"

namespace adaptsim {
namespace {

/// Runs /usr/bin/python3 with analysis/ on sys.path and returns its stdout; empty when Python or
/// its packages are missing.
std::string RunPython(const std::string& program) {
  std::string command = "/usr/bin/python3 -c '" + program + "' 2>/dev/null";
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof(buffer), pipe)) out.append(buffer, n);
  pclose(pipe);
  return out;
}

const char* kImport = "import sys, json; sys.path.insert(0, \"" ADAPTSIM_SOURCE_DIR
                      "/analysis\"); import adaptsim_style as st; ";

nlohmann::json FromPython(const std::string& expression) {
  std::string out = RunPython(std::string(kImport) + "print(json.dumps(" + expression + "))");
  if (out.empty()) return nullptr;
  return nlohmann::json::parse(out);
}

TEST(DisplayNames, PolicyTableEqualsThePythonStyleModule) {
  nlohmann::json python = FromPython("list(st.POLICY_DISPLAY.items())");
  if (python.is_null()) GTEST_SKIP() << "/usr/bin/python3 with matplotlib not available";
  ASSERT_EQ(python.size(), PolicyDisplayNames().size());
  for (std::size_t i = 0; i < python.size(); ++i) {
    EXPECT_EQ(python[i][0].get<std::string>(), PolicyDisplayNames()[i].first) << i;
    EXPECT_EQ(python[i][1].get<std::string>(), PolicyDisplayNames()[i].second) << i;
  }
  EXPECT_EQ(PolicyDisplayName("min_total_duration"), "OSSP");
  EXPECT_EQ(PolicyDisplayName("no_such_policy"), "no_such_policy");
}

TEST(DisplayNames, OptionLabelsEqualThePythonStyleModule) {
  // (option, value, round length): every template, numbers in both notations, a string, a bool.
  const nlohmann::json cases = nlohmann::json::parse(R"([
    ["future_rounds", 20, 120], ["future_rounds", 5, 60], ["k", 0.001, 120], ["k", 1000.0, 120],
    ["k", 100000.0, 120], ["k", 1e-05, 120], ["k", 1e6, 120], ["lambda", 12.0, 120],
    ["interval_s", 30.0, 120], ["interval_s", 480, 120], ["p", -1.0, 120],
    ["face_position", 0.5, 120], ["face_rule", "analytic_center", 120], ["alpha", 0.2, 120],
    ["population", 6, 120], ["interference_avoidance", true, 120]])");
  nlohmann::json python = FromPython("[st.option_label(o, v, r) for o, v, r in json.loads(\"\"\"" +
                                     cases.dump() + "\"\"\")]");
  if (python.is_null()) GTEST_SKIP() << "/usr/bin/python3 with matplotlib not available";
  ASSERT_EQ(python.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(python[i].get<std::string>(),
              OptionLabel(cases[i][0].get<std::string>(), cases[i][1], cases[i][2].get<double>()))
        << cases[i].dump();
  }
  EXPECT_EQ(OptionLabel("future_rounds", 20, 120), "window 40 min");
  EXPECT_EQ(FromPython("st.scenario_label(120, 32)").get<std::string>(), ScenarioLabel(120, 32));
  EXPECT_EQ(ScenarioLabel(120, 32), "120 jobs · 32 GPUs");
}

}  // namespace
}  // namespace adaptsim
