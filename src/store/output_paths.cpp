#include "adaptsim/output_paths.hpp"

#include <unistd.h>

#include <filesystem>
#include <utility>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

constexpr char kTemporaryMarker[] = ".tmp.";

/// The folder of `path`, "." when it names none.
std::string FolderOf(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  return folder.empty() ? std::string(".") : folder.string();
}

}  // namespace

std::string TemporaryPath(const std::string& path) {
  return path + kTemporaryMarker + std::to_string(::getpid());
}

bool IsTemporaryName(const std::string& name) {
  return name.find(kTemporaryMarker) != std::string::npos;
}

std::string ShardManifestPath(const std::string& shard_folder) {
  return (std::filesystem::path(shard_folder) / "manifest.jsonl").string();
}

OutputPaths::OutputPaths(std::string results)
    : results_(std::move(results)),
      folder_(FolderOf(results_)),
      checksum_(results_ + ".sha256"),
      lock_(results_ + ".lock"),
      shards_(results_ + ".shards"),
      manifest_(ShardManifestPath(shards_)) {}

void OutputPaths::CheckTarget() const {
  if (!std::filesystem::is_directory(folder_)) {
    throw InputError(results_, 0, "--out",
                     "folder '" + folder_ + "' does not exist or is not a folder");
  }
  if (std::filesystem::is_directory(results_)) {
    throw InputError(results_, 0, "--out", "is a folder; --out names the results file");
  }
}

}  // namespace adaptsim
