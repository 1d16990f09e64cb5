#!/bin/sh
# Runs one MPI sweep for CTest: run_sweep.sh DEFAULT_DATA_DIR NPROCS OUT MPIEXEC ADAPTSIM SPEC
# Exits 77 (CTest SKIP_RETURN_CODE) when the reference data folder is absent.
set -eu
default_data=$1 nprocs=$2 out=$3 mpiexec=$4 adaptsim=$5 spec=$6
data=${ADAPTSIM_DATA:-$default_data}
if [ ! -d "$data" ]; then
  echo "reference data not found ($data): set ADAPTSIM_DATA; skipping"
  exit 77
fi
export ADAPTSIM_DATA="$data"
rm -rf "$out" "$out.shards"
exec "$mpiexec" --oversubscribe -n "$nprocs" "$adaptsim" sweep "$spec" --out "$out" --quiet
