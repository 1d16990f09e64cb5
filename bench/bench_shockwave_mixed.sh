#!/bin/sh
# Shockwave on mixed GPUs (docs/performance.md, "Shockwave on mixed GPUs"; docs/shockwave.md): the
# paper's four traces, each with its configuration, on its homogeneous cluster (N V100) and on a
# mixed cluster of the same size, V100 : P100 : K80 = 2 : 1 : 1 (16:8:8 for 32 GPUs up to 128:64:64
# for 256), each run once by `adaptsim run` (one thread, so one core) under /usr/bin/time -v;
# prints wall, user and max RSS with the run's mean JCT and makespan.
#
# Usage: bench/bench_shockwave_mixed.sh BUILD_DIR [DATA_DIR] [OUT_DIR]
set -eu
build=$1
data=${2:-${ADAPTSIM_DATA:-$(cd "$(dirname "$0")/../.." && pwd)/shared/data}}
out=${3:-/tmp/adaptsim_bench_shockwave_mixed}
bin=$build/src/app/adaptsim
mkdir -p "$out"
suffix=0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace
echo "| jobs | cluster | wall s | user s | max RSS MiB | mean JCT s | makespan s |"
echo "|---|---|---|---|---|---|---|"
for run in "120_0.2_5_100_40_25 32 tacc tacc_32gpus" "220_0.2_5_100_25_4 64 wisr scale_64gpus" \
           "460_0.2_5_100_10_1 128 wisr scale_128gpus" "900_0.2_5_1000_5_15 256 wisr scale_256gpus"; do
  set -- $run
  trace=$data/shockwave/traces/$1_$suffix jobs=${1%%_*} gpus=$2
  half=$((gpus / 2)) quarter=$((gpus / 4))
  for cluster in "v100=$gpus" "v100=$half,p100=$quarter,k80=$quarter"; do
    name=${jobs}_$(echo "$cluster" | tr '=,' '-_')
    /usr/bin/time -v -o "$out/time_$name.txt" "$bin" run --trace "$trace" \
      --throughputs "$data/shockwave/throughputs/$3_throughputs.json" --cluster "$cluster" \
      --policy shockwave --policy-option "config=$data/shockwave/configurations/$4.json" \
      > "$out/run_$name.txt"
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0;
      for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s}' "$out/time_$name.txt")
    user=$(awk -F': ' '/User time/ {print $2}' "$out/time_$name.txt")
    rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$out/time_$name.txt")
    jct=$(awk '$1 == "mean_jct_s" {print $2}' "$out/run_$name.txt")
    makespan=$(awk '$1 == "makespan_s" {print $2}' "$out/run_$name.txt")
    echo "| $jobs | $cluster | $wall | $user | $rss | $jct | $makespan |"
  done
done
