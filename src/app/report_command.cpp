// `adaptsim report RESULTS.h5`: the numbers of analysis/figures.py as tables (text, CSV or
// markdown). Definitions: include/adaptsim/results_analysis.hpp.
#include <memory>

#include "adaptsim/error.hpp"
#include "adaptsim/results_analysis.hpp"
#include "command.hpp"

namespace adaptsim::app {

void AddReportCommand(CLI::App& app, const CommandContext& /*context*/, CommandList& commands) {
  struct Options {
    std::string path;
    std::string format = "text";
    AnalysisOptions analysis;
  };
  auto options = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Tables of a results file: canonical comparison, scale, planning window, rho CDF");
  cmd->add_option("results", options->path, "Results file (HDF5)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--format", options->format, "text (default), csv or markdown")
      ->check(CLI::IsMember({"text", "csv", "markdown"}));
  cmd->add_option("--baseline", options->analysis.fallback_baseline,
                  "Policy to normalise by when shockwave is absent");
  cmd->add_option("--window-param", options->analysis.window_param,
                  "Planning-window parameter <policy>.<option> (default shockwave.future_rounds)");
  cmd->add_option("--window-spread", options->analysis.window_spread,
                  "Option of the window policy pooled into the spread (default k)");
  commands.push_back({cmd, [options] {
                        PrintAnalysis(AnalyseResults(options->path, options->analysis),
                                      options->format, stdout);
                        return 0;
                      }});
}

}  // namespace adaptsim::app
