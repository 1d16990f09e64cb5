// Shared pieces of the libFuzzer targets in fuzz/targets/ (docs/reliability.md, "Fuzzing").
//
// Each target feeds the fuzzer's bytes to one reader of outside data. The reader may accept the
// input or reject it with the project's error for bad input (InputError; StoreError for results
// files); anything else — a crash, another exception, a sanitizer report, a hang, a leak — is a
// finding. Readers that take a path get the bytes through a scratch file that each process
// reuses.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace adaptsim::fuzz {

/// The process's scratch folder, /tmp/adaptsim-fuzz-<pid> (or $TMPDIR), created on first use
/// and removed when the process exits normally.
inline const std::filesystem::path& ScratchDir() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("adaptsim-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(ScratchDir(), ignored);
    });
    return path;
  }();
  return dir;
}

/// Writes `bytes` to `path` (truncating it) and returns the path as a string.
inline std::string WriteFile(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

/// Writes the fuzzer's input to ScratchDir()/`name` and returns its path.
inline std::string WriteScratchFile(const std::string& name, const std::uint8_t* data,
                                    std::size_t size) {
  return WriteFile(ScratchDir() / name,
                   std::string_view(reinterpret_cast<const char*>(data), size));
}

/// The input as text.
inline std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace adaptsim::fuzz
