// Provenance of the running binary: the source revision it was built from.
#pragma once

namespace adaptsim {

/// The git commit of the source tree at build time (12 hex digits), with "-dirty" appended when
/// tracked files differed from it, or "unknown" when built outside a git checkout. Recomputed at
/// every build (cmake/git_revision.cmake), so a commit without reconfiguring is still recorded.
const char* GitRevision();

}  // namespace adaptsim
