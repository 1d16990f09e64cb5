// Sweep specification files (TOML) and their expansion into tasks. Format: docs/sweeps.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "adaptsim/result_detail.hpp"
#include "adaptsim/task.hpp"
#include "adaptsim/trace.hpp"

namespace adaptsim {

/// Keys that vary together. A list-valued key of the spec is a dimension with one key; a `[[zip]]`
/// group is one dimension with several keys. Keys are canonical names: "traces", "throughputs",
/// "policies", "num_gpus", "seeds", a SimulationOptions field ("round_duration_s", ...), or
/// "<policy>.<option>" for a policy parameter.
struct SweepDimension {
  std::vector<std::string> keys;
  std::vector<std::string> fields;                ///< the keys as written, for messages
  std::vector<std::vector<nlohmann::json>> rows;  ///< rows[i][k]: value i of keys[k]; ≥ 1 row
};

/// A parsed, validated sweep spec. Path values are resolved (variables expanded, relative paths
/// made absolute against the spec file's directory) and exist.
struct SweepSpec {
  std::string spec_path;                   ///< the TOML file, as given
  std::string name;                        ///< `name`
  std::vector<SweepDimension> dimensions;  ///< expansion order, outermost first
  /// Policy weight of ExpectedCost: defaults (kDefaultPolicyWeights) overridden by
  /// `[policy_weights]`; policies absent here weigh 1.
  std::map<std::string, double> policy_weights;
  std::map<std::string, std::string> file_hashes;  ///< resolved path -> FileContentHash
  /// Resolved trace path of the tasks without a production part -> stats (none for a file that
  /// does not read: its tasks fail when they run).
  std::map<std::string, TraceStats> trace_stats;
  /// Production tasks: ProductionStatsKey(task) -> the selected jobs' stats (read at load time).
  std::map<std::string, TraceStats> production_stats;
  /// `detail`: what the results file stores per task (unset: the command's default,
  /// kDefaultSweepDetail). Not part of any task's configuration or id.
  std::optional<ResultDetail> detail;
};

/// What decides a production task's selected jobs: log path, selection options and GPUs.
std::string ProductionStatsKey(const TaskConfig& task);

/// Stored detail of a sweep whose spec and command line name none (docs/sweeps.md §2): per-job
/// tables, which every figure reads (the ρ and JCT distributions); the round tables, ~90 % of a
/// full task's bytes, are read by no figure.
inline constexpr ResultDetail kDefaultSweepDetail = ResultDetail::kPerJob;

/// Default relative cost of a simulation by policy (docs/sweeps.md §3.1: Shockwave ~10 min against
/// < 1 min for the baselines on the 120-job trace, shockwave@8a44f4a:EXPERIMENTS.md#L44; Pollux
/// "up to 30 mins", adaptdl@c793c70:simulator/README.md#L57).
inline const std::map<std::string, double>& DefaultPolicyWeights() {
  static const std::map<std::string, double> kWeights = {{"shockwave", 20.0}, {"pollux", 10.0}};
  return kWeights;
}

/// Reads and validates `path`. `${NAME}` in path values expands to environment variable NAME;
/// an unset ADAPTSIM_DATA defaults to `<spec dir>/../../shared/data` when that folder exists.
/// Throws InputError(file, line, field, message) for malformed TOML, unknown keys, wrong types,
/// empty or duplicated list entries, zip lists of unequal length, a key given twice, out-of-range
/// numbers, unknown policies, policy options the policy rejects, options of a policy not swept,
/// and missing files — before any task runs.
SweepSpec LoadSweepSpec(const std::string& path);

/// The cartesian product of the dimensions, first dimension outermost (default order: traces,
/// throughputs, policies, num_gpus, simulation options, policy options, seeds innermost).
/// A task gets only the options of its own policy; configurations that come out identical
/// (e.g. fifo under a shockwave.* dimension) are kept once, at their first position.
/// Deterministic; ids are distinct; content hashes are filled from `spec.file_hashes`.
std::vector<TaskConfig> ExpandSweep(const SweepSpec& spec);

/// Expected relative cost of a task, for longest-expected-first dispatch: jobs × estimated
/// rounds × policy weight, where rounds ≈ max(last arrival, Σ duration·scale_factor / G) / T_r
/// (a lower bound of the makespan in rounds, ≥ 1). Unit-less; only the order matters.
double ExpectedCost(const SweepSpec& spec, const TaskConfig& task);

}  // namespace adaptsim
