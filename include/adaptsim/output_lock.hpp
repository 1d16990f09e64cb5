// One sweep at a time per --out (docs/sweeps.md §4.6): rank 0 holds an flock(2) on `OUT.lock`
// while it plans, runs and merges. The kernel drops the lock when the holder exits in any way
// (kill -9 included), so a killed sweep never leaves it stuck; the file itself only names the
// holder (host, pid, start time, command line) for the refusal message. No MPI here.
#pragma once

#include <string>

#include "adaptsim/output_paths.hpp"

namespace adaptsim {

class OutputLock {
 public:
  /// Takes the lock `out.lock()`. Throws InputError (field --out) when the lock file cannot be
  /// created (the folder is missing, not a folder, read-only or not writable: "cannot write in
  /// folder"), and std::runtime_error naming the holder when another process holds the lock.
  /// On a file system without flock support (ENOLCK, EOPNOTSUPP) it prints a warning and goes on
  /// unlocked.
  explicit OutputLock(const OutputPaths& out);
  /// Deletes the lock file, then releases the lock.
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace adaptsim
