// Loading the reference runs of ../shared/data/golden/shockwave_tacc32 for fidelity tests.
#pragma once

#include <cstdint>
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
  /// per round, (job, worker ids) in dict order: `per_round_schedule` as recorded
  std::vector<std::vector<ScheduledJob>> round_workers;
  /// throughput_timeline[job][completion round] = (steps/s, batch size)
  std::map<JobId, std::map<int, std::pair<double, int>>> timeline;
  double cluster_util = 0.0;
  double extension_percentage = 0.0;
  std::int64_t lease_extensions = 0;
  std::int64_t lease_extension_opportunities = 0;
  std::vector<double> utilization;  ///< per worker id, rounded to 5 decimals
};

/// Path of golden file `tacc_32gpus__<name>__simulation.json`.
std::string GoldenPath(const std::string& name);
GoldenRun LoadGolden(const std::string& name);
/// Reads any golden `*__simulation.json` (same keys).
GoldenRun LoadGoldenFile(const std::string& path);

/// Every JCT within rel_tol (relative) of the golden one.
void ExpectJctsMatch(const SimulationResult& result, const GoldenRun& golden, double rel_tol);
/// Every (throughput, batch size) entry of the golden throughput_timeline, and no other.
void ExpectTimelineMatches(const SimulationResult& result, const GoldenRun& golden);

/// Runs `policy` with `options` on the canonical trace at 32 GPUs (tacc throughputs).
SimulationResult RunCanonical(const std::string& policy, const std::string& options_json = "{}",
                              double deadline_factor = 1.5);

}  // namespace adaptsim::testing
