// `adaptsim sweep`: the MPI task farm over a sweep spec (the farm itself is in src/harness).
#include <memory>

#include "adaptsim/harness.hpp"
#include "command.hpp"

namespace adaptsim::app {

void AddSweepCommand(CLI::App& app, const CommandContext& context, CommandList& commands) {
  auto options = std::make_shared<SweepCommandOptions>();
  options->argv = context.argv;
  SweepCommandOptions& sweep = *options;
  CLI::App* cmd =
      app.add_subcommand("sweep", "Run a sweep spec under MPI (mpirun -n N adaptsim sweep ...)");
  cmd->add_option("spec", sweep.spec_path, "Sweep spec (TOML)")->required();
  cmd->add_option("--out", sweep.out_path, "Results file (HDF5)")->required();
  cmd->add_flag("--quiet", sweep.quiet, "No per-task progress lines on stderr");
  cmd->add_flag("--resume", sweep.resume, "Keep the tasks already in --out, run the others");
  cmd->add_flag("--force", sweep.force, "Overwrite --out if it exists");
  commands.push_back({cmd, [options] { return RunSweepCommand(*options); }});
}

}  // namespace adaptsim::app
