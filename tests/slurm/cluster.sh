#!/bin/sh
# CTest fixture of the `slurm` tests: the one-node Slurm of scripts/slurm-local.
#   cluster.sh setup SOURCE_DIR MARKER    start it unless it runs already (MARKER: we started it)
#   cluster.sh cleanup SOURCE_DIR MARKER  stop it if setup started it and no job is left queued
# Exits 77 (CTest SKIP_RETURN_CODE) when not root: the Slurm daemons need root.
set -eu
mode=$1 source=$2 marker=$3
if [ "$(id -u)" -ne 0 ]; then
  echo "skipping: the local Slurm (scripts/slurm-local) needs root to start its daemons"
  exit 77
fi
case "$mode" in
  setup)
    rm -f "$marker"
    if "$source/scripts/slurm-local" status; then
      echo "using the local Slurm that is already running"
    else
      "$source/scripts/slurm-local" start
      echo started > "$marker"
    fi
    ;;
  cleanup)
    if [ ! -f "$marker" ]; then
      echo "the local Slurm was running before the tests: left running"
      exit 0
    fi
    rm -f "$marker"
    if [ -n "$(squeue -h 2>/dev/null)" ]; then
      echo "jobs left in the queue (not ours to cancel): the local Slurm is left running"
      squeue
      exit 0
    fi
    "$source/scripts/slurm-local" stop
    ;;
  *) echo "usage: cluster.sh setup|cleanup SOURCE_DIR MARKER" >&2; exit 2 ;;
esac
