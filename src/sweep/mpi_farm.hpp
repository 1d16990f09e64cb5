// The task farm on an MPI communicator that already exists, so that one process can run several
// sweeps in a row (`adaptsim reproduce`) under one MPI environment.
#pragma once

#include <boost/mpi/communicator.hpp>

#include "adaptsim/sweep_command.hpp"
#include "signals.hpp"

namespace adaptsim {

/// RunSweepCommand without the MPI environment: call on every rank of `world`, which must be
/// alive for the call. A stop signal recorded in `signals` (before or during the call) stops
/// dispatching exactly as for `adaptsim sweep`. Returns the same exit codes on every rank.
int RunSweepFarm(const SweepCommandOptions& options, const boost::mpi::communicator& world,
                 const StopSignals& signals);

}  // namespace adaptsim
