// Policy options declared once (include/adaptsim/policy_options.hpp): what a declaration drives
// (defaults, doc lines, parsing, errors), that the registry's options are the options structs'
// declarations with the structs' defaults, and that docs/policies.md §11 lists exactly the
// registry's options (key, default and doc line). The doc comparison is shown to fail on
// synthetic tables with a wrong default, doc line, missing or extra row.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/policy_options.hpp"
#include "adaptsim/registry.hpp"
#include "policies/gavel/allox.hpp"
#include "policies/gavel/fifo.hpp"
#include "policies/gavel/finish_time_fairness.hpp"
#include "policies/gavel/gavel_tuned_jobs.hpp"
#include "policies/gavel/max_min_fairness.hpp"
#include "policies/gavel/max_sum_throughput.hpp"
#include "policies/gavel/min_total_duration.hpp"
#include "policies/gavel/themis_tuned_jobs.hpp"
#include "policies/pollux/pollux.hpp"
#include "policies/replay/replay.hpp"
#include "policies/shockwave/shockwave_config.hpp"
#include "policies/shockwave/shockwave_tuned_jobs.hpp"
#include "policies/sia/sia_options.hpp"

namespace adaptsim {
namespace {

// ---- The mechanism, on a synthetic options struct ---------------------------------------------

enum class Shape { kRound, kSquare };

struct ExampleOptions {
  bool flag = true;
  double ratio = 0.25;
  int count = 3;
  std::int64_t nodes = 20000;
  std::string path;
  std::string label = "plain";
  std::vector<double> bases = {0.0, 1.0};
  Shape shape = Shape::kSquare;

  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("flag", "a switch"), self.flag);
    visit(Option("ratio", "a share", Within(0, 1)), self.ratio);
    visit(Option("count", "how many", Within(1, 10)), self.count);
    visit(Option("nodes", "a limit", AtLeast(1)), self.nodes);
    visit(Option("path", "a file", Required{}), self.path);
    visit(Option("label", "a name"), self.label);
    visit(Option("bases", "breakpoints"), self.bases);
    visit(Option("shape", "the form",
                 Choices<Shape>{{"round", Shape::kRound, "a circle"}, {"square", Shape::kSquare}}),
          self.shape);
  }
  void CheckOptions(const OptionContext& where) const {
    if (bases.size() > 3) where.Fail("bases", "at most 3 breakpoints");
  }
};

TEST(RegistryOptionDeclarations, DescribeGivesKeysDefaultsAndDocLinesInOrder) {
  const std::vector<PolicyOption> options = DescribeOptions<ExampleOptions>();
  std::vector<std::string> keys;
  for (const PolicyOption& option : options) keys.push_back(option.name);
  EXPECT_EQ(keys, (std::vector<std::string>{"flag", "ratio", "count", "nodes", "path", "label",
                                            "bases", "shape"}));
  EXPECT_EQ(keys, OptionKeys<ExampleOptions>());
  ASSERT_EQ(options.size(), 8u);
  EXPECT_EQ(options[0].default_value.dump(), "true");
  EXPECT_EQ(options[0].doc, "a switch");
  EXPECT_EQ(options[1].default_value.dump(), "0.25");
  EXPECT_EQ(options[1].doc, "a share, in [0, 1]");
  EXPECT_EQ(options[2].default_value.dump(), "3");  // an integer member stays an integer
  EXPECT_EQ(options[2].doc, "how many, an integer in [1, 10]");
  EXPECT_EQ(options[3].doc, "a limit, an integer >= 1");
  EXPECT_TRUE(options[4].default_value.is_null());  // required: no default
  EXPECT_EQ(options[4].doc, "required: a file");
  EXPECT_EQ(options[5].default_value.dump(), "\"plain\"");
  EXPECT_EQ(options[6].default_value.dump(), "[0.0,1.0]");
  EXPECT_EQ(options[7].default_value.dump(), "\"square\"");
  EXPECT_EQ(options[7].doc, "the form: round (a circle) | square");
}

