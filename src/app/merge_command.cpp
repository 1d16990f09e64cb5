// `adaptsim merge`: (re)builds one results file from shards and/or other results files, e.g.
// after a sweep was killed (`adaptsim merge --out OUT.h5` reads OUT.h5.shards/) or to combine
// the results of several sweeps.
#include <filesystem>
#include <memory>

#include "adaptsim/checksum.hpp"
#include "adaptsim/error.hpp"
#include "adaptsim/output_paths.hpp"
#include "adaptsim/shard_directory.hpp"
#include "adaptsim/store.hpp"
#include "command.hpp"

namespace adaptsim::app {
namespace {

namespace fs = std::filesystem;

struct MergeCommandOptions {
  std::string out_path;
  std::vector<std::string> inputs;
  std::vector<std::string> argv;
};

/// Inputs: results files and shard folders (their shards in write order, corrupt ones left out
/// and described in `skipped`); default OUT.shards.
std::vector<std::string> Sources(const MergeCommandOptions& options, const OutputPaths& out,
                                 std::vector<std::string>& skipped) {
  std::vector<std::string> inputs = options.inputs;
  if (inputs.empty()) inputs.push_back(out.shards());
  std::vector<std::string> sources;
  for (const std::string& input : inputs) {
    if (fs::is_directory(input)) {
      std::vector<std::string> shards = ShardFiles(input, &skipped);
      sources.insert(sources.end(), shards.begin(), shards.end());
    } else if (fs::is_regular_file(input)) {
      sources.push_back(input);
    } else {
      throw InputError(input, 0, "input", "no such results file or shard folder");
    }
  }
  return sources;
}

int RunMerge(const MergeCommandOptions& options) {
  const OutputPaths out(options.out_path);
  MergeOptions merge;
  std::vector<std::string> skipped;
  merge.sources = Sources(options, out, skipped);
  for (const std::string& shard : skipped) {
    std::fprintf(stderr, "adaptsim: warning: corrupt shard skipped: %s\n",
                 PrintableText(shard).c_str());
  }
  merge.provenance.argv = options.argv;
  std::size_t count = MergeResultsWithChecksum(out, merge);
  std::printf("%s: %zu tasks from %zu source file(s)", options.out_path.c_str(), count,
              merge.sources.size());
  if (!skipped.empty()) {
    std::printf(
        "; %zu corrupt shard(s) skipped, their tasks are not in it (`adaptsim sweep` "
        "with the same --out runs them again)",
        skipped.size());
  }
  std::printf("\n");
  return 0;
}

}  // namespace

void AddMergeCommand(CLI::App& app, const CommandContext& context, CommandList& commands) {
  auto options = std::make_shared<MergeCommandOptions>();
  options->argv = context.argv;
  CLI::App* cmd = app.add_subcommand(
      "merge", "Build one results file from shards and results files (later inputs win)");
  cmd->add_option("--out", options->out_path,
                  "Results file to write (replaced atomically; its SHA-256 in OUT.sha256)")
      ->required();
  cmd->add_option("inputs", options->inputs,
                  "Results files and shard folders (default: OUT.shards)");
  commands.push_back({cmd, [options] { return RunMerge(*options); }});
}

}  // namespace adaptsim::app
