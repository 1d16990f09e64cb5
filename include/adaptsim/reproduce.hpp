// `adaptsim reproduce shockwave|pollux|gavel|sia`: the sweeps of a paper's evaluation, run one
// after the other on one MPI job, then its figures and the reproduction report
// (docs/reproduction.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "adaptsim/sweep_command.hpp"

namespace adaptsim {

/// One sweep of a paper's evaluation: experiments/<spec_file> -> <out dir>/<name>.h5.
struct ReproductionSweep {
  std::string name;       ///< results file stem, and the name `--only` selects
  std::string spec_file;  ///< file name inside the experiments folder
  std::string what;       ///< one line for --help and the progress output
  /// Not part of the paper's evaluation (an extension that costs hours): runs only when named by
  /// `ReproduceOptions::only`; the report uses its results when they exist.
  bool optional = false;
  /// The sweep's own simulated-round budget per task (0 = none): its tasks stop after that many
  /// rounds with status "timeout", as with `--task-timeout-rounds` (a smaller command-line budget
  /// wins). For a sweep that measures the policy's runtime rather than the schedule (Sia's
  /// Fig. 9, docs/reproduction.md).
  std::int64_t round_budget = 0;
};

/// The papers `adaptsim reproduce` knows, in `--help` order: "shockwave", "pollux", "gavel",
/// "sia".
const std::vector<std::string>& ReproduciblePapers();

/// The sweeps of `paper` in run order. Throws InputError for an unknown paper.
const std::vector<ReproductionSweep>& ReproductionSweeps(const std::string& paper);

struct ReproduceOptions {
  std::string paper;                        ///< "shockwave", "pollux", "gavel" or "sia"
  std::string out_dir;                      ///< results, figures, reproduction.md
  std::string experiments_dir;              ///< the sweep spec files
  std::string paper_numbers;                ///< "" = <experiments_dir>/paper_numbers.toml
  std::string analysis_dir;                 ///< reproduction_report.py and its modules
  std::string python = "/usr/bin/python3";  ///< interpreter for the figures and report
  std::vector<std::string> only;  ///< sweep names to run (empty = every sweep not `optional`)
  bool no_report = false;         ///< run the sweeps only (no figures, no reproduction.md)
  /// How every sweep runs: `adaptsim sweep`'s options (--dry-run, --force, --retry-failed,
  /// --detail, budgets, --grace, --quiet, ...) and the command line recorded in every results
  /// file. Its spec_path and out_path are not read: each sweep's are
  /// `<experiments_dir>/<spec_file>` and `<out_dir>/<name>.h5`.
  SweepCommandOptions sweep;
};

/// Runs the selected sweeps of `options.paper` (as `adaptsim sweep`: rank 0 dispatches, workers
/// simulate, finished tasks are skipped, so a rerun resumes), then on rank 0 runs
/// `<python> <analysis_dir>/reproduction_report.py` with a fixed argument vector (no shell; its
/// --adaptsim is this process's own executable, which computes the figures' tables), which draws
/// the figures into `<out_dir>/figures/` and writes `<out_dir>/reproduction.md`.
/// After SIGTERM/SIGUSR1 the running sweep stops dispatching, the later sweeps and the report
/// are skipped, and every rank returns 0, so that a requeued job resumes. Initializes MPI (call
/// at most once per process). Returns 0, 2 for bad input (unknown sweep in `only`, missing
/// spec, spec errors), 1 for other errors (including a failing report script).
int RunReproduceCommand(const ReproduceOptions& options);

}  // namespace adaptsim