TEST(RegistryOptionDeclarations, ParseReadsGivenKeysOverTheDefaults) {
  const ExampleOptions parsed = ParseOptions<ExampleOptions>(
      {{"path", "a.json"}, {"count", 7}, {"shape", "round"}, {"bases", {0.0, 0.5, 1.0}}},
      {"spec.toml", "example"});
  EXPECT_EQ(parsed.path, "a.json");
  EXPECT_EQ(parsed.count, 7);
  EXPECT_EQ(parsed.shape, Shape::kRound);
  EXPECT_EQ(parsed.bases, (std::vector<double>{0.0, 0.5, 1.0}));
  EXPECT_EQ(parsed.ratio, 0.25);
  EXPECT_TRUE(parsed.flag);
  EXPECT_EQ(parsed.label, "plain");
  // An integer may be written as a float with no fraction (a TOML or JSON 4.0).
  EXPECT_EQ(ParseOptions<ExampleOptions>({{"path", "p"}, {"count", 4.0}}, {"f", "e"}).count, 4);
  // OptionsJson renders what was parsed; parsing it again gives the same options.
  const nlohmann::json json = OptionsJson(parsed);
  EXPECT_EQ(json["shape"], "round");
  EXPECT_EQ(OptionsJson(ParseOptions<ExampleOptions>(json, {"f", "e"})), json);
}

TEST(RegistryOptionDeclarations, EveryBadValueNamesFileAndPolicyDotKey) {
  const std::vector<std::pair<nlohmann::json, std::string>> cases = {
      {{{"flag", 1}}, "flag"},
      {{{"ratio", "half"}}, "ratio"},
      {{{"ratio", 1.5}}, "ratio"},
      {{{"ratio", -0.1}}, "ratio"},
      {{{"count", 2.5}}, "count"},
      {{{"count", 0}}, "count"},
      {{{"count", 11}}, "count"},
      {{{"count", 1e12}}, "count"},  // beyond int: not silently wrapped
      {{{"nodes", 0}}, "nodes"},
      {{{"label", 3}}, "label"},
      {{{"bases", "0,1"}}, "bases"},
      {{{"bases", {0.0, "x"}}}, "bases"},
      {{{"bases", {0.0, 0.1, 0.2, 0.3}}}, "bases"},  // CheckOptions
      {{{"shape", "hexagon"}}, "shape"},
      {{{"shape", 2}}, "shape"},
  };
  for (auto [options, field] : cases) {
    options["path"] = "given.json";
    try {
      ParseOptions<ExampleOptions>(options, {"spec.toml", "example"});
      ADD_FAILURE() << "accepted " << options.dump();
    } catch (const InputError& error) {
      EXPECT_EQ(error.file(), "spec.toml") << error.what();
      EXPECT_EQ(error.field(), "example." + field) << error.what();
    }
  }
  try {
    ParseOptions<ExampleOptions>(nlohmann::json::object(), {"spec.toml", "example"});
    ADD_FAILURE() << "a required option was not required";
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "example.path");
    EXPECT_NE(std::string(error.what()).find("a file"), std::string::npos) << error.what();
  }
  try {
    ParseOptions<ExampleOptions>({{"shape", "hexagon"}, {"path", "p"}}, {"spec.toml", "example"});
    ADD_FAILURE();
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("known: round, square"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW(ParseOptions<ExampleOptions>(nlohmann::json::array(), {"f", "example"}), InputError);
  // An empty prefix (a file of options) names the key alone.
  try {
    ParseOptions<ExampleOptions>({{"path", "p"}, {"ratio", 2}}, {"config.json", ""});
    ADD_FAILURE();
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "config.json");
    EXPECT_EQ(error.field(), "ratio");
  }
}

TEST(RegistryOptionDeclarations, UnknownKeysAreNamedWithTheKnownOnes) {
  try {
    RequireKnownKeys({{"flag", true}, {"colour", "red"}}, OptionKeys<ExampleOptions>(),
                     {"spec.toml", "example"}, "option for policy 'example'");
    ADD_FAILURE();
  } catch (const InputError& error) {
    EXPECT_EQ(error.field(), "example.colour");
    EXPECT_NE(std::string(error.what()).find("known: flag, ratio, count"), std::string::npos)
        << error.what();
  }
  EXPECT_NO_THROW(RequireKnownKeys({{"flag", true}}, OptionKeys<ExampleOptions>(),
                                   {"spec.toml", "example"}, "option"));
}

// A file option: its file is read first, the other keys override it.
struct Layered : ExampleOptions {
  static ExampleOptions ReadFile(const std::string& path) {
    ExampleOptions options;
    options.path = path;
    options.count = 9;
    options.ratio = 0.75;
    return options;
  }
  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("base", "a file read first", BaseFile<ExampleOptions>{&ReadFile}), self);
    ExampleOptions::VisitOptions(self, visit);
  }
};

