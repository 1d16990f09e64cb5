// Sweep specification files (TOML) and their expansion into tasks. Format: docs/sweeps.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/task.hpp"

namespace adaptsim {

/// A parsed, validated sweep spec. Paths are resolved (variables expanded, relative paths made
/// absolute against the spec file's directory) and exist.
struct SweepSpec {
  std::string spec_path;                   ///< the TOML file, as given
  std::string name;                        ///< `name`
  std::vector<std::string> traces;         ///< `traces`: one string or a list, ≥ 1
  std::string throughputs_path;            ///< `throughputs`
  std::vector<std::string> policies;       ///< `policies`, registered names, ≥ 1
  std::vector<int> num_gpus;               ///< `num_gpus`: int or list, each > 0
  std::vector<std::uint64_t> seeds;        ///< `seeds`: int or list, each ≥ 0; default [0]
  std::optional<double> round_duration_s;  ///< unset = SimulationOptions default (120 s)
  std::optional<double> deadline_factor;   ///< unset = SimulationOptions default (1.5)
  /// `[policy_options.<policy>]` tables as JSON objects; a policy without a table gets {}.
  std::map<std::string, nlohmann::json> policy_options;
};

/// Reads and validates `path`. `${NAME}` in path values expands to environment variable NAME;
/// an unset ADAPTSIM_DATA defaults to `<spec dir>/../../shared/data` when that folder exists.
/// Throws InputError(file, line, field, message) for malformed TOML, unknown keys, wrong types,
/// empty or duplicated list entries, out-of-range numbers, unknown policies, policy options the
/// policy rejects, and missing files — before any task runs.
SweepSpec LoadSweepSpec(const std::string& path);

/// The cartesian product traces × policies × num_gpus × seeds, in that nesting order (traces
/// outermost, seeds innermost). Deterministic; ids are distinct.
std::vector<TaskConfig> ExpandSweep(const SweepSpec& spec);

}  // namespace adaptsim
