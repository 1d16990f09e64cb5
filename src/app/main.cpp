// The adaptsim command line (the only CLI11 user). Exit codes: 0 success, 1 internal or I/O error,
// 2 bad input (flags, spec, trace, options, a policy's output the engine cannot honour):
// "adaptsim: error: <what>" on stderr (a policy's error, e.g. a Python traceback, on its own
// lines).
#include <csignal>
#include <cstdio>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "adaptsim/build_info.hpp"
#include "adaptsim/error.hpp"
#include "command.hpp"
#ifdef ADAPTSIM_WITH_PYTHON
#include "adaptsim/python_policy.hpp"
#endif

namespace {

constexpr int kExitBadInput = 2;

std::string VersionText() {
  return std::string("adaptsim ") + ADAPTSIM_VERSION + " (git " + adaptsim::GitRevision() + ")";
}

// glibc's heap: grow it 64 MiB at a time and give memory back to the system only above 256 MiB
// free at its top. The default (128 KiB each) makes a run that builds and frees solver models
// every round call brk(2) thousands of times: Sia on Philly workload-1 spent 7 % of its CPU time
// there (docs/performance.md, "Sia whole runs"). Pages that are never touched take no memory.
void TuneHeap() {
#if defined(__GLIBC__)
  mallopt(M_TOP_PAD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

int Dispatch(const adaptsim::app::CommandList& commands) {
  try {
    for (const adaptsim::app::Command& command : commands) {
      if (command.subcommand->parsed()) return command.action();
    }
    return 1;
  } catch (const adaptsim::InputError& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", adaptsim::PrintableError(error).c_str());
    return kExitBadInput;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "adaptsim: error: %s\n", adaptsim::PrintableError(error).c_str());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f, a batch system's) makes write(2) fail with EFBIG, which the
  // writers report as a clear error naming the file, instead of killing the process (SIGXFSZ's
  // default action) in the middle of a write.
  std::signal(SIGXFSZ, SIG_IGN);
  TuneHeap();
#ifdef ADAPTSIM_WITH_PYTHON
  adaptsim::RegisterPythonPolicies();  // `--policy py:MODULE:CLASS` (docs/python.md)
#endif
  CLI::App app("adaptsim: simulator and experiment harness for GPU-cluster scheduling", "adaptsim");
  app.set_version_flag("--version", VersionText());
  app.require_subcommand(1);
  std::vector<std::string> args(argv, argv + argc);
  const adaptsim::app::CommandContext context{args};
  adaptsim::app::CommandList commands;
  // One line per subcommand, in the order `--help` lists them.
  adaptsim::app::AddRunCommand(app, context, commands);
  adaptsim::app::AddSweepCommand(app, context, commands);
  adaptsim::app::AddReproduceCommand(app, context, commands);
  adaptsim::app::AddMergeCommand(app, context, commands);
  adaptsim::app::AddReportCommand(app, context, commands);
  adaptsim::app::AddFitThroughputCommand(app, context, commands);
  adaptsim::app::AddGenerateTraceCommand(app, context, commands);
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
  return Dispatch(commands);
}
