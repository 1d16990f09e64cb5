// analysis/labels.toml, the one declaration of display names, looks and option labels: the copy
// compiled into the binary is the file, it renders the names the papers use, every registered
// policy has one, and ParseLabels refuses a broken file by line and key. (The Python side reads
// the same file: tests/python/test_labels.py.)
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/labels.hpp"
#include "adaptsim/registry.hpp"

namespace adaptsim {
namespace {

std::string LabelsFile() {
  std::ifstream in(ADAPTSIM_SOURCE_DIR "/analysis/labels.toml");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Labels, CompiledInCopyIsTheFile) {
  const std::string file = LabelsFile();
  ASSERT_FALSE(file.empty());
  EXPECT_EQ(BuiltinLabelsText(), file);
}

TEST(Labels, DisplayNamesAreThePapers) {
  const Labels& labels = BuiltinLabels();
  // The names of the Shockwave (NSDI'23) and Pollux (OSDI'21) papers.
  const std::vector<std::pair<std::string, std::string>> papers = {
      {"shockwave", "Shockwave"},
      {"min_total_duration", "OSSP"},
      {"finish_time_fairness", "Themis"},
      {"max_min_fairness", "Gavel"},
      {"allox", "AlloX"},
      {"max_sum_throughput_perf", "MST"},
      {"max_sum_throughput", "MST"},
      {"gandiva_fair", "Gandiva-Fair"},
      {"pollux", "Pollux"},
      {"optimus", "Optimus+Oracle"},
      {"tiresias", "Tiresias"}};
  for (const auto& [policy, display] : papers) {
    EXPECT_EQ(labels.DisplayName(policy), display) << policy;
  }
  EXPECT_EQ(labels.DisplayName("no_such_policy"), "no_such_policy");
  // Legend order: Shockwave first, then the baselines in the papers' order.
  for (std::size_t i = 1; i < papers.size(); ++i) {
    EXPECT_LE(labels.Rank(papers[i - 1].second), labels.Rank(papers[i].second)) << i;
  }
  EXPECT_EQ(labels.Rank("Shockwave (window 40 min)"), labels.Rank("Shockwave"));
  EXPECT_EQ(labels.Rank("no_such_policy"), labels.policies.size());
  // Gavel's own figures (its notebooks' `labels`): LAS, and "Gavel" for the aware forms.
  EXPECT_EQ(labels.paper_names.at("gavel").at("max_min_fairness"), "LAS");
  EXPECT_EQ(labels.paper_names.at("gavel").at("max_min_fairness_perf"), "Gavel");
  EXPECT_EQ(labels.paper_names.at("gavel").at("fifo_perf"), "Gavel");
}

TEST(Labels, EveryRegisteredPolicyHasADisplayNameAndALook) {
  const Labels& labels = BuiltinLabels();
  std::set<std::string> displays;
  for (const PolicyInfo& info : RegisteredPolicies()) {
    const std::string display = labels.DisplayName(info.name);
    EXPECT_NE(display, info.name) << info.name << " has no display name in analysis/labels.toml";
  }
  for (const PolicyLook& look : labels.policies) {
    EXPECT_TRUE(displays.insert(look.display).second) << look.display << " listed twice";
    EXPECT_EQ(look.colour.size(), 7u) << look.display;
    EXPECT_FALSE(look.marker.empty()) << look.display;
  }
}

TEST(Labels, OptionLabelsShowTheDerivedQuantities) {
  const Labels& labels = BuiltinLabels();
  // The planning window: rounds × round length in minutes.
  EXPECT_EQ(labels.OptionLabel("future_rounds", 20, 120), "window 40 min");
  EXPECT_EQ(labels.OptionLabel("future_rounds", 5, 60), "window 5 min");
  EXPECT_DOUBLE_EQ(labels.Shown("future_rounds", 30, 120), 60.0);
  EXPECT_EQ(labels.OptionAxis("future_rounds"), "planning window (min)");
  EXPECT_EQ(labels.OptionLabel("interval_s", 30.0, 120), "interval 0.5 min");
  EXPECT_EQ(labels.OptionLabel("interval_s", 480, 120), "interval 8 min");
  EXPECT_DOUBLE_EQ(labels.Shown("interval_s", 90, 120), 1.5);
  EXPECT_EQ(labels.OptionLabel("k", 0.001, 120), "k 0.001");
  EXPECT_EQ(labels.OptionLabel("k", 1e-05, 120), "k 1e-5");
  EXPECT_EQ(labels.OptionLabel("k", 100000.0, 120), "k 100000");
  EXPECT_EQ(labels.OptionLabel("k", 1e6, 120), "k 1e6");
  EXPECT_EQ(labels.OptionLabel("lambda", 12.0, 120), "λ 12");
  EXPECT_EQ(labels.OptionLabel("p", -1.0, 120), "p -1");
  EXPECT_EQ(labels.OptionLabel("face_position", 0.5, 120), "face 0.5");
  EXPECT_EQ(labels.OptionLabel("face_rule", "fill", 120), "fill");
  EXPECT_EQ(labels.OptionLabel("alpha", 0.2, 120), "α 0.2");
  // Options listed nowhere: "<name> <value>", the value as it is.
  EXPECT_EQ(labels.OptionLabel("population", 6, 120), "population 6");
  EXPECT_DOUBLE_EQ(labels.Shown("population", 6, 120), 6.0);
  EXPECT_EQ(labels.OptionLabel("interference_avoidance", true, 120), "interference_avoidance true");
  EXPECT_EQ(labels.OptionAxis("population"), "population");
}

TEST(Labels, ScenarioAndPolicyLabels) {
  const Labels& labels = BuiltinLabels();
  EXPECT_EQ(labels.ScenarioLabel(120, 32), "120 jobs · 32 GPUs");
  const nlohmann::json options = {{"future_rounds", 20}, {"k", 0.001}, {"lambda", 12.0}};
  EXPECT_EQ(labels.PolicyLabel("shockwave", options, {"future_rounds", "k"}, 120),
            "Shockwave (window 40 min, k 0.001)");
  EXPECT_EQ(labels.PolicyLabel("shockwave", options, {"future_rounds", "k"}, 120, {"k"}),
            "Shockwave (window 40 min)");
  EXPECT_EQ(labels.PolicyLabel("min_total_duration", nlohmann::json::object(), {}, 120), "OSSP");
  // Varied: an option that differs within one scenario; one that changes only with the
  // scenario (Shockwave's per-cluster-size k) is not.
  const std::vector<LabelledTask> tasks = {{"shockwave", "a|32", {{"k", 1}, {"lambda", 12}}},
                                           {"shockwave", "a|32", {{"k", 1}, {"lambda", 5}}},
                                           {"shockwave", "b|64", {{"k", 2}, {"lambda", 12}}},
                                           {"fifo", "a|32", nlohmann::json::object()}};
  const auto varied = VariedOptions(tasks);
  EXPECT_EQ(varied.at("shockwave"), std::set<std::string>{"lambda"});
  EXPECT_EQ(varied.count("fifo"), 0u);
}

TEST(Labels, MetricsAndRhoAreResultFields) {
  const Labels& labels = BuiltinLabels();
  std::vector<std::string> names;
  for (const MetricLook& metric : labels.metrics) names.push_back(metric.name);
  EXPECT_EQ(names, (std::vector<std::string>{"makespan_s", "mean_jct_s", "worst_ftf_rho",
                                             "unfair_fraction_1_05"}));
  EXPECT_TRUE(labels.metrics[0].hours);
  EXPECT_FALSE(labels.metrics[2].hours);
  EXPECT_EQ(labels.rho_column, "ftf_rho");  // the static ρ, as the Shockwave paper's figures
  // The fairness-knob figure's extra panels (summary metrics; GPU-hours per job is one since
  // schema version 5), then the heterogeneous figure's summary metrics.
  ASSERT_EQ(labels.figure_metrics.size(), 4u);
  EXPECT_EQ(labels.figure_metrics[0].name, "p99_jct_s");
  EXPECT_TRUE(labels.figure_metrics[0].hours);
  EXPECT_TRUE(labels.figure_metrics[0].derived.empty());
  EXPECT_EQ(labels.figure_metrics[1].name, "gpu_hours_per_job");
  EXPECT_TRUE(labels.figure_metrics[1].derived.empty());
  EXPECT_EQ(labels.figure_metrics[2].name, "utilization");
  EXPECT_EQ(labels.figure_metrics[3].name, "worst_ftf_rho_type_weighted");
  EXPECT_TRUE(labels.figure_metrics[3].derived.empty());
}

struct BadLabels {
  std::string name;
  std::string from;  ///< text of analysis/labels.toml to replace ("" = append `to`)
  std::string to;
  std::string field;  ///< the key the error names
  std::string message;
};

class LabelsErrors : public testing::TestWithParam<BadLabels> {};

TEST_P(LabelsErrors, NameTheLineAndKey) {
  const BadLabels& c = GetParam();
  std::string text = LabelsFile();
  if (c.from.empty()) {
    text += c.to;
  } else {
    std::size_t at = text.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from;
    text.replace(at, c.from.size(), c.to);
  }
  try {
    ParseLabels(text, "labels.toml");
    FAIL() << "accepted: " << c.name;
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "labels.toml");
    EXPECT_EQ(error.field(), c.field) << error.what();
    EXPECT_NE(std::string(error.what()).find(c.message), std::string::npos) << error.what();
    EXPECT_GT(error.line(), 0) << error.what();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LabelsErrors,
    testing::Values(
        BadLabels{"malformed", "", "[[policy]\n", "", "malformed TOML"},
        BadLabels{"unknown_key", "marker = \"o\"\n", "marker = \"o\"\nshape = \"x\"\n",
                  "policy[0].shape", "unknown key"},
        BadLabels{"twice", "names = [\"min_total_duration\"]",
                  "names = [\"min_total_duration\", \"shockwave\"]", "policy[1].names",
                  "'shockwave' is listed twice"},
        BadLabels{"paper_name", "max_min_fairness = \"LAS\"", "max_min_fairnes = \"LAS\"",
                  "paper_names.gavel.max_min_fairnes", "no registry name"},
        BadLabels{"colour", "colour = \"#882255\"", "colour = \"purple\"", "policy[0].colour",
                  "#RRGGBB"},
        BadLabels{"shown", "shown = \"rounds_as_minutes\"", "shown = \"rounds_as_hours\"",
                  "option.future_rounds.shown", "rounds_as_hours"},
        BadLabels{"placeholder", "label = \"window {} min\"", "label = \"window min\"",
                  "option.future_rounds.label", "{}"},
        BadLabels{"metric", "name = \"mean_jct_s\"", "name = \"avg_jct\"", "metric[1].name",
                  "not a summary metric"},
        BadLabels{"figure_metric", "name = \"p99_jct_s\"", "name = \"p99_jct\"",
                  "figure_metric[0].name", "needs `derived`"},
        BadLabels{"derived_metric", "name = \"p99_jct_s\"",
                  "name = \"p99_jct_s\"\nderived = \"a formula\"", "figure_metric[0].derived",
                  "is a summary metric"},
        BadLabels{"hours", "axis = \"worst FTF ρ\"", "axis = \"worst FTF ρ\"\nhours = true",
                  "metric[2].hours", "not in seconds"},
        BadLabels{"rho", "column = \"ftf_rho\"", "column = \"outcome\"", "rho.column",
                  "not a per-job number"},
        BadLabels{"scenario", "label = \"{jobs} jobs · {gpus} GPUs\"", "label = \"{jobs} jobs\"",
                  "scenario.label", "{gpus}"}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace adaptsim
