// SHA-256 of shard and results-file bytes (FIPS 180-4, computed by OpenSSL's libcrypto): the
// checksum a sweep's manifest records for every shard it writes, and `OUT.sha256` next to every
// results file a command writes, so that a file truncated or altered on disk is found before
// HDF5 reads it (docs/sweeps.md §4.2). The hex digest is the one `sha256sum FILE` prints.
#pragma once

#include <cstddef>
#include <string>

#include "adaptsim/output_paths.hpp"
#include "adaptsim/store.hpp"

namespace adaptsim {

/// SHA-256 of `size` bytes at `data`: 64 lowercase hex digits.
std::string Sha256Hex(const unsigned char* data, std::size_t size);

/// SHA-256 of the whole file at `path` (read in 1 MiB blocks): 64 lowercase hex digits.
/// Throws StoreError naming the path and the system's error text when it cannot be read.
std::string FileSha256Hex(const std::string& path);

/// Writes FileSha256Hex(out.results()) to out.checksum() as `sha256sum` prints it
/// ("<64 hex>  <file name>\n", so `sha256sum -c out.h5.sha256` checks it in the file's folder),
/// crash-safely: a temporary file, fsync'd, renamed. Throws StoreError naming the path and the
/// system's error text (e.g. disk full; no temporary file is left behind).
void WriteChecksumFile(const OutputPaths& out);

/// What `file.checksum()` says about `file.results()`.
struct ChecksumCheck {
  bool recorded = false;  ///< a checksum file exists (a results file without one is unverified)
  bool matches = false;   ///< recorded and equal to the file's SHA-256
  std::string problem;    ///< recorded but not matching: the two digests and the file's size
};
/// Compares `file.results()` with its checksum file. A checksum file that is not "<64 hex> ..."
/// counts as recorded and not matching. Throws StoreError when the results file cannot be read.
ChecksumCheck CheckChecksumFile(const OutputPaths& file);

/// Throws StoreError ("'<OUT>' does not match <OUT>.sha256: <problem>") when `file.results()` has
/// a checksum file that it does not match; a readers' guard, so that a results file altered on
/// disk is refused with its name instead of reaching HDF5, which may crash on corrupted bytes.
void RequireMatchingChecksum(const OutputPaths& file);

/// MergeResults(out, options), then `out.checksum()`: the SHA-256 of the merged file as
/// `sha256sum` prints it. A sweep resuming on `out` compares the file with it before any byte
/// reaches HDF5 and ignores a file that does not match (docs/sweeps.md §4.2). Returns the number
/// of tasks stored. Throws StoreError (e.g. disk full) and InputError as MergeResults does, and
/// StoreError naming a source that has a checksum file it does not match (before any is read).
std::size_t MergeResultsWithChecksum(const OutputPaths& out, const MergeOptions& options);

/// WriteResults(out, record, provenance) — the one-task file of `adaptsim run --out` — then
/// `out.checksum()`, as MergeResultsWithChecksum does for a sweep's file, so that `adaptsim
/// report` and `adaptsim merge` verify it before HDF5 reads it. Throws StoreError.
void WriteResultsWithChecksum(const OutputPaths& out, const TaskRecord& record,
                              const Provenance& provenance);

}  // namespace adaptsim
