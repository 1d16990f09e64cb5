// `adaptsim reproduce shockwave|pollux|gavel|sia`: a paper's evaluation in one command (the logic
// is in src/sweep/reproduce.cpp; docs/reproduction.md).
#include <memory>

#include "adaptsim/reproduce.hpp"
#include "command.hpp"

namespace adaptsim::app {
namespace {

std::string SweepList() {
  std::string text;
  for (const std::string& paper : ReproduciblePapers()) {
    text += "\n" + paper + ":";
    for (const ReproductionSweep& sweep : ReproductionSweeps(paper)) {
      text += "\n  " + sweep.name + ": " + sweep.what;
    }
  }
  return text;
}

}  // namespace

void AddReproduceCommand(CLI::App& app, const CommandContext& context, CommandList& commands) {
  auto options = std::make_shared<ReproduceOptions>();
  options->sweep.argv = context.argv;
  options->experiments_dir = std::string(ADAPTSIM_SOURCE_DIR) + "/experiments";
  options->analysis_dir = std::string(ADAPTSIM_SOURCE_DIR) + "/analysis";
  options->paper_numbers = std::string(ADAPTSIM_SOURCE_DIR) + "/experiments/paper_numbers.toml";
  CLI::App* cmd = app.add_subcommand(
      "reproduce",
      "Run a paper's evaluation (its sweeps, under MPI like `sweep`), draw its figures and "
      "write OUT/reproduction.md: shockwave (NSDI'23: canonical, scale, planning window), pollux "
      "(OSDI'21: job load, interval, realistic, fairness), gavel (OSDI'20: job-rate study, "
      "heterogeneous clusters incl. Shockwave on mixed GPUs), sia (SOSP'23: Table 3, Fig. 7 "
      "arrival rate, Fig. 9 policy runtime, Table 4 on 64 T4, Fig. 8 fairness on the mixed "
      "cluster; every family on the same jobs)");
  cmd->footer(
      "Examples:\n  mpirun -n 3 adaptsim reproduce shockwave --out results/reproduce-shockwave\n"
      "  mpirun -n 3 adaptsim reproduce gavel --only gavel_job_rate\n"
      "  mpirun -n 3 adaptsim reproduce sia --only sia_table3\n"
      "reproduction.md sets every number the paper, its artifact or its reference runs state "
      "beside adaptsim's, with their ratio and whether adaptsim lands on the paper's side. "
      "OUT gets one results file per sweep (<sweep>.h5 and its shards), figures/ (PDF and PNG, "
      "each with a CSV of its numbers) and reproduction.md (docs/reproduction.md). Rerunning the "
      "same command resumes: finished tasks are skipped, figures and report are redrawn. "
      "SIGUSR1/SIGTERM (Slurm's time-limit warning) stop dispatching and exit 0. The sweep "
      "flags apply to every sweep, as for `adaptsim sweep`.\n"
      "Sweeps:" +
      SweepList());
  cmd->add_option("paper", options->paper,
                  "shockwave, pollux, gavel or sia (the sweeps each runs are listed below)")
      ->required()
      ->check(CLI::IsMember(ReproduciblePapers()));
  cmd->add_option("--out", options->out_dir, "Output folder (default results/reproduce-<paper>)");
  cmd->add_option(
         "--only", options->only,
         "Run only these sweeps (names under Sweeps below; repeatable); optional sweeps run only "
         "when named")
      ->delimiter(',');
  cmd->add_flag("--no-report", options->no_report, "Run the sweeps only: no figures, no report");
  AddSweepOptions(cmd, options->sweep);
  cmd->add_option("--experiments", options->experiments_dir,
                  "Folder of the sweep specs (default: the source tree's experiments/)")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--paper-numbers", options->paper_numbers,
                  "The papers' numbers (default: experiments/paper_numbers.toml of the source "
                  "tree)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--analysis", options->analysis_dir,
                  "Folder of reproduction_report.py (default: the source tree's analysis/)")
      ->check(CLI::ExistingDirectory);
  commands.push_back({cmd, [options] {
                        if (options->out_dir.empty()) {
                          options->out_dir = "results/reproduce-" + options->paper;
                        }
                        return RunReproduceCommand(*options);
                      }});
}

}  // namespace adaptsim::app
