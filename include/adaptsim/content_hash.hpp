// Content hash of an input folder (the Pollux profile folder `shared/data/pollux/traces`), so a
// task whose `throughputs` is a folder gets a location-independent id like one whose
// `throughputs` is a file (TaskConfig::IdentityJson, include/adaptsim/task.hpp).
#pragma once

#include <string>
#include <string_view>

namespace adaptsim {

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
