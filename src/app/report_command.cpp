// `adaptsim report RESULTS.h5 [MORE.h5 ...]`: the numbers and labels of every comparison figure,
// as tables (text, markdown, CSV) or as the JSON analysis/figures.py draws (docs/analysis.md).
// Definitions: include/adaptsim/results_analysis.hpp.
#include <memory>

#include "adaptsim/error.hpp"
#include "adaptsim/results_analysis.hpp"
#include "command.hpp"

namespace adaptsim::app {

void AddReportCommand(CLI::App& app, const CommandContext& /*context*/, CommandList& commands) {
  struct Options {
    std::vector<std::string> paths;
    std::string format = "text";
    AnalysisOptions analysis;
  };
  auto options = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "report", "Tables of results files: canonical comparison, scale, planning window, rho CDF");
  cmd->footer(
      "Several files are read together: labels and tables span them all (e.g. canonical.h5 and "
      "pollux_canonical.h5). Names, option labels and metrics: analysis/labels.toml, compiled in. "
      "--format json holds everything the figures draw (analysis/figures.py; docs/analysis.md).");
  cmd->add_option("results", options->paths, "Results files (HDF5)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--format", options->format, "text (default), markdown, csv or json")
      ->check(CLI::IsMember({"text", "csv", "markdown", "json"}));
  cmd->add_option("--baseline", options->analysis.fallback_baseline,
                  "Policy to normalise by when shockwave is absent");
  cmd->add_option("--window-param", options->analysis.window_param,
                  "Planning-window parameter <policy>.<option> (default shockwave.future_rounds)");
  cmd->add_option("--window-spread", options->analysis.window_spread,
                  "Option of the window policy pooled into the spread (default k)");
  cmd->add_option("--golden", options->analysis.reference_dir,
                  "Folder of the Shockwave reference runs (golden/shockwave_tacc32): adds the "
                  "reference table")
      ->check(CLI::ExistingDirectory);
  commands.push_back({cmd, [options] {
                        PrintAnalysis(AnalyseResults(options->paths, options->analysis),
                                      options->format, stdout);
                        return 0;
                      }});
}

}  // namespace adaptsim::app
