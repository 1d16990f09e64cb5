// `adaptsim reproduce`: a paper's sweeps on one MPI job, then its figures and report
// (include/adaptsim/reproduce.hpp, docs/reproduction.md).
#include "adaptsim/reproduce.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>

#include "adaptsim/error.hpp"
#include "adaptsim/sweep_command.hpp"
#include "exit_status.hpp"
#include "mpi_farm.hpp"
#include "signals.hpp"

extern char** environ;

namespace adaptsim {
namespace {

namespace fs = std::filesystem;
namespace mpi = boost::mpi;

constexpr int kGo = 0;
constexpr int kStop = -1;  ///< broadcast: a stop signal arrived, every rank returns 0

/// The evaluation of each paper (docs/reproduction.md lists what each sweep reproduces).
const std::map<std::string, std::vector<ReproductionSweep>>& Papers() {
  static const std::map<std::string, std::vector<ReproductionSweep>> kPapers = {
      {"shockwave",
       {{"canonical", "canonical.toml",
         "canonical comparison and rho CDF: Shockwave and 6 baselines, 120 jobs, 32 GPUs"},
        {"pollux_canonical", "pollux_canonical.toml",
         "Pollux on the canonical trace (the additional baseline), 3 seeds"},
        {"scale", "scale.toml",
         "scale study: 64/128/256 GPUs, Shockwave's per-scale configurations, every baseline"},
        {"planning_window", "planning_window.toml",
         "planning-window sensitivity: window length x k x lambda on 120 and 220 jobs"},
        {"pollux_scale", "pollux_scale.toml",
         "optional, hours of CPU: Pollux on the scale study's 64/128/256-GPU clusters",
         /*optional=*/true}}},
      {"gavel",
       {{"heterogeneous", "heterogeneous.toml",
         "heterogeneous clusters: 120/460/900 jobs on 32/128/256 GPUs (2:1:1 V100:P100:K80); "
         "FIFO, LAS, Themis, OSSP each heterogeneity-agnostic and -aware, Gandiva-Fair, AlloX, "
         "MST, and Shockwave on mixed GPUs (beyond its paper)"},
        {"gavel_job_rate", "gavel_job_rate.toml",
         "Gavel's job-rate study (OSDI'20 Fig. 8 shape): steady-state average JCT against "
         "input job rate, 30-150 jobs/h on 36 V100 + 36 P100 + 36 K80; LAS and FIFO, agnostic "
         "vs aware"}}},
      {"pollux",
       {{"pollux_jobload", "pollux_jobload.toml",
         "job-load sweep: 8 workloads x load 0.5/1/1.5/2 x Pollux, Optimus+Oracle, Tiresias"},
        {"pollux_interval", "pollux_interval.toml",
         "scheduling-interval sweep: 8 workloads x interval 30 s to 8 min, Pollux"},
        {"pollux_realistic", "pollux_realistic.toml",
         "realistic job configurations: 8 workloads x Pollux, Optimus+Oracle, Tiresias"},
        {"pollux_fairness", "pollux_fairness.toml",
         "fairness knob: 8 workloads x load 1/2 x p = 1 to -10, Pollux"}}},
      {"sia",
       {{"sia_table3", "sia_table3.toml",
         "Table 3: Philly (8), Helios (10) and newTrace (10) workloads x Sia, Pollux, Gavel+TJ "
         "on the 64-GPU mixed cluster (aws=6,rtx=3,dgx-ext=2)"},
        {"sia_arrival_rate", "sia_arrival_rate.toml",
         "Fig. 7: average JCT against arrival rate, 10-50 jobs/h x 10 workloads, Sia and Pollux"},
        {"sia_policy_runtime", "sia_policy_runtime.toml",
         "Fig. 9: policy runtime per optimisation on 64 to 2,048 GPUs (the first 30 rounds of "
         "each scaled workload), Sia and Pollux",
         /*optional=*/false, /*round_budget=*/30},
        {"sia_table4", "sia_table4.toml",
         "Table 4: Philly (8) workloads x Sia, Pollux, Gavel+TJ, Themis+TJ, Shockwave+TJ on 64 T4 "
         "(aws=16)"},
        {"sia_fig8", "sia_fig8.toml",
         "Fig. 8: finish-time fairness rho (Eq. 3, isolated runs per GPU type), Helios (10) x "
         "Sia, Pollux, Gavel+TJ, Themis+TJ, Shockwave+TJ on the mixed cluster"},
        {"cross_family_canonical", "cross_family_canonical.toml",
         "both families on Shockwave's 120-job trace, 32 GPUs: Shockwave, Themis, Gavel (round "
         "engine), Pollux, Sia (interval engine); with Table 4 and Fig. 8 the rows of the "
         "cross-family figure"}}}};
  return kPapers;
}

/// The selected sweeps; InputError for an unknown name in `only`.
std::vector<ReproductionSweep> Selected(const ReproduceOptions& options) {
  const std::vector<ReproductionSweep>& all = ReproductionSweeps(options.paper);
  std::vector<ReproductionSweep> selected;
  for (const std::string& name : options.only) {
    bool known = std::any_of(all.begin(), all.end(),
                             [&](const ReproductionSweep& s) { return s.name == name; });
    if (!known) {
      std::string names;
      for (const ReproductionSweep& s : all) names += (names.empty() ? "" : ", ") + s.name;
      throw InputError("command line", 0, "--only",
                       "no sweep '" + name + "' in " + options.paper + " (sweeps: " + names + ")");
    }
  }
  for (const ReproductionSweep& sweep : all) {
    bool named =
        std::find(options.only.begin(), options.only.end(), sweep.name) != options.only.end();
    if (named || (options.only.empty() && !sweep.optional)) {
      selected.push_back(sweep);
    }
  }
  return selected;
}

/// The options of one sweep: the command's sweep options with the sweep's spec and results file.
SweepCommandOptions SweepOptions(const ReproduceOptions& options, const ReproductionSweep& sweep) {
  SweepCommandOptions sweep_options = options.sweep;
  sweep_options.spec_path = (fs::path(options.experiments_dir) / sweep.spec_file).string();
  sweep_options.out_path = (fs::path(options.out_dir) / (sweep.name + ".h5")).string();
  if (sweep.round_budget > 0 && (sweep_options.task_timeout_rounds == 0 ||
                                 sweep_options.task_timeout_rounds > sweep.round_budget)) {
    sweep_options.task_timeout_rounds = sweep.round_budget;
  }
  return sweep_options;
}

/// Rank 0 before any sweep: the selection, the spec files and the output folder. Returns the
/// exit code to broadcast (0 = go).
int Prepare(const ReproduceOptions& options, std::vector<ReproductionSweep>& sweeps) {
  return ExitStatusOf([&] {
    sweeps = Selected(options);
    for (const ReproductionSweep& sweep : sweeps) {
      fs::path spec = fs::path(options.experiments_dir) / sweep.spec_file;
      if (!fs::is_regular_file(spec)) {
        throw InputError(spec.string(), 0, "--experiments", "sweep spec not found");
      }
    }
    fs::create_directories(options.out_dir);  // also for --dry-run: the sweeps check it exists
    return 0;
  });
}

/// The reference data folder handed to the report: $ADAPTSIM_DATA, else the sweeps' default
/// (<experiments>/../../shared/data, docs/sweeps.md).
std::string DataDir(const ReproduceOptions& options) {
  if (const char* env = std::getenv("ADAPTSIM_DATA"); env != nullptr && *env != '\0') return env;
  return (fs::path(options.experiments_dir) / ".." / ".." / "shared" / "data")
      .lexically_normal()
      .string();
}

/// Runs `argv` (argv[0] = the program's path; no shell, no PATH search) and waits. Returns its
/// exit code, or throws when it cannot start or dies of a signal.
int RunProgram(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int error = posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (error != 0) {
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(error));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid: " + std::string(std::strerror(errno)));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  throw std::runtime_error(argv[0] + " died of signal " + std::to_string(WTERMSIG(status)));
}

/// Rank 0 after the sweeps: figures and reproduction.md. The script computes the figures' tables
/// with this very binary (`adaptsim report --format json`, docs/analysis.md).
int Report(const ReproduceOptions& options) {
  std::vector<std::string> argv = {
      options.python,
      (fs::path(options.analysis_dir) / "reproduction_report.py").string(),
      options.paper,
      "--results",
      options.out_dir,
      "--paper-numbers",
      options.paper_numbers.empty()
          ? (fs::path(options.experiments_dir) / "paper_numbers.toml").string()
          : options.paper_numbers,
      "--data",
      DataDir(options),
      "--adaptsim",
      fs::read_symlink("/proc/self/exe").string()};
  if (!options.sweep.quiet) {
    std::string line;
    for (const std::string& arg : argv) line += (line.empty() ? "" : " ") + arg;
    std::fprintf(stderr, "adaptsim: reproduce %s: figures and report: %s\n", options.paper.c_str(),
                 line.c_str());
  }
  std::fflush(stdout);
  std::fflush(stderr);
  int code = RunProgram(argv);
  if (code != 0) {
    std::fprintf(stderr, "adaptsim: error: %s exited with code %d\n", argv[1].c_str(), code);
    return 1;
  }
  return 0;
}

}  // namespace

const std::vector<std::string>& ReproduciblePapers() {
  static const std::vector<std::string> kNames = {"shockwave", "pollux", "gavel", "sia"};
  return kNames;
}

const std::vector<ReproductionSweep>& ReproductionSweeps(const std::string& paper) {
  auto found = Papers().find(paper);
  if (found == Papers().end()) {
    throw InputError("command line", 0, "paper",
                     "unknown paper '" + paper + "' (shockwave, pollux, gavel or sia)");
  }
  return found->second;
}

int RunReproduceCommand(const ReproduceOptions& options) {
  StopSignals signals;  // before MPI start-up, as in RunSweepCommand
  mpi::environment environment(/*abort_on_exception=*/true);
  mpi::communicator world;
  std::vector<ReproductionSweep> sweeps;
  int code = world.rank() == 0 ? Prepare(options, sweeps) : 0;
  boost::mpi::broadcast(world, code, 0);
  if (code != 0) return code;
  std::size_t count = sweeps.size();
  boost::mpi::broadcast(world, count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    if (world.rank() == 0 && !options.sweep.quiet) {
      std::fprintf(stderr, "adaptsim: reproduce %s: sweep %zu/%zu %s (%s) -> %s\n",
                   options.paper.c_str(), i + 1, count, sweeps[i].name.c_str(),
                   sweeps[i].what.c_str(), SweepOptions(options, sweeps[i]).out_path.c_str());
    }
    // Workers read only their --shard-interval: their tasks (and the grace time) and the shard
    // folder come from rank 0.
    SweepCommandOptions sweep_options =
        world.rank() == 0 ? SweepOptions(options, sweeps[i]) : options.sweep;
    code = RunSweepFarm(sweep_options, world, signals);
    if (code != 0) return code;
    int next = world.rank() == 0 && signals.received() != 0 ? kStop : kGo;
    boost::mpi::broadcast(world, next, 0);
    if (next == kStop) {
      if (world.rank() == 0) {
        std::fprintf(stderr,
                     "adaptsim: reproduce %s stopped by signal %d after sweep %s: rerun the same "
                     "command to resume\n",
                     options.paper.c_str(), signals.received(), sweeps[i].name.c_str());
      }
      return 0;
    }
  }
  if (world.rank() != 0 || options.sweep.dry_run || options.no_report) return 0;
  try {
    return Report(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", error.what());
    return 1;
  }
}

}  // namespace adaptsim