TEST(RegistryOptionDeclarations, ABaseFileIsReadFirstAndOverridden) {
  const Layered parsed = ParseOptions<Layered>({{"ratio", 0.5}, {"base", "b.json"}}, {"f", "l"});
  EXPECT_EQ(parsed.path, "b.json");
  EXPECT_EQ(parsed.count, 9);    // from the file
  EXPECT_EQ(parsed.ratio, 0.5);  // the key overrides the file, whatever the JSON order
  EXPECT_EQ(DescribeOptions<Layered>().front().default_value, "");  // "" = no file
}

TEST(RegistryOptionDeclarations, NumbersInDocLinesReadBackExactly) {
  EXPECT_EQ(options_detail::NumberText(1e9), "1e9");
  EXPECT_EQ(options_detail::NumberText(1e-3), "0.001");
  EXPECT_EQ(options_detail::NumberText(1e-9), "1e-9");
  EXPECT_EQ(options_detail::NumberText(100000), "100000");
  EXPECT_EQ(options_detail::NumberText(4194304), "4194304");
  EXPECT_EQ(options_detail::NumberText(0.5), "0.5");
  EXPECT_EQ(options_detail::RangeText(Above(0), false), "> 0");
  EXPECT_EQ(options_detail::RangeText(AtMost(1), false), "<= 1");
  EXPECT_EQ(options_detail::RangeText(Within(1, 1e6), true), "an integer in [1, 1e6]");
}

// ---- The registry = the options structs -------------------------------------------------------

/// What a policy's options struct O declares, and its defaults parsed back.
struct StructView {
  std::vector<PolicyOption> declared;
  nlohmann::json struct_defaults;                              // OptionsJson(O{})
  std::function<nlohmann::json(const nlohmann::json&)> parse;  // OptionsJson(ParseOptions<O>(json))
};

template <typename O>
StructView View() {
  return {DescribeOptions<O>(), OptionsJson(O{}), [](const nlohmann::json& json) {
            return OptionsJson(ParseOptions<O>(json, {"test", "policy"}));
          }};
}

/// The options struct of each table policy (the Declared<O> entries of the families' tables).
const std::map<std::string, StructView>& Structs() {
  static const std::map<std::string, StructView> kStructs = {
      {"fifo", View<FifoOptions>()},
      {"fifo_perf", View<FifoAdmissionOptions>()},
      {"gandiva_fair", View<NoOptions>()},
      {"max_min_fairness", View<MaxMinFairnessOptions>()},
      {"max_min_fairness_perf", View<MaxMinFairnessOptions>()},
      {"replay", View<ReplayOptions>()},
      {"pollux", View<PolluxOptions>()},
      {"pollux_unaware", View<PolluxOptions>()},
      {"optimus", View<NoOptions>()},
      {"tiresias", View<NoOptions>()},
      {"sia", View<SiaOptions>()},
      {"shockwave", View<ShockwaveOptions>()},
      {"min_total_duration", View<MinTotalDurationOptions>()},
      {"min_total_duration_perf", View<MinTotalDurationOptions>()},
      {"finish_time_fairness", View<FinishTimeFairnessOptions>()},
      {"finish_time_fairness_perf", View<FinishTimeFairnessOptions>()},
      {"max_sum_throughput_perf", View<MaxSumThroughputOptions>()},
      {"max_sum_throughput", View<MaxSumThroughputOptions>()},
      {"allox", View<AlloXOptions>()},
      {"isolated", View<NoOptions>()},
      {"isolated_plus", View<NoOptions>()},
      {"gavel_tj", View<GavelTunedJobsOptions>()},
      {"themis_tj", View<ThemisTunedJobsOptions>()},
      {"shockwave_tj", View<ShockwaveTunedJobsOptions>()},
  };
  return kStructs;
}

