// How subcommands plug into the adaptsim CLI: each command file defines an Add<Name>Command that
// declares its flags on a CLI11 subcommand and appends the action to run when it was chosen.
#pragma once

#include <array>
#include <exception>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/result_detail.hpp"
#include "adaptsim/sweep_command.hpp"

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

/// N comma-separated probabilities ("0,0.5,0.5") of flag `flag`; their range and sum are left to
/// the options' Validate. Throws InputError("command line", 0, flag, ...) for another count or a
/// non-number.
template <std::size_t N>
std::array<double, N> ParseMix(const std::string& text, const char* flag) {
  std::array<double, N> mix{};
  std::stringstream stream(text);
  std::size_t count = 0;
  for (std::string item; std::getline(stream, item, ',');) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || count >= N) {
      throw InputError(
          "command line", 0, flag,
          "expected " + std::to_string(N) + " comma-separated probabilities, got '" + text + "'");
    }
    mix[count++] = value;
  }
  if (count != N) {
    throw InputError("command line", 0, flag,
                     "expected " + std::to_string(N) + " probabilities, got '" + text + "'");
  }
  return mix;
}
/// Adds `--detail summary|per_job|full` to `cmd`, stored in `detail` (which must outlive it).
void AddDetailOption(CLI::App* cmd, std::optional<ResultDetail>& detail);
/// Adds the flags of a sweep (every SweepCommandOptions field but the spec, --out and argv) to
/// `cmd`, stored in `sweep` (which must outlive it): `adaptsim sweep` and `adaptsim reproduce`.
void AddSweepOptions(CLI::App* cmd, SweepCommandOptions& sweep);

void AddRunCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddSweepCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddMergeCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddReportCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddFitThroughputCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddGenerateTraceCommand(CLI::App& app, const CommandContext& context, CommandList& commands);
void AddReproduceCommand(CLI::App& app, const CommandContext& context, CommandList& commands);

}  // namespace adaptsim::app
