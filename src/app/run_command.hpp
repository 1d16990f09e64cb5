// `adaptsim run`: one simulation in this process, without MPI.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "adaptsim/production_source.hpp"

namespace adaptsim::app {

/// Flags of `adaptsim run`.
struct RunCommandOptions {
  /// The task-configuration flags given, flag -> text as given (the flags come from the field
  /// list, adaptsim/task_fields.hpp; TaskConfigFromArguments reads them).
  std::map<std::string, std::string> fields;
  std::vector<std::string>
      policy_options;  ///< --policy-option "key=value" texts (TaskConfigFromArguments parses them)
  /// A production job log instead of a trace (docs/production.md), and the production flags given
  /// (VisitProductionSourceFields), flag -> its texts as given (a repeatable flag has several).
  std::string production_log;
  std::map<std::string, std::vector<std::string>> production;
  std::string out_path;           ///< "" = no results file
  bool force = false;             ///< overwrite an existing out_path
  bool json = false;              ///< print JSON instead of text
  bool jobs = false;              ///< also print the per-job table
  std::vector<std::string> argv;  ///< recorded in /meta of out_path
};

/// Runs the command; returns the exit code (0). Throws InputError for bad flags or inputs.
int RunCommand(const RunCommandOptions& options);

}  // namespace adaptsim::app
