// The adaptsim command line (the only CLI11 user). Exit codes: 0 success, 1 internal or I/O error,
// 2 bad input (flags, spec, trace, options): "adaptsim: error: <what>" on stderr.
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "adaptsim/error.hpp"
#include "adaptsim/harness.hpp"
#include "run_command.hpp"

namespace {

constexpr int kExitBadInput = 2;

std::string VersionText() {
  return std::string("adaptsim ") + ADAPTSIM_VERSION + " (git " + ADAPTSIM_GIT_SHA + ")";
}

void AddRunCommand(CLI::App& app, adaptsim::app::RunCommandOptions& run) {
  CLI::App* cmd = app.add_subcommand("run", "Run one simulation in this process (no MPI)");
  cmd->add_option("--trace", run.trace_path, "Job trace (.trace)");
  cmd->add_option("--throughputs", run.throughputs_path, "Throughputs JSON");
  cmd->add_option("--policy", run.policy, "Policy name; 'help' lists them");
  cmd->add_option("--gpus", run.num_gpus, "Number of GPUs")->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--seed", run.seed, "Seed of the task's random streams")->capture_default_str();
  cmd->add_option("--round-duration-s", run.round_duration_s, "Round length in seconds")
      ->capture_default_str();
  cmd->add_option("--deadline-factor", run.deadline_factor, "Deadline factor (>= 1)")
      ->capture_default_str();
  cmd->add_option("--policy-option", run.policy_options, "Policy parameter key=value (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--out", run.out_path, "Write the result to this HDF5 file");
  cmd->add_flag("--force", run.force, "Overwrite --out if it exists");
  cmd->add_flag("--json", run.json, "Print JSON instead of text");
  cmd->add_flag("--jobs", run.jobs, "Also print the per-job table");
}

void AddSweepCommand(CLI::App& app, adaptsim::SweepCommandOptions& sweep) {
  CLI::App* cmd =
      app.add_subcommand("sweep", "Run a sweep spec under MPI (mpirun -n N adaptsim sweep ...)");
  cmd->add_option("spec", sweep.spec_path, "Sweep spec (TOML)")->required();
  cmd->add_option("--out", sweep.out_path, "Results file (HDF5)")->required();
  cmd->add_flag("--quiet", sweep.quiet, "No per-task progress lines on stderr");
  cmd->add_flag("--resume", sweep.resume, "Keep the tasks already in --out, run the others");
  cmd->add_flag("--force", sweep.force, "Overwrite --out if it exists");
}

int Dispatch(const CLI::App& app, adaptsim::app::RunCommandOptions& run,
             adaptsim::SweepCommandOptions& sweep) {
  try {
    if (app.got_subcommand("run")) return adaptsim::app::RunCommand(run);
    return adaptsim::RunSweepCommand(sweep);
  } catch (const adaptsim::InputError& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", error.what());
    return kExitBadInput;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", error.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("adaptsim: simulator and experiment harness for GPU-cluster scheduling", "adaptsim");
  app.set_version_flag("--version", VersionText());
  app.require_subcommand(1);
  std::vector<std::string> args(argv, argv + argc);
  adaptsim::app::RunCommandOptions run;
  run.argv = args;
  adaptsim::SweepCommandOptions sweep;
  sweep.argv = args;
  AddRunCommand(app, run);
  AddSweepCommand(app, sweep);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "adaptsim: error: %s\nRun with --help for more information.\n", e.what());
    return kExitBadInput;
  }
  return Dispatch(app, run, sweep);
}
