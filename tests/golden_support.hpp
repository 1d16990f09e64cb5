// Loading the reference runs of ../shared/data/golden/shockwave_tacc32 for fidelity tests.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "adaptsim/result.hpp"
#include "adaptsim/simulator.hpp"

namespace adaptsim::testing {

/// One reference run (keys documented in the golden folder's README).
struct GoldenRun {
  std::string policy;
  double makespan_s = 0.0;
  double avg_jct_s = 0.0;
  std::vector<double> jct_s;                   ///< by job id
  std::vector<double> ftf_rho;                 ///< static ρ by job id
  std::vector<double> ftf_rho_themis;          ///< Themis-style ρ by job id
  std::vector<std::vector<JobId>> round_jobs;  ///< per round, dict order
  /// throughput_timeline[job][completion round] = (steps/s, batch size)
  std::map<JobId, std::map<int, std::pair<double, int>>> timeline;
  double cluster_util = 0.0;
  double extension_percentage = 0.0;
};

/// Path of golden file `tacc_32gpus__<name>__simulation.json`.
std::string GoldenPath(const std::string& name);
GoldenRun LoadGolden(const std::string& name);

/// Runs `policy` with `options` on the canonical trace at 32 GPUs (tacc throughputs).
SimulationResult RunCanonical(const std::string& policy, const std::string& options_json = "{}",
                              double deadline_factor = 1.5);

}  // namespace adaptsim::testing
