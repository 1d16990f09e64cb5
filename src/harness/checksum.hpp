// SHA-256 of shard bytes (FIPS 180-4, computed by OpenSSL's libcrypto): the checksum a sweep's
// manifest records for every shard it writes, so that a shard truncated or altered on disk is
// found on resume (docs/sweeps.md §4.2). The hex digest is the one `sha256sum FILE` prints.
#pragma once

#include <cstddef>
#include <string>

namespace adaptsim {

/// SHA-256 of `size` bytes at `data`: 64 lowercase hex digits.
std::string Sha256Hex(const unsigned char* data, std::size_t size);

/// SHA-256 of the whole file at `path` (read in 1 MiB blocks): 64 lowercase hex digits.
/// Throws StoreError naming the path and the system's error text when it cannot be read.
std::string FileSha256Hex(const std::string& path);

}  // namespace adaptsim
