#!/usr/bin/env bash
# The long fuzzing run (docs/reliability.md, "Fuzzing"): every target (or the ones named) for
# RUNS executions from the committed seeds, the kept regression inputs and the seeds drawn from
# the reference data, JOBS targets at a time at low priority. Prints one table row per target:
# seed inputs, executions, executions/s, coverage (libFuzzer's cov: edges, ft: features) and
# whether it ended without a finding.
#
# Usage: fuzz/run_long.sh [--runs N] [--seconds S] [--jobs J] [--out DIR] [--report] [TARGET...]
#   defaults: --runs 1000000 --seconds 0 (no time limit) --jobs 2 --out build/fuzz/long;
#   a target stops at N executions or after S seconds. Needs `cmake --build --preset fuzz`
#   (and the seeds: `ctest --preset fuzz -R fuzz_seeds`). Findings land in DIR/artifacts/TARGET/.
#   --report prints the table of the logs in DIR without fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=1000000
seconds=0
jobs=2
out=build/fuzz/long
report_only=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --report) report_only=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
bin=build/fuzz/fuzz
if [ ${#targets[@]} -eq 0 ]; then
  targets=(trace throughputs_json shockwave_config catalogue sweep_spec pollux_workload
           pollux_application philly_log itp_log results_hdf5 results_fields shard_manifest)
fi
declare -A dict=([trace]=trace [throughputs_json]=json [shockwave_config]=json [catalogue]=toml
                 [sweep_spec]=toml [pollux_workload]=csv [pollux_application]=csv
                 [philly_log]=csv [itp_log]=csv [results_hdf5]=hdf5 [results_fields]= [shard_manifest]=json)
for t in "${targets[@]}"; do
  [ -x "$bin/fuzz_$t" ] || { echo "missing $bin/fuzz_$t (cmake --build --preset fuzz)" >&2; exit 2; }
done
mkdir -p "$out"

run_one() {
  local t=$1
  mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
  local inputs=()
  for dir in "fuzz/corpus/$t" "fuzz/regressions/$t" "$bin/seeds/$t"; do
    [ -d "$dir" ] && inputs+=("$dir")
  done
  local options=()
  [ -n "${dict[$t]}" ] && options+=(-dict="fuzz/dict/${dict[$t]}.dict")
  # Raw bytes reach libhdf5, which crashes on some corrupted files (docs/reliability.md): fork
  # mode counts those crashes and goes on instead of stopping at the first.
  [ "$t" = results_hdf5 ] && options+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  if nice -n 10 "$bin/fuzz_$t" -runs="$runs" -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -print_final_stats=1 \
       "${options[@]}" -artifact_prefix="$out/artifacts/$t/" \
       "$out/corpus/$t" "${inputs[@]}" >"$out/$t.log" 2>&1; then
    echo ok >"$out/$t.result"
  else
    echo "finding (exit $?)" >"$out/$t.result"
  fi
}
export -f run_one
export out bin runs seconds
export dict_list="$(declare -p dict)"
if [ "$report_only" = 0 ]; then
  printf '%s\n' "${targets[@]}" |
    xargs -P "$jobs" -I{} bash -c 'eval "$dict_list"; run_one {}'
fi

echo "| target | seed inputs | executions | exec/s | cov | ft | result |"
echo "|---|---:|---:|---:|---:|---:|---|"
for t in "${targets[@]}"; do
  log="$out/$t.log"
  [ -f "$log" ] || continue
  seeds=$(grep -o 'seed corpus: files: [0-9]*' "$log" | head -1 | grep -o '[0-9]*$' || echo "?")
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  if [ "$execs" = "?" ]; then execs=$(grep -oE '^#[0-9]+' <<<"$last" | tr -d '#' || echo "?"); fi
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*$' || echo "?")
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*$' || echo "?")
  crashes=$(grep -o 'oom/timeout/crash: [0-9/]*' "$log" | tail -1 || true)
  echo "| $t | $seeds | $execs | $speed | $cov | $ft | $(cat "$out/$t.result") ${crashes} |"
done
