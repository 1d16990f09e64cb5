// Content hash of an input folder (the Pollux profile folder `shared/data/pollux/traces`), so a
// task whose `throughputs` is a folder gets a location-independent id like one whose
// `throughputs` is a file (TaskConfig::IdentityJson, include/adaptsim/task.hpp).
#pragma once

#include <string>
#include <string_view>

namespace adaptsim {

/// Content hash of every regular file below `folder` (recursively; symbolic links to files are
/// followed, links to folders are not): the SHA-1 name-based UUID (same namespace as
/// FileContentHash) of the manifest "<relative path>\t<FileContentHash(file)>\n" over the files
/// sorted by relative path (generic '/' separators), 32 lowercase hex digits. Independent of
/// directory iteration order and of where the folder lives; changes when a file's bytes, name or
/// presence change (empty sub-folders do not count). Throws InputError(folder) when the folder
/// does not exist, is not a folder, holds no regular file, or a file cannot be read.
std::string FolderContentHash(const std::string& folder);

/// Content hash of `bytes` (the SHA-1 name-based UUID in FileContentHash's namespace, 32 lowercase
/// hex digits): FileContentHash of a file holding them.
std::string BytesContentHash(std::string_view bytes);

}  // namespace adaptsim
