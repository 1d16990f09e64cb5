#include "adaptsim/checksum.hpp"

#include <openssl/evp.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "adaptsim/store.hpp"

namespace adaptsim {
namespace {

/// An EVP digest context running SHA-256.
class Sha256 {
 public:
  Sha256() : context_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1) {
      throw StoreError("cannot start a SHA-256 digest (OpenSSL)");
    }
  }
  void Update(const void* data, std::size_t size) {
    if (EVP_DigestUpdate(context_.get(), data, size) != 1) {
      throw StoreError("SHA-256 digest failed (OpenSSL)");
    }
  }
  std::string HexDigest() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context_.get(), digest, &length) != 1) {
      throw StoreError("SHA-256 digest failed (OpenSSL)");
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * length);
    for (unsigned int i = 0; i < length; ++i) {
      hex.push_back(kHex[digest[i] >> 4]);
      hex.push_back(kHex[digest[i] & 0xf]);
    }
    return hex;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context_;
};

}  // namespace

std::string Sha256Hex(const unsigned char* data, std::size_t size) {
  Sha256 sha;
  sha.Update(data, size);
  return sha.HexDigest();
}

std::string FileSha256Hex(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw StoreError("cannot open '" + path + "': " + std::strerror(errno));
  Sha256 sha;
  std::vector<char> block(1 << 20);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    if (in.gcount() > 0) sha.Update(block.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw StoreError("cannot read '" + path + "': " + std::strerror(errno));
  return sha.HexDigest();
}

std::size_t MergeResultsWithChecksum(const OutputPaths& out, const MergeOptions& options) {
  for (const std::string& source : options.sources) RequireMatchingChecksum(OutputPaths(source));
  const std::size_t count = MergeResults(out, options);
  WriteChecksumFile(out);
  return count;
}

void WriteResultsWithChecksum(const OutputPaths& out, const TaskRecord& record,
                              const Provenance& provenance) {
  WriteResults(out, record, provenance);
  WriteChecksumFile(out);
}

void WriteChecksumFile(const OutputPaths& out) {
  const std::string line = FileSha256Hex(out.results()) + "  " +
                           std::filesystem::path(out.results()).filename().string() + "\n";
  WriteShardImage(out.checksum(), std::vector<unsigned char>(line.begin(), line.end()));
}

ChecksumCheck CheckChecksumFile(const OutputPaths& file) {
  ChecksumCheck check;
  std::ifstream in(file.checksum());
  if (!in) return check;
  check.recorded = true;
  std::string recorded;
  in >> recorded;
  const std::string actual = FileSha256Hex(file.results());
  check.matches = recorded == actual;
  if (!check.matches) {
    std::error_code error;
    check.problem = "its SHA-256 is " + actual + ", " + file.checksum() + " recorded " +
                    (recorded.size() == 64 ? recorded : "no digest") + " (" +
                    std::to_string(std::filesystem::file_size(file.results(), error)) +
                    " bytes on disk: truncated or altered)";
  }
  return check;
}

void RequireMatchingChecksum(const OutputPaths& file) {
  const ChecksumCheck check = CheckChecksumFile(file);
  if (check.recorded && !check.matches) {
    throw StoreError("'" + file.results() + "' does not match " + file.checksum() + ": " +
                     check.problem);
  }
}

}  // namespace adaptsim
