#!/bin/bash
# Shared body of the sbatch scripts: runs one adaptsim command on every task of the allocation as
# one MPI job, forwards Slurm's warning signal to the ranks and requeues the job when the run
# stopped with work left, so that the next run resumes (finished tasks are skipped by id).
#
# Usage (from an sbatch script; the working directory, i.e. the submit directory or sbatch --chdir,
# is the checkout):
#   slurm/run_adaptsim.sh sweep SPEC.toml --out RESULTS.h5 [more `adaptsim sweep` flags]
#   slurm/run_adaptsim.sh reproduce shockwave --out DIR [more `adaptsim reproduce` flags]
#
# Environment:
#   ADAPTSIM           the adaptsim binary (default build/release/src/app/adaptsim)
#   ADAPTSIM_LAUNCHER  how the ranks are started (default `srun --mpi=pmix`). The ranks must form
#                      one MPI communicator: Debian 12's Open MPI 4.1 with Slurm 22.05 works with
#                      `srun --mpi=pmix` and with `mpirun` (it reads the allocation from the
#                      SLURM_* variables), not with plain srun (MpiDefault=none) or --mpi=pmi2.
#
# Signals: `#SBATCH --signal=B:USR1@SECONDS` sends USR1 to this batch shell only. It is forwarded
# to the launcher (srun and mpirun pass USR1 on to every rank): rank 0 stops dispatching, lets the
# running tasks finish within --grace seconds, writes the results and exits 0. When adaptsim then
# says that work is left ("rerun the same command to resume"; also after `scancel --signal=USR1`
# to the ranks alone), the job requeues itself with `scontrol requeue` (needs `#SBATCH
# --requeue`): it becomes PENDING and later runs this script again, which skips every finished
# task. So does a forwarded signal that kills the ranks (it came while they were starting or
# exiting, outside their handler). SIGTERM (scancel, time limit reached) is forwarded as USR1 too,
# so that running tasks can finish, but does not requeue; nor does a failed run, or a signal that
# comes as the run ends with nothing left.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: slurm/run_adaptsim.sh SUBCOMMAND [ARGS...]" >&2; exit 2; }
adaptsim=${ADAPTSIM:-build/release/src/app/adaptsim}
if [ ! -x "$adaptsim" ]; then
  echo "adaptsim: $adaptsim not found in $(pwd): build it (cmake --preset release &&" \
    "cmake --build --preset release), submit from the checkout, or set ADAPTSIM" >&2
  exit 2
fi
# `adaptsim sweep` wants the folder of its --out file to exist (results/ in a fresh checkout).
previous=
for arg in "$@"; do
  case "$previous,$arg" in
    --out,*) mkdir -p "$(dirname "$arg")" ;;
    *,--out=*) mkdir -p "$(dirname "${arg#--out=}")" ;;
  esac
  previous=$arg
done
# Some parallel filesystems refuse HDF5's file locks ("unable to lock file, errno = 524").
# Only rank 0 writes (shards, then the merged file), so locking is not needed.
export HDF5_USE_FILE_LOCKING=FALSE
# Slurm >= 22.05: srun no longer inherits --cpus-per-task from sbatch; pass it again.
export SRUN_CPUS_PER_TASK="${SLURM_CPUS_PER_TASK:-1}"
read -r -a launcher <<< "${ADAPTSIM_LAUNCHER:-srun --mpi=pmix}"
if [ "${launcher[0]}" = srun ]; then
  launcher+=(--cpus-per-task="$SRUN_CPUS_PER_TASK" --kill-on-bad-exit=1)
fi
echo "adaptsim: job ${SLURM_JOB_ID:-none} run $((${SLURM_RESTART_COUNT:-0} + 1))," \
  "${SLURM_NTASKS:-?} tasks: ${launcher[*]} $adaptsim $*"

# A copy of the ranks' stderr tells whether the run stopped with work left.
stderr_copy=$(mktemp "${TMPDIR:-/tmp}/adaptsim-stderr.XXXXXX")
interrupted=0 terminated=0 trapped=0 step=
# shellcheck disable=SC2317  # called by the traps below
forward() { # $1: the signal received; the ranks get USR1 either way
  interrupted=1 trapped=1
  if [ "$1" = TERM ]; then terminated=1; fi
  if [ -n "$step" ]; then kill -USR1 "$step" 2>/dev/null; fi
}
trap 'forward USR1' USR1
trap 'forward TERM' TERM
# tee ignores SIGTERM (scancel signals every process of the job) so that no line is lost.
"${launcher[@]}" "$adaptsim" "$@" 2> >(trap '' TERM; exec tee -a "$stderr_copy" >&2) &
step=$!
# A signal that came before $step was set:
if [ "$interrupted" = 1 ]; then kill -USR1 "$step" 2>/dev/null; fi
while true; do
  trapped=0
  wait "$step"
  status=$?
  # A trapped signal ends `wait` early (status > 128): wait again for the step's own status.
  [ "$trapped" = 1 ] || break
done
wait # for tee to copy the last lines
# Work is left when adaptsim said "rerun the same command to resume": `sweep` ("stopped by signal
# N; K task(s) not run", unless K = 0) and `reproduce` ("reproduce P stopped by signal N after
# sweep S": later sweeps, figures and report are still to do).
stopped=0
if grep "rerun the same command to resume" "$stderr_copy" | grep -qv "; 0 task(s) not run"; then
  stopped=1
fi
rm -f "$stderr_copy"
requeue() {
  echo "adaptsim: $1; requeueing job $SLURM_JOB_ID to resume"
  # Ends this run at once; the job becomes PENDING and starts again after Slurm's requeue delay.
  if ! scontrol requeue "$SLURM_JOB_ID"; then
    echo "adaptsim: requeue refused (submitted with --no-requeue?): resubmit the job to resume" >&2
  fi
}
if [ -z "${SLURM_JOB_ID:-}" ]; then
  : # not a Slurm job: nothing to requeue
elif [ "$terminated" = 1 ]; then
  echo "adaptsim: SIGTERM (scancel, or the time limit reached): not requeueing; resubmit to resume"
elif [ "$status" -eq 0 ] && [ "$stopped" = 1 ]; then
  requeue "stopped with work left"
elif [ "$interrupted" = 1 ] && [ "$status" -gt 128 ]; then
  # The forwarded signal killed ranks that had not installed their handler yet (still starting)
  # or no longer had it (exiting). Every finished task is stored: requeue to run the rest.
  requeue "the signal ended the ranks (exit status $status)"
elif [ "$status" -ne 0 ] && [ "$stopped" = 1 ]; then
  echo "adaptsim: stopped and failed (exit status $status): not requeueing" >&2
elif [ "$interrupted" = 1 ]; then
  echo "adaptsim: signal received, no work left (exit status $status): not requeueing"
fi
exit "$status"
