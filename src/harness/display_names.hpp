// How tables name policies, options and scenarios: "Shockwave", "window 40 min", "120 jobs ·
// 32 GPUs". The C++ half of a table whose Python half is analysis/adaptsim_style.py (figures);
// tests/test_display_names.cpp checks that both agree.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace adaptsim {

/// (registry name, display name) of every policy with a display name, in legend order
/// (Shockwave, OSSP, Themis, Gavel, AlloX, MST, Gandiva-Fair, FIFO, Pollux, Optimus, Tiresias,
/// ...).
const std::vector<std::pair<std::string, std::string>>& PolicyDisplayNames();

/// The display name of a registry name (min_total_duration -> OSSP); unknown names unchanged.
std::string PolicyDisplayName(const std::string& policy);

/// `value` as printf's %g with the exponent written without sign padding: 0.001 -> "0.001",
/// 1e-05 -> "1e-5", 100000 -> "100000", 1e+06 -> "1e6".
std::string DisplayNumber(double value);

/// One policy option as a label: ("future_rounds", 20, round 120 s) -> "window 40 min",
/// ("k", 0.001) -> "k 0.001", ("lambda", 12) -> "λ 12", ("interval_s", 120) -> "interval 2 min";
/// other options "<name> <value>".
std::string OptionLabel(const std::string& option, const nlohmann::json& value,
                        double round_duration_s);

/// "120 jobs · 32 GPUs".
std::string ScenarioLabel(long long num_jobs, long long num_gpus);

}  // namespace adaptsim
