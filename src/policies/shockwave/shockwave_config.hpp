// Shockwave's configuration: the reference's JSON keys (docs/policies.md §8.6; read unchanged from
// `scheduler/configurations/*.json` of uw-mad-dash/shockwave@8a44f4a) plus adaptsim's solver
// choice and limits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "adaptsim/policy_options.hpp"

namespace adaptsim {

/// kStructuredReference: the structured solver with its local search run as the reference
/// implementation (same results, O(N²) per re-solve; for tests and benchmarks).
enum class ShockwaveSolver { kStructured, kStructuredReference, kGeneral };

struct ShockwaveConfig {
  int future_rounds = 20;  ///< T, planning window in rounds
  double k = 1e-3;         ///< weight of k · max remaining time (1/s)
  double lambda = 12.0;    ///< exponent of the fallback priority ρ̂^λ
  double rhomax = 1.0;     ///< ρ_max of the finish-time constraints
  /// PWL breakpoints of log(normalised progress): strictly increasing in [0, 1], first 0
  /// (`shockwave.py:330-345` asserts it); 0 stands for 1e-6 inside the log.
  std::vector<double> log_approximation_bases = {0.0, 0.2, 0.4, 0.6, 0.8, 1.0};
  double gpu_ram = 16.0;         ///< GB; stored, unused (as in the reference)
  double solver_rel_gap = 1e-3;  ///< relative MIP gap of the general solver
  double solver_timeout = 15.0;  ///< s; the reference's Gurobi TimeLimit. adaptsim applies it
                                 ///< only when solver_wall_clock is true (never in
                                 ///< reproduction mode)
  int solver_num_threads = 24;   ///< stored; CBC runs single-threaded (deterministic)
  ShockwaveSolver solver = ShockwaveSolver::kStructured;
  std::int64_t solver_max_nodes = 20000;  ///< CBC node limit per MILP call
  bool solver_wall_clock = false;         ///< apply solver_timeout (not reproducible)

  /// The keys of a configuration file, the reference's and adaptsim's solver keys.
  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("future_rounds", "T, the planning window in rounds", Within(1, 100000)),
          self.future_rounds);
    visit(Option("k", "weight of the makespan term k · max remaining time, 1/s", AtLeast(0)),
          self.k);
    visit(Option("lambda", "exponent of the fairness weight rho^lambda", AtLeast(0)), self.lambda);
    visit(Option("rhomax", "rho_max, bound of the finish-time fairness rows", Above(0)),
          self.rhomax);
    visit(Option("log_approximation_bases",
                 "breakpoints of the piecewise-linear log, strictly increasing in [0, 1], the "
                 "first 0, the second > 1e-6"),
          self.log_approximation_bases);
    visit(Option("gpu_ram", "GB; read and unused, as in the reference", Above(0)), self.gpu_ram);
    visit(Option("solver", "the window MILP's solver",
                 Choices<ShockwaveSolver>{
                     {"structured", ShockwaveSolver::kStructured, "exact, on its structure"},
                     {"structured_reference", ShockwaveSolver::kStructuredReference,
                      "the same, local search as in the reference"},
                     {"general", ShockwaveSolver::kGeneral, "CBC on the whole MILP"}}),
          self.solver);
    visit(Option("solver_rel_gap", "relative MIP gap of the general solver", AtLeast(0)),
          self.solver_rel_gap);
    visit(
        Option("solver_timeout", "s per MILP call, applied only when solver_wall_clock", Above(0)),
        self.solver_timeout);
    visit(
        Option("solver_num_threads", "read; CBC runs single-threaded (deterministic)", AtLeast(1)),
        self.solver_num_threads);
    visit(Option("solver_max_nodes", "CBC node limit per MILP call", AtLeast(1)),
          self.solver_max_nodes);
    visit(Option("solver_wall_clock", "apply solver_timeout (results then depend on the machine)"),
          self.solver_wall_clock);
  }
  /// The bases' order and first values (ValidateOptions checks the other keys' rules).
  void CheckOptions(const OptionContext& where) const;
};

/// Reads a reference configuration JSON (e.g. shared/data/shockwave/configurations/
/// tacc_32gpus.json) over the defaults and validates it. Throws InputError(path, field = the key)
/// on a missing file, malformed JSON, unknown keys or out-of-range values.
ShockwaveConfig ReadShockwaveConfig(const std::string& path);

/// The options of the `shockwave` policy: `config`, a configuration file read first, then the
/// keys of ShockwaveConfig, which override the file's.
struct ShockwaveOptions : ShockwaveConfig {
  template <typename Self, typename V>
  static void VisitOptions(Self& self, V&& visit) {
    visit(Option("config",
                 "path of a Shockwave configuration JSON read first (\"\" = none); the other "
                 "options override its keys",
                 BaseFile<ShockwaveConfig>{&ReadShockwaveConfig}),
          self);
    ShockwaveConfig::VisitOptions(self, visit);
  }
};

}  // namespace adaptsim
