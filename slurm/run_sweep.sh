#!/bin/bash
# Shared body of the sbatch scripts: runs one sweep with srun, forwards Slurm's warning signal
# (--signal=B:USR1@120 reaches only this batch shell) to the ranks, and requeues the job when the
# sweep was interrupted so that the next run resumes (finished tasks are skipped by id).
# Usage (from an sbatch script): slurm/run_sweep.sh SPEC.toml RESULTS.h5 [adaptsim sweep flags]
set -uo pipefail
spec=$1 out=$2
shift 2
cd "${SLURM_SUBMIT_DIR:-.}"
# Some parallel filesystems refuse HDF5's file locks ("unable to lock file, errno = 524").
# Only rank 0 writes (shards, then the merged file), so locking is not needed.
export HDF5_USE_FILE_LOCKING=FALSE
# Slurm >= 22.05: srun no longer inherits --cpus-per-task from sbatch; pass it again.
export SRUN_CPUS_PER_TASK="${SLURM_CPUS_PER_TASK:-1}"
mkdir -p "$(dirname "$out")"
interrupted=0
forward() { interrupted=1; [ -n "${step:-}" ] && kill -USR1 "$step" 2>/dev/null; }
trap forward USR1 TERM
srun --cpus-per-task="${SRUN_CPUS_PER_TASK}" --kill-on-bad-exit=1 \
  "${ADAPTSIM:-build/release/src/app/adaptsim}" sweep "$spec" --out "$out" "$@" &
step=$!
wait "$step"; status=$?
while kill -0 "$step" 2>/dev/null; do wait "$step"; status=$?; done  # wait again after a trap
if [ "$interrupted" = 1 ] && [ -n "${SLURM_JOB_ID:-}" ]; then
  echo "adaptsim: interrupted; requeueing job $SLURM_JOB_ID to resume"
  scontrol requeue "$SLURM_JOB_ID"
fi
exit "$status"
