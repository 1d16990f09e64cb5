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
. "$(dirname "$0")/timing.sh"
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
    timed_run "${jobs}_$(echo "$cluster" | tr '=,' '-_')" "$out" "$bin" run --trace "$trace" \
      --throughputs "$data/shockwave/throughputs/$3_throughputs.json" --cluster "$cluster" \
      --policy shockwave --policy-option "config=$data/shockwave/configurations/$4.json"
    echo "| $jobs | $cluster | $run_wall_s | $run_user_s | $run_rss_mib | $run_jct_s | $run_makespan_s |"
  done
done
