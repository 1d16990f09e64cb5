// Content hashes of bytes, files and input folders (include/adaptsim/content_hash.hpp).
#include "adaptsim/content_hash.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include <boost/uuid/name_generator_sha1.hpp>

#include "adaptsim/error.hpp"

namespace adaptsim {
namespace {

/// Fixed namespace of file content hashes (likewise never to be changed).
constexpr boost::uuids::uuid kFileNamespace = {{0x2c, 0x94, 0x61, 0x0e, 0x5b, 0xd7, 0x4a, 0x13,
                                                0x8f, 0x36, 0xc1, 0x72, 0x09, 0xae, 0x54, 0xd8}};

std::string HexOf(const boost::uuids::uuid& id) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  text.reserve(32);
  for (std::uint8_t byte : id) {
    text.push_back(kHex[byte >> 4]);
    text.push_back(kHex[byte & 0x0f]);
  }
  return text;
}

}  // namespace

std::string NameBasedUuidHex(const boost::uuids::uuid& space, std::string_view name) {
  boost::uuids::name_generator_sha1 generate(space);
  return HexOf(generate(name.data(), name.size()));
}

std::string FileContentHash(const std::string& path) {
  // A folder (the Pollux profile folder) hashes its files' hashes (content_hash.hpp).
  if (std::filesystem::is_directory(path)) return FolderContentHash(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", "cannot read file");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path, 0, "", "cannot read file");
  return BytesContentHash(bytes);
}

std::string BytesContentHash(std::string_view bytes) {
  return NameBasedUuidHex(kFileNamespace, bytes);
}

std::string FolderContentHash(const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_directory(folder, error)) throw InputError(folder, 0, "", "folder not found");
  // Only <application>/*.csv, two levels down: the files PolluxApplication::Load reads. The walk
  // never descends further, so a path such as "/" is refused quickly instead of reading the whole
  // file system (and blocking on a pseudo-file; docs/reliability.md, "Findings fixed").
  std::vector<std::string> files;  // relative paths, '/'-separated
  fs::directory_iterator apps(folder, error), end;
  if (error) throw InputError(folder, 0, "", "cannot list folder: " + error.message());
  for (; apps != end; apps.increment(error)) {
    if (error) throw InputError(folder, 0, "", "cannot list folder: " + error.message());
    std::error_code type_error;  // a dangling link is no application folder, not an error
    if (apps->is_symlink(type_error) || !apps->is_directory(type_error)) continue;
    fs::directory_iterator it(apps->path(), error);
    for (; !error && it != end; it.increment(error)) {
      if (it->path().extension() != ".csv" || !it->is_regular_file(type_error)) continue;
      files.push_back(it->path().lexically_relative(folder).generic_string());
    }
    if (error) {
      throw InputError(apps->path().string(), 0, "", "cannot list folder: " + error.message());
    }
  }
  if (files.empty()) {
    throw InputError(folder, 0, "", "folder holds no profile file (<application>/*.csv)");
  }
  std::sort(files.begin(), files.end());
  std::string manifest;
  for (const std::string& file : files) {
    manifest += file + "\t" + FileContentHash((fs::path(folder) / file).string()) + "\n";
  }
  return BytesContentHash(manifest);
}

}  // namespace adaptsim
