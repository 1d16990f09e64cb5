// How subcommands plug into the adaptsim CLI: each command file defines an Add<Name>Command that
// declares its flags on a CLI11 subcommand and appends the action to run when it was chosen.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "adaptsim/result_detail.hpp"

namespace adaptsim::app {

/// A registered subcommand and the action that runs it (returns the exit code; throws
/// InputError for bad input, which main reports with exit code 2).
struct Command {
  CLI::App* subcommand = nullptr;
  std::function<int()> action;
};

/// Everything a command may need from main: the full command line (recorded in results files).
struct CommandContext {
  std::vector<std::string> argv;
};

using CommandList = std::vector<Command>;

/// Adds `--detail summary|per_job|full` to `cmd`, stored in `detail` (which must outlive it).
void AddDetailOption(CLI::App* cmd, std::optional<ResultDetail>& detail);

void AddRunCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddSweepCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddMergeCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddReportCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddFitThroughputCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddGenerateTraceCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddReproduceCommand(CLI::App& app, const CommandContext& context, CommandList& commands);

}  // namespace adaptsim::app
