// `adaptsim generate-trace`: a synthetic Shockwave-style `.trace`
// (include/adaptsim/trace_generator.hpp) with total steps from a throughput catalogue (TOML) or a
// throughputs JSON.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "adaptsim/catalogue_throughput.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/throughput.hpp"
#include "adaptsim/trace_generator.hpp"
#include "adaptsim/workload.hpp"
#include "command.hpp"

namespace adaptsim::app {
namespace {

const char kContext[] = "command line";

struct GenerateTraceOptions {
  TraceGeneratorOptions generator;
  std::string catalog_path;
  std::string throughputs_path;
  std::string duration_mix = "shockwave";
  std::string mode_mix = "0,0.5,0.5";
  std::string scale_factor_mix = "0.6,0.3,0.09,0.01";
  std::string out_path;
  bool force = false;
};

std::array<double, 4> DurationMix(const std::string& text, int num_durations) {
  if (text == "shockwave") return kShockwaveDurationMix;
  if (text == "pollux") return kPolluxDurationMix;
  if (text == "uniform") {  // every grid point equally likely: bucket sizes / n
    std::array<int, 5> b = DurationBucketBounds(num_durations);
    std::array<double, 4> mix{};
    for (int i = 0; i < 4; ++i) mix[i] = static_cast<double>(b[i + 1] - b[i]) / num_durations;
    return mix;
  }
  if (text.find(',') == std::string::npos) {
    throw InputError(
        kContext, 0, "--duration-mix",
        "expected shockwave, pollux, uniform or four probabilities, got '" + text + "'");
  }
  return ParseMix<4>(text, "--duration-mix");
}

void PrintSummary(const Trace& trace, const std::string& out_path) {
  std::map<std::string, int> models, modes, scale_factors;
  for (const JobSpec& job : trace.jobs) {
    ++models[job.model];
    ++modes[std::string(ToString(job.mode))];
    ++scale_factors[std::to_string(job.scale_factor)];
  }
  auto line = [](const char* what, const std::map<std::string, int>& counts) {
    std::string text;
    for (const auto& [key, count] : counts) text += " " + key + ":" + std::to_string(count);
    std::fprintf(stderr, "  %-14s%s\n", what, text.c_str());
  };
  std::fprintf(stderr, "adaptsim: wrote %zu jobs to %s (last arrival %.0f s)\n", trace.jobs.size(),
               out_path.c_str(), trace.jobs.back().arrival_time_s);
  line("models", models);
  line("scale factors", scale_factors);
  line("modes", modes);
}

int RunGenerateTrace(GenerateTraceOptions o) {
  bool catalog = !o.catalog_path.empty(), table = !o.throughputs_path.empty();
  if (catalog == table) {
    throw InputError(kContext, 0, "--catalog",
                     catalog ? "give either --catalog or --throughputs, not both"
                             : "give --catalog (TOML) or --throughputs (JSON) for the total steps");
  }
  if (std::filesystem::exists(o.out_path) && !o.force) {
    throw InputError(o.out_path, 0, "--out", "file exists; pass --force to overwrite");
  }
  o.generator.duration_mix = DurationMix(o.duration_mix, o.generator.num_durations);
  o.generator.mode_mix = ParseMix<3>(o.mode_mix, "--mode-mix");
  o.generator.scale_factor_mix = ParseMix<4>(o.scale_factor_mix, "--scale-factor-mix");
  std::unique_ptr<ThroughputSource> source;
  std::vector<ModelInfo> model_infos = ModelCatalogue();
  if (catalog) {
    auto catalogue = std::make_unique<models::CatalogueThroughput>(
        models::CatalogueThroughput::Read(o.catalog_path));
    model_infos = catalogue->catalogue().WorkloadModels();
    if (model_infos.empty()) {
      throw InputError(o.catalog_path, 0, "models",
                       "no model with a workload block (dataset, batch sizes) to draw from");
    }
    source = std::move(catalogue);
  } else {
    source = std::make_unique<ThroughputTable>(ThroughputTable::ReadJson(o.throughputs_path));
  }
  Trace trace = GenerateTrace(o.generator, model_infos, *source);
  std::ostringstream text;
  WriteTrace(text, trace);
  std::ofstream out(o.out_path, std::ios::binary | std::ios::trunc);
  if (!(out << text.str()) || !out.flush()) {
    throw InputError(o.out_path, 0, "--out", "cannot write the trace");
  }
  PrintSummary(trace, o.out_path);
  return 0;
}

}  // namespace

void AddGenerateTraceCommand(CLI::App& app, const CommandContext& /*context*/,
                             CommandList& commands) {
  auto options = std::make_shared<GenerateTraceOptions>();
  GenerateTraceOptions& o = *options;
  TraceGeneratorOptions& g = o.generator;
  CLI::App* cmd = app.add_subcommand(
      "generate-trace", "Generate a synthetic Shockwave-style .trace (Philox streams, seeded)");
  cmd->add_option("--out", o.out_path, "Trace file to write")->required();
  cmd->add_option("--catalog", o.catalog_path,
                  "Throughput catalogue (TOML), e.g. data/catalog/v100.toml")
      ->check(CLI::ExistingFile);
  cmd->add_option("--throughputs", o.throughputs_path, "Or a Shockwave/Gavel throughputs JSON")
      ->check(CLI::ExistingFile);
  cmd->add_option("--num-jobs", g.num_jobs, "Jobs (default 120)");
  cmd->add_option("--lam", g.lam_s, "Mean inter-arrival time in seconds (default 40)");
  cmd->add_option("--seed", g.seed, "Seed of the Philox streams (default 0)");
  cmd->add_option("--min-duration-h", g.min_duration_h, "Shortest duration, hours (default 0.2)");
  cmd->add_option("--max-duration-h", g.max_duration_h, "Longest duration, hours (default 5)");
  cmd->add_option("--num-durations", g.num_durations, "Points of the duration grid (default 100)");
  cmd->add_option(
      "--duration-mix", o.duration_mix,
      "shockwave (72/20/5/3 %, default), pollux (72/20/6/2 %), uniform, or p1,p2,p3,p4");
  cmd->add_option("--mode-mix", o.mode_mix, "P(static),P(accordion),P(gns) (default 0,0.5,0.5)");
  cmd->add_option("--scale-factor-mix", o.scale_factor_mix,
                  "P(sf=1),P(2),P(4),P(8) (default 0.6,0.3,0.09,0.01)");
  cmd->add_option("--accordion-min-duration-s", g.accordion_min_duration_s,
                  "Accordion jobs shorter than this become static (default 1000)");
  cmd->add_flag("--force", o.force, "Overwrite --out if it exists");
  commands.push_back({cmd, [options] { return RunGenerateTrace(*options); }});
}

}  // namespace adaptsim::app
