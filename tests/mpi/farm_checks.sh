#!/bin/sh
# MPI farm checks for CTest (3 ranks: rank 0 + 2 workers, each with a queued task):
#   farm_checks.sh failure DEFAULT_DATA_DIR MPIEXEC ADAPTSIM WORKDIR
#     half of the tasks throw: they are recorded as failed and the sweep completes (exit 0);
#   farm_checks.sh signal DEFAULT_DATA_DIR MPIEXEC ADAPTSIM WORKDIR
#     SIGUSR1 to mpirun mid-sweep: exit 0 with part of the tasks stored, queued tasks not
#     started; rerunning the command stores every task exactly once (--keep-shards keeps the
#     manifest that shows it).
# Exits 77 (CTest SKIP_RETURN_CODE) when the reference data folder is absent.
set -eu
mode=$1 default_data=$2 mpiexec=$3 adaptsim=$4 dir=$5
data=${ADAPTSIM_DATA:-$default_data}
if [ ! -d "$data" ]; then
  echo "reference data not found ($data): set ADAPTSIM_DATA; skipping"
  exit 77
fi
fail() { echo "FAIL: $*"; cat "$dir/log.txt" 2>/dev/null; exit 1; }
rm -rf "$dir" && mkdir -p "$dir"
spec=$dir/spec.toml out=$dir/out.h5
cat > "$spec" <<SPEC
name = "farm_$mode"
traces = "$data/shockwave/traces/120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace"
throughputs = "$data/shockwave/throughputs/tacc_throughputs.json"
num_gpus = 32
policies = "fail_after"
SPEC
run() {
  "$mpiexec" --oversubscribe -n 3 "$adaptsim" sweep "$spec" --out "$out" --keep-shards \
    >> "$dir/log.txt" 2>&1
}
if [ "$mode" = failure ]; then
  printf 'seeds = [0, 1, 2, 3]\nfail_after.after = [5, -1]\n' >> "$spec"
  run || fail "sweep exited $?"
  grep -q "^8 tasks, 4 failed or timed out" "$dir/log.txt" || fail "expected 4 of 8 failed"
  grep -q "holds 8 of 8 tasks" "$dir/log.txt" || fail "results file incomplete"
  exit 0
fi
# signal: 10 tasks of ~1 s (25 ms per allocation), 2 workers
printf 'seeds = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\nfail_after.after = -1\nfail_after.sleep_ms = 25\n' \
  >> "$spec"
manifest=$out.shards/manifest.jsonl
lines() { if [ -f "$manifest" ]; then wc -l < "$manifest"; else echo 0; fi; }
"$mpiexec" --oversubscribe -n 3 "$adaptsim" sweep "$spec" --out "$out" --keep-shards \
  >> "$dir/log.txt" 2>&1 &
pid=$!
i=0
while [ "$(lines)" -lt 1 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(lines)" -ge 1 ] || fail "no task finished within 60 s"
kill -USR1 $pid
wait $pid || fail "signalled sweep exited $?"
grep -q "rerun the same command to resume" "$dir/log.txt" || fail "no resume note after the signal"
stored=$(lines)
[ "$stored" -lt 10 ] || fail "all 10 tasks ran after the signal ($stored)"
run || fail "resumed sweep exited $?"
grep -q "holds 10 of 10 tasks" "$dir/log.txt" || fail "resumed results file incomplete"
[ "$(lines)" -eq 10 ] || fail "manifest has $(lines) lines: a task ran twice or never"
[ "$(grep -o '"id":"[0-9a-f]*"' "$manifest" | sort -u | wc -l)" -eq 10 ] || fail "duplicate task ids in the manifest"
