// `adaptsim fit-throughput`: fits Pollux's throughput model (include/adaptsim/throughput_fit.hpp)
// to a Shockwave/Gavel throughputs JSON or to a Pollux placements.csv (+ scalability.csv) profile
// and writes a catalogue TOML (include/adaptsim/catalogue_file.hpp). docs/throughput-model.md.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "adaptsim/catalogue_file.hpp"
#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/throughput.hpp"
#include "command.hpp"

namespace adaptsim::app {
namespace {

const char kContext[] = "command line";

struct FitThroughputOptions {
  std::string throughputs_path;  ///< Shockwave/Gavel throughputs JSON
  std::string worker_type = "v100";
  std::vector<std::string> models;  ///< with --throughputs: subset of the built-in models
  std::string placements_path;      ///< Pollux placements.csv
  std::string scalability_path;     ///< Pollux scalability.csv (optional)
  std::string model;                ///< with --placements: the model's name
  std::string out_path;
  std::string name = "v100";
  std::string source;
  int gpus_per_node = 4;
  bool force = false;
  bool points = false;  ///< print every point's error
  std::vector<std::string> argv;
};

void CheckConsistent(const FitThroughputOptions& o) {
  bool table = !o.throughputs_path.empty(), pollux = !o.placements_path.empty();
  if (table == pollux) {
    throw InputError(kContext, 0, "--throughputs",
                     table ? "give either --throughputs or --placements, not both"
                           : "give --throughputs (JSON) or --placements (Pollux CSV)");
  }
  if (table && (!o.scalability_path.empty() || !o.model.empty())) {
    throw InputError(kContext, 0, o.model.empty() ? "--scalability" : "--model",
                     "only with --placements (use --models to choose table models)");
  }
  if (pollux && (!o.models.empty() || o.worker_type != "v100")) {
    throw InputError(kContext, 0, o.models.empty() ? "--worker-type" : "--models",
                     "only with --throughputs");
  }
  if (pollux && o.model.empty())
    throw InputError(kContext, 0, "--model", "required with --placements");
  if (std::filesystem::exists(o.out_path) && !o.force) {
    throw InputError(o.out_path, 0, "--out", "file exists; pass --force to overwrite");
  }
}

void PrintSummary(const Catalogue& catalogue, bool points) {
  std::printf("%-16s %6s %10s %10s %12s  %-34s %s\n", "model", "points", "objective", "rmsle",
              "worst_error", "worst_point", "frozen");
  for (const CatalogueModel& m : catalogue.models) {
    const CatalogueFitQuality& q = *m.fit;
    std::string frozen;
    for (const std::string& f : q.frozen) frozen += (frozen.empty() ? "" : ",") + f;
    std::printf("%-16s %6d %10.5f %10.5f %11.2f%%  %-34s %s\n", m.info.name.c_str(), q.num_points,
                q.objective, q.rmsle, 100 * q.worst_relative_error, q.worst_point.c_str(),
                frozen.empty() ? "-" : frozen.c_str());
    if (!points) continue;
    for (const CatalogueFitPoint& p : q.points) {
      std::printf("    %-34s measured %10.6f s  predicted %10.6f s  error %6.2f%%\n",
                  p.label.c_str(), p.measured_step_time_s, p.predicted_step_time_s,
                  100 * p.relative_error);
    }
  }
}

std::vector<std::string> Header(const FitThroughputOptions& o, const Catalogue& catalogue) {
  std::string command = "adaptsim fit-throughput";
  for (std::size_t i = 2; i < o.argv.size(); ++i) {
    bool quote = o.argv[i].find_first_of(" \t'\"") != std::string::npos;
    command += quote ? " '" + o.argv[i] + "'" : " " + o.argv[i];
  }
  std::vector<std::string> header = {
      "adaptsim throughput catalogue '" + catalogue.name + "': fitted parameters of Pollux's",
      "throughput model (Qiao et al., OSDI'21; include/adaptsim/pollux_throughput.hpp), one per "
      "model.",
      "It holds fitted parameters and fit quality only, not the measurements they came from.",
      "Format and the table-entry mapping (K = sf, m = B/sf, N = ceil(K/gpus_per_node)):",
      "docs/throughput-model.md.",
      "",
      "Written by: " + command};
  return header;
}

int RunFitThroughput(const FitThroughputOptions& o) {
  CheckConsistent(o);
  models::CatalogueFitOptions fit;
  fit.gpus_per_node = o.gpus_per_node;
  fit.models = o.models;
  fit.name = o.name;
  fit.source = o.source;
  Catalogue catalogue =
      o.throughputs_path.empty()
          ? models::FitCatalogueFromPolluxTraces(o.placements_path, o.scalability_path, o.model,
                                                 fit)
          : models::FitCatalogueFromTable(
                ThroughputTable::ReadJson(o.throughputs_path, o.worker_type), fit);
  std::ostringstream text;
  WriteCatalogue(text, catalogue, Header(o, catalogue));
  std::ofstream out(o.out_path, std::ios::binary | std::ios::trunc);
  if (!(out << text.str()) || !out.flush()) {
    throw InputError(o.out_path, 0, "--out", "cannot write the catalogue");
  }
  PrintSummary(catalogue, o.points);
  std::fprintf(stderr, "adaptsim: wrote %zu model(s) to %s\n", catalogue.models.size(),
               o.out_path.c_str());
  return 0;
}

}  // namespace

void AddFitThroughputCommand(CLI::App& app, const CommandContext& context, CommandList& commands) {
  auto options = std::make_shared<FitThroughputOptions>();
  options->argv = context.argv;
  FitThroughputOptions& o = *options;
  CLI::App* cmd = app.add_subcommand(
      "fit-throughput", "Fit Pollux's throughput model (Ceres) and write a catalogue (TOML)");
  cmd->add_option("--throughputs", o.throughputs_path, "Shockwave/Gavel throughputs JSON")
      ->check(CLI::ExistingFile);
  cmd->add_option("--worker-type", o.worker_type, "Worker type of the JSON (default v100)");
  cmd->add_option("--models", o.models, "Models to fit (default: every built-in model present)")
      ->delimiter(',');
  cmd->add_option("--placements", o.placements_path, "Pollux placements.csv")
      ->check(CLI::ExistingFile);
  cmd->add_option("--scalability", o.scalability_path, "Pollux scalability.csv (optional)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--model", o.model, "Name of the model fitted from --placements");
  cmd->add_option("--out", o.out_path, "Catalogue file to write (TOML)")->required();
  cmd->add_option("--name", o.name, "Catalogue name (default v100)");
  cmd->add_option("--source", o.source, "Provenance of the measurements (written to the file)");
  cmd->add_option("--gpus-per-node", o.gpus_per_node,
                  "GPUs per node: a table entry on sf GPUs spans ceil(sf/this) nodes (default 4)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--points", o.points, "Print the error of every measured point");
  cmd->add_flag("--force", o.force, "Overwrite --out if it exists");
  commands.push_back({cmd, [options] { return RunFitThroughput(*options); }});
}

}  // namespace adaptsim::app
