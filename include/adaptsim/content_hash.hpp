// Content hashes: name-based (SHA-1, RFC 4122 §4.3) UUIDs of bytes, files and input folders, so
// that a task's id (TaskConfig::Id, include/adaptsim/task.hpp) does not depend on where its
// inputs live, and a sweep's shard is named by its tasks' ids
// (include/adaptsim/shard_directory.hpp). A task whose `throughputs` is a folder (the Pollux
// profile folder `shared/data/pollux/traces`) gets a location-independent id like one whose
// `throughputs` is a file.
#pragma once

#include <string>
#include <string_view>

#include <boost/uuid/uuid.hpp>

namespace adaptsim {

/// The SHA-1 name-based UUID of `name` in the namespace `space` (RFC 4122 §4.3), as 32 lowercase
/// hex digits.
std::string NameBasedUuidHex(const boost::uuids::uuid& space, std::string_view name);

/// Content hash of a file's bytes: a name-based (SHA-1, RFC 4122 §4.3) UUID over the bytes in
/// a fixed adaptsim namespace, 32 lowercase hex digits. A folder hashes the sorted list of
/// (relative path, file hash) of every file below it, independent of where it lives and of
/// directory order. Throws InputError(path) when the file or folder cannot be read.
std::string FileContentHash(const std::string& path);

/// Content hash of a Pollux profile folder: of every regular `*.csv` file in its immediate
/// sub-folders (`<application>/placements.csv`, `scalability.csv`, `validation-<bsz>.csv`: the
/// files PolluxApplication::Load reads; symbolic links to files are followed, sub-folders that are
/// links are skipped, nothing deeper is read). The SHA-1 name-based UUID (same namespace as
/// FileContentHash) of the manifest "<application>/<file>\t<FileContentHash(file)>\n" over those
/// files sorted by relative path, 32 lowercase hex digits. Independent of directory iteration
/// order and of where the folder lives; changes when a profile file's bytes, name or presence
/// change (other files and empty sub-folders do not count). Throws InputError naming the folder
/// when it does not exist, is not a folder, cannot be listed, holds no profile file, or a file
/// cannot be read.
std::string FolderContentHash(const std::string& folder);

/// Content hash of `bytes` (the SHA-1 name-based UUID in FileContentHash's namespace, 32 lowercase
/// hex digits): FileContentHash of a file holding them.
std::string BytesContentHash(std::string_view bytes);

}  // namespace adaptsim
