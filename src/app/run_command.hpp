// `adaptsim run`: one simulation in this process, without MPI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "adaptsim/production_source.hpp"

namespace adaptsim::app {

/// Flags of `adaptsim run` (defaults as SimulationOptions).
struct RunCommandOptions {
  std::string trace_path;
  /// A production job log instead of a trace (docs/production.md): its format ("philly" | "itp"),
  /// selection and rule; gpu_time_buckets ("HOURS=MODEL[,MODEL...]", HOURS may be "inf") and
  /// mode_mix ("STATIC,ACCORDION,GNS") are parsed into `production`.
  std::string production_log;
  std::string log_format;
  ProductionSource production;
  std::vector<std::string> gpu_time_buckets;
  std::string mode_mix;
  std::string throughputs_path;
  std::string policy;  ///< "help" lists the registered policies
  int num_gpus = 0;    ///< required, > 0
  std::uint64_t seed = 0;
  double round_duration_s = 120.0;
  double deadline_factor = 1.5;
  std::string idle_round_start = "reference";  ///< SimulationOptions::idle_round_start
  std::vector<std::string> policy_options;     ///< "key=value"; value parsed as JSON, else a string
  std::string out_path;                        ///< "" = no results file
  bool force = false;                          ///< overwrite an existing out_path
  bool json = false;                           ///< print JSON instead of text
  bool jobs = false;                           ///< also print the per-job table
  std::vector<std::string> argv;               ///< recorded in /meta of out_path
};

/// Runs the command; returns the exit code (0). Throws InputError for bad flags or inputs.
int RunCommand(const RunCommandOptions& options);

}  // namespace adaptsim::app