TEST(RegistryOptionDeclarations, RegistryDefaultsAreTheOptionsStructsDefaults) {
  int compared = 0;
  for (const PolicyInfo& info : RegisteredPolicies()) {
    auto it = Structs().find(info.name);
    ASSERT_NE(it, Structs().end()) << info.name << ": add its options struct to Structs()";
    const StructView& view = it->second;
    // The registry's options are the struct's, as declared, and nothing else (the interval
    // engine's options are the task's, not a policy's).
    ASSERT_EQ(info.options.size(), view.declared.size()) << info.name;
    nlohmann::json registry_defaults = nlohmann::json::object();
    for (std::size_t i = 0; i < info.options.size(); ++i) {
      const PolicyOption& option = info.options[i];
      EXPECT_EQ(option.name, view.declared[i].name) << info.name;
      EXPECT_EQ(option.default_value, view.declared[i].default_value) << info.name;
      EXPECT_EQ(option.doc, view.declared[i].doc) << info.name;
      registry_defaults[option.name] = option.default_value;
      ++compared;
    }
    // The registry's defaults are the struct's default member initialisers ...
    EXPECT_EQ(registry_defaults, view.struct_defaults) << info.name;
    // ... and parsing them (or nothing) gives the struct's defaults back.
    nlohmann::json given = nlohmann::json::object();
    bool required = false;
    for (const auto& [key, value] : registry_defaults.items()) {
      if (value.is_null()) {
        required = true;
      } else {
        given[key] = value;
      }
    }
    if (!required) {
      EXPECT_EQ(view.parse(given), view.struct_defaults) << info.name;
      EXPECT_EQ(view.parse(nlohmann::json::object()), view.struct_defaults) << info.name;
    }
  }
  EXPECT_GT(compared, 30);
}

// Options shared by several policies are one declaration: the same doc line everywhere.
TEST(RegistryOptionDeclarations, SharedOptionsAreDeclaredOnce) {
  std::map<std::string, std::string> docs;
  std::map<std::string, int> users;
  for (const std::string name :
       {"min_total_duration", "finish_time_fairness", "max_sum_throughput_perf"}) {
    for (const PolicyOption& option : FindPolicy(name).options) {
      if (option.name != "solver" && option.name != "max_iterations") continue;
      auto [it, first] = docs.emplace(option.name, option.doc);
      if (!first) {
        EXPECT_EQ(it->second, option.doc) << name << "." << option.name;
      }
      ++users[option.name];
    }
  }
  EXPECT_EQ(users["solver"], 3);
  EXPECT_EQ(users["max_iterations"], 3);
}

// ---- docs/policies.md §11 = the registry ------------------------------------------------------

struct DocRow {
  std::string policy, option, default_text, doc;
};

std::string Trim(const std::string& text) {
  const std::size_t begin = text.find_first_not_of(' ');
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(' ') - begin + 1);
}

/// The cells of a Markdown table row, with `\|` unescaped.
std::vector<std::string> Cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 1; i < line.size(); ++i) {  // skip the leading '|'
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (line[i] == '|') {
      cells.push_back(Trim(cell));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return cells;
}

const char* const kHeader = "| policy | option | default | meaning |";

/// The rows of the options table (the one under kHeader) of a Markdown text.
std::vector<DocRow> ParseOptionTable(const std::string& markdown) {
  std::vector<DocRow> rows;
  std::istringstream in(markdown);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == kHeader) {
      inside = true;
      std::getline(in, line);  // |---|
      continue;
    }
    if (!inside) continue;
    if (line.empty() || line[0] != '|') break;
    const std::vector<std::string> cells = Cells(line);
    if (cells.size() != 4) {
      rows.push_back({"malformed row", line, "", ""});
      continue;
    }
    rows.push_back({cells[0], cells[1], cells[2], cells[3]});
  }
  return rows;
}

/// An option's default as the table shows it: `JSON` (lists with ", " as Python writes them), or
/// "required".
std::string DefaultText(const nlohmann::json& value) {
  if (value.is_null()) return "required";
  std::string text = "`";
  if (!value.is_array()) return text.append(value.dump()).append("`");
  text += "[";
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (i > 0) text += ", ";
    text += value[i].dump();
  }
  text += "]`";
  return text;
}

/// The rows the registry's policies need, in table order.
std::vector<DocRow> ExpectedRows(const std::vector<PolicyInfo>& policies) {
  std::vector<DocRow> rows;
  for (const PolicyInfo& info : policies) {
    const std::string policy = "`" + info.name + "`";
    if (info.options.empty()) rows.push_back({policy, "—", "", "no options"});
    for (const PolicyOption& option : info.options) {
      rows.push_back(
          {policy, "`" + option.name + "`", DefaultText(option.default_value), option.doc});
    }
  }
  return rows;
}

