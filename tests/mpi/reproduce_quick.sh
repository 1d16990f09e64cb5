#!/bin/sh
# reproduce_quick.sh DEFAULT_DATA_DIR MPIEXEC ADAPTSIM PAPER OUT SOURCE_DIR: runs
# `adaptsim reproduce PAPER` on the reduced specs of tests/reproduce twice (the second run must
# resume: no task runs) and checks the output with tests/mpi/reproduce_check.py.
# Exits 77 (CTest SKIP_RETURN_CODE) when the reference data folder is absent.
set -eu
default_data=$1 mpiexec=$2 adaptsim=$3 paper=$4 out=$5 src=$6
data=${ADAPTSIM_DATA:-$default_data}
if [ ! -d "$data" ]; then
  echo "reference data not found ($data): set ADAPTSIM_DATA; skipping"
  exit 77
fi
export ADAPTSIM_DATA="$data"
rm -rf "$out" "$out.bad.txt"
mkdir -p "$(dirname "$out")"
run() {
  "$mpiexec" --oversubscribe -n 2 "$adaptsim" reproduce "$paper" --out "$out" \
    --experiments "$src/tests/reproduce" --paper-numbers "$src/experiments/paper_numbers.toml"
}
# Bad input: an unknown sweep name is an error naming the option, exit code 2, nothing run.
code=0
"$adaptsim" reproduce "$paper" --only no_such_sweep --out "$out" > "$out.bad.txt" 2>&1 || code=$?
[ "$code" -eq 2 ] && grep -q "field '--only': no sweep 'no_such_sweep'" "$out.bad.txt" || {
  cat "$out.bad.txt"; echo "FAIL: --only no_such_sweep: exit code $code"; exit 1; }
run
run > "$out/second_run.txt" 2> "$out/second_run.err"
# The check draws the figures again: with this binary's `adaptsim report` (docs/analysis.md).
ADAPTSIM_BINARY="$adaptsim" /usr/bin/python3 "$src/tests/mpi/reproduce_check.py" "$paper" "$out" "$src" "$data"
