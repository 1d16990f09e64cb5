// `adaptsim sweep`: the MPI task farm over a sweep spec (the farm itself is in src/sweep), and the
// flags of a sweep, which `adaptsim reproduce` shares.
#include <map>
#include <memory>

#include "adaptsim/sweep_command.hpp"
#include "command.hpp"

namespace adaptsim::app {

void AddSweepOptions(CLI::App* cmd, SweepCommandOptions& sweep) {
  cmd->add_flag("--quiet", sweep.quiet, "No progress output on stderr");
  cmd->add_flag("--resume", sweep.resume_flag,
                "Accepted for compatibility: resuming is the default");
  cmd->add_flag("--force", sweep.force,
                "Discard earlier results (the results file and its shards) and start over");
  cmd->add_flag("--retry-failed", sweep.retry_failed, "Rerun tasks recorded as failed/timeout");
  cmd->add_flag("--dry-run", sweep.dry_run,
                "List tasks with ids, expected cost and state; run nothing");
  cmd->add_option("--task-timeout", sweep.task_timeout_s,
                  "Wall-clock seconds per task, then status timeout (0 = none)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--task-timeout-rounds", sweep.task_timeout_rounds,
                  "Simulated rounds per task, then status timeout (0 = none)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--grace", sweep.grace_s,
                  "After SIGTERM/SIGUSR1: seconds running tasks may finish (default 60)")
      ->check(CLI::NonNegativeNumber);
  const std::map<std::string, DispatchOrder> orders = {
      {"longest-first", DispatchOrder::kLongestFirst},
      {"shortest-first", DispatchOrder::kShortestFirst},
      {"spec", DispatchOrder::kSpec}};
  cmd->add_option("--order", sweep.order, "Dispatch order (default longest-first)")
      ->transform(CLI::CheckedTransformer(orders, CLI::ignore_case));
  AddDetailOption(cmd, sweep.detail);
  cmd->add_flag("--keep-shards", sweep.keep_shards,
                "Keep the shards (OUT.shards/) after the merged results file was verified "
                "(default: delete them)");
  cmd->add_option("--shard-interval", sweep.shard_interval_s,
                  "Results a rank finishes within this many seconds are stored as one shard "
                  "(default 0.25; 0 = one shard per task)")
      ->check(CLI::NonNegativeNumber);
}

void AddSweepCommand(CLI::App& app, const CommandContext& context, CommandList& commands) {
  auto options = std::make_shared<SweepCommandOptions>();
  options->argv = context.argv;
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Run a sweep spec under MPI (mpirun -n N adaptsim sweep ...); resumes by default");
  cmd->add_option("spec", options->spec_path, "Sweep spec (TOML, docs/sweeps.md)")->required();
  cmd->add_option("--out", options->out_path,
                  "Results file (HDF5; its SHA-256 in OUT.sha256); shards go to OUT.shards/")
      ->required();
  AddSweepOptions(cmd, *options);
  commands.push_back({cmd, [options] { return RunSweepCommand(*options); }});
}

}  // namespace adaptsim::app