std::string RowText(const DocRow& row) {
  std::string text = "|";
  for (const std::string& cell : {row.policy, row.option, row.default_text, row.doc}) {
    text += " ";
    for (char c : cell) text += c == '|' ? std::string("\\|") : std::string(1, c);
    text += cell.empty() ? "|" : " |";
  }
  return text;
}

/// The differences between a Markdown text's options table and the registry (empty when equal).
std::vector<std::string> DocMismatches(const std::string& markdown,
                                       const std::vector<PolicyInfo>& policies) {
  const std::vector<DocRow> documented = ParseOptionTable(markdown);
  const std::vector<DocRow> expected = ExpectedRows(policies);
  std::map<std::string, const DocRow*> by_key;
  for (const DocRow& row : documented) {
    if (!by_key.emplace(row.policy + " " + row.option, &row).second) {
      return {"documented twice: " + RowText(row)};
    }
  }
  std::vector<std::string> mismatches;
  if (documented.empty()) mismatches.push_back(std::string("no table under ") + kHeader);
  for (const DocRow& want : expected) {
    auto it = by_key.find(want.policy + " " + want.option);
    if (it == by_key.end()) {
      mismatches.push_back("missing: " + RowText(want));
      continue;
    }
    const DocRow& have = *it->second;
    if (have.default_text != want.default_text || have.doc != want.doc) {
      mismatches.push_back("differs: " + RowText(have) + "\n  expected: " + RowText(want));
    }
    by_key.erase(it);
  }
  for (const auto& [key, row] : by_key) mismatches.push_back("not an option: " + RowText(*row));
  return mismatches;
}

std::string ExpectedTable(const std::vector<PolicyInfo>& policies) {
  std::string table = std::string(kHeader) + "\n|---|---|---|---|\n";
  for (const DocRow& row : ExpectedRows(policies)) table += RowText(row) + "\n";
  return table;
}

TEST(RegistryOptionsDoc, PoliciesMdListsEveryOptionWithItsDefaultAndDocLine) {
  const std::string path = std::string(ADAPTSIM_SOURCE_DIR) + "/docs/policies.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream text;
  text << in.rdbuf();
  const std::vector<std::string> mismatches = DocMismatches(text.str(), RegisteredPolicies());
  std::string report;
  for (const std::string& mismatch : mismatches) report += mismatch + "\n";
  EXPECT_TRUE(mismatches.empty()) << path << " §11 differs from the registry:\n"
                                  << report << "\nThe table the registry declares:\n"
                                  << ExpectedTable(RegisteredPolicies());
}

// The comparison fails on a synthetic table with a wrong default, a wrong doc line, a missing row
// or an extra row, and passes on the table rendered from the registry.
TEST(RegistryOptionsDoc, TheComparisonCatchesEveryKindOfDrift) {
  const std::vector<PolicyInfo> policies = {
      {"demo",
       "a demo",
       EngineKind::kRound,
       {{"alpha", 0.2, "a share, >= 0"},
        {"mode", "fast", "how: fast | slow"},
        {"bases", {0.0, 0.5}, "breakpoints"}}},
      {"bare", "no options"},
  };
  const std::string good = "# Options\n\n" + ExpectedTable(policies) + "\nAfter the table.\n";
  EXPECT_EQ(DocMismatches(good, policies), std::vector<std::string>{});
  EXPECT_NE(good.find("how: fast \\| slow"), std::string::npos);  // pipes escaped, then read back
  EXPECT_NE(good.find("`[0.0, 0.5]`"), std::string::npos);

  auto drifted = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  const std::vector<std::string> wrong_default =
      DocMismatches(drifted("| `0.2` |", "| `0.3` |"), policies);
  ASSERT_EQ(wrong_default.size(), 1u);
  EXPECT_NE(wrong_default[0].find("`alpha`"), std::string::npos) << wrong_default[0];
  EXPECT_EQ(DocMismatches(drifted("a share, >= 0", "a share, > 0"), policies).size(), 1u);
  EXPECT_EQ(DocMismatches(drifted("| `demo` | `mode` | `\"fast\"` | how: fast \\| slow |\n", ""),
                          policies)
                .size(),
            1u);
  EXPECT_EQ(DocMismatches(drifted("| `bare` | — | | no options |\n",
                                  "| `bare` | — | | no options |\n| `bare` | `x` | `1` | new |\n"),
                          policies)
                .size(),
            1u);
  EXPECT_EQ(DocMismatches("no table here", policies).size(), 5u);  // "no table" + 4 missing
}

}  // namespace
}  // namespace adaptsim
