#include "gns_rules.hpp"

namespace adaptsim::internal {

// Rows of docs/mechanism.md §3.3 (sources: ResNet-18 `utils.py:817-1008`, ResNet-50 `:1009-1066`,
// LM `:1067-1258`, Recommendation `:1261-1324`). Combinations not listed keep B0.
const std::vector<GnsRule>& GnsRules() {
  static const std::vector<GnsRule> kRules = {
      {"ResNet-18", 16, 1, 31, {{31, 41, 2}, {41, 51, 4}, {51, 71, 8}, {71, kToEnd, 16}}},
      {"ResNet-18", 32, 1, 21, {{21, 31, 2}, {31, 51, 4}, {51, kToEnd, 8}}},
      {"ResNet-18", 64, 1, 11, {{11, 31, 2}, {31, kToEnd, 4}}},
      {"ResNet-18", 128, 1, 11, {{11, kToEnd, 2}}},
      {"ResNet-18", 16, 2, 21, {{21, 31, 2}, {31, 91, 4}, {91, 111, 8}, {111, kToEnd, 16}}},
      {"ResNet-18", 32, 2, 11, {{11, 21, 2}, {21, 41, 4}, {41, kToEnd, 8}}},
      {"ResNet-18", 64, 2, 21, {{21, 41, 2}, {41, kToEnd, 4}}},
      {"ResNet-18", 128, 2, 41, {{41, kToEnd, 2}}},
      {"ResNet-18", 16, 4, 11, {{11, 21, 2}, {21, 81, 4}, {81, 91, 8}, {91, kToEnd, 16}}},
      {"ResNet-18", 32, 4, 21, {{21, 31, 2}, {31, 61, 4}, {61, kToEnd, 8}}},
      {"ResNet-18", 64, 4, 11, {{11, 61, 2}, {61, kToEnd, 4}}},
      {"ResNet-18", 128, 4, 11, {{11, kToEnd, 2}}},
      {"ResNet-50", 64, 1, 101, {{101, kToEnd, 2}}},
      {"ResNet-50", 32, 2, 101, {{101, 111, 2}, {111, kToEnd, 4}}},
      {"ResNet-50", 64, 2, 81, {{81, kToEnd, 2}}},
      {"ResNet-50", 32, 4, 131, {{131, 221, 2}, {221, kToEnd, 4}}},
      {"ResNet-50", 64, 4, 191, {{191, kToEnd, 2}}},
      {"LM", 5, 1, 31, {{31, 41, 2}, {41, 61, 4}, {61, 71, 8}, {71, kToEnd, 16}}},
      {"LM", 10, 1, 11, {{11, 21, 2}, {21, 41, 4}, {41, kToEnd, 8}}},
      {"LM", 20, 1, 11, {{11, 41, 2}, {41, kToEnd, 4}}},
      {"LM", 40, 1, 11, {{11, kToEnd, 2}}},
      {"LM", 5, 2, 31, {{31, 51, 2}, {51, 61, 4}, {61, 71, 8}, {71, kToEnd, 16}}},
      {"LM", 10, 2, 11, {{11, 31, 2}, {31, 41, 4}, {41, kToEnd, 8}}},
      {"LM", 20, 2, 31, {{31, 41, 2}, {41, kToEnd, 4}}},
      {"LM", 40, 2, 11, {{11, kToEnd, 2}}},
      {"LM", 5, 4, 11, {{11, 31, 2}, {31, 71, 4}, {71, 91, 8}, {91, kToEnd, 16}}},
      {"LM", 10, 4, 11, {{11, 31, 2}, {31, 61, 4}, {61, kToEnd, 8}}},
      {"LM", 20, 4, 11, {{11, 61, 2}, {61, kToEnd, 4}}},
      {"LM", 40, 4, 61, {{61, kToEnd, 2}}},
      {"Recommendation", 512, 1, 21, {{21, 41, 2}, {41, 71, 4}, {71, 91, 8}, {91, kToEnd, 16}}},
      {"Recommendation", 1024, 1, 21, {{21, 51, 2}, {51, 91, 4}, {91, kToEnd, 8}}},
      {"Recommendation", 2048, 1, 21, {{21, 41, 2}, {41, kToEnd, 4}}},
      {"Recommendation", 4096, 1, 41, {{41, kToEnd, 2}}},
  };
  return kRules;
}

}  // namespace adaptsim::internal
