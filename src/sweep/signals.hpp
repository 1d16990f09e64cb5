// SIGTERM / SIGUSR1 (Slurm `--signal=B:USR1@120`, scancel, time limit) -> a flag the farm polls
// (docs/sweeps.md §4.3). While a StopSignals object lives, both signals only set the flag;
// the previous handlers come back when it is destroyed.
//
// The flag is the one piece of process-global state in adaptsim: a signal handler can only talk
// to the program through a `volatile std::sig_atomic_t` with static storage (C++ [support.signal]).
#pragma once

#include <csignal>

namespace adaptsim {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The signal number received (SIGTERM or SIGUSR1), 0 when none so far.
  int received() const;

 private:
  struct sigaction old_term_ {};
  struct sigaction old_usr1_ {};
};

}  // namespace adaptsim
