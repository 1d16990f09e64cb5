// Shockwave's configuration: the reference's JSON keys (docs/policies.md §8.6; read unchanged from
// `scheduler/configurations/*.json` of uw-mad-dash/shockwave@8a44f4a) plus adaptsim's solver
// choice and limits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace adaptsim {

/// kStructuredReference: the structured solver with its local search run as the reference
/// implementation (same results, O(N²) per re-solve; for tests and benchmarks).
enum class ShockwaveSolver { kStructured, kStructuredReference, kGeneral };

struct ShockwaveConfig {
  int future_rounds = 20;  ///< T, planning window in rounds; >= 1
  double k = 1e-3;         ///< weight of k · max remaining time (1/s); >= 0
  double lambda = 12.0;    ///< exponent of the fallback priority ρ̂^λ; >= 0
  double rhomax = 1.0;     ///< ρ_max of the finish-time constraints; > 0
  /// PWL breakpoints of log(normalised progress): strictly increasing in [0, 1], first 0
  /// (`shockwave.py:330-345` asserts it); 0 stands for 1e-6 inside the log.
  std::vector<double> log_approximation_bases = {0.0, 0.2, 0.4, 0.6, 0.8, 1.0};
  double gpu_ram = 16.0;         ///< GB; stored, unused (as in the reference)
  double solver_rel_gap = 1e-3;  ///< relative MIP gap of the general solver; >= 0
  double solver_timeout = 15.0;  ///< s; the reference's Gurobi TimeLimit. adaptsim applies it
                                 ///< only when solver_wall_clock is true (never in
                                 ///< reproduction mode)
  int solver_num_threads = 24;   ///< stored; CBC runs single-threaded (deterministic)
  ShockwaveSolver solver =
      ShockwaveSolver::kStructured;       ///< "structured" | "structured_reference" | "general"
  std::int64_t solver_max_nodes = 20000;  ///< CBC node limit per MILP call; > 0
  bool solver_wall_clock = false;         ///< apply solver_timeout (not reproducible)

  /// Throws InputError(file=context, field=key) for out-of-range values: future_rounds < 1,
  /// rhomax <= 0, bases not increasing or outside [0, 1] or not starting at 0, negative k, ...
  void Validate(const std::string& context) const;
};

/// Overrides `config` with the keys of `json` (reference keys, plus "solver", "solver_max_nodes",
/// "solver_wall_clock"). Unknown keys and wrong types throw InputError(context, 0, key, ...).
/// Does not validate ranges (call Validate()).
void ApplyShockwaveJson(const nlohmann::json& json, const std::string& context,
                        ShockwaveConfig& config);

/// Reads a reference configuration JSON (e.g. shared/data/shockwave/configurations/
/// tacc_32gpus.json) over the defaults and validates it. Throws InputError on a missing file,
/// malformed JSON, unknown keys or out-of-range values.
ShockwaveConfig ReadShockwaveConfig(const std::string& path);

/// The policy options of registry entry `shockwave`: optional "config" (path of a reference JSON,
/// read first), then any key of ApplyShockwaveJson overriding it. Validated.
ShockwaveConfig ShockwaveConfigFromOptions(const nlohmann::json& options,
                                           const std::string& context);

}  // namespace adaptsim
