#!/bin/sh
# Every policy that runs on a mixed cluster, on one GPU type and on a mixed cluster of the same
# size (docs/performance.md, "Policies on several GPU types"): the paper's 900-job trace (wisr
# throughputs) on 256 V100 (`--gpus 256`) and on 128 V100 + 64 P100 + 64 K80 (`--cluster
# v100=128,p100=64,k80=64`), each run REPEATS times by `adaptsim run` (one thread, so one core)
# under /usr/bin/time -v. Prints per policy the minimum user CPU time of each cluster, the ratio
# mixed / one type (issue target: at most 2), and the mixed run's policy calls, mean JCT and
# makespan. Shockwave runs with the paper's 256-GPU configuration (scale_256gpus.json).
#
# Usage: bench/bench_heterogeneous.sh BUILD_DIR [DATA_DIR] [OUT_DIR]
#   REPEATS (default 3): runs per policy and cluster; POLICIES: space-separated subset.
set -eu
build=$1
data=${2:-${ADAPTSIM_DATA:-$(cd "$(dirname "$0")/../.." && pwd)/shared/data}}
out=${3:-/tmp/adaptsim_bench_heterogeneous}
repeats=${REPEATS:-3}
policies=${POLICIES:-"fifo fifo_perf gandiva_fair allox isolated isolated_plus max_min_fairness
  max_min_fairness_perf finish_time_fairness finish_time_fairness_perf min_total_duration
  min_total_duration_perf max_sum_throughput_perf shockwave"}
. "$(dirname "$0")/timing.sh"
bin=$build/src/app/adaptsim
trace=$data/shockwave/traces/900_0.2_5_1000_5_15_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace
throughputs=$data/shockwave/throughputs/wisr_throughputs.json
mkdir -p "$out"
echo "| policy | one type: user s | mixed: user s | ratio | within 2x | mixed: solves | mixed: mean JCT s | mixed: makespan s |"
echo "|---|---|---|---|---|---|---|---|"
for policy in $policies; do
  options=""
  [ "$policy" = shockwave ] &&
    options="--policy-option config=$data/shockwave/configurations/scale_256gpus.json"
  for cluster in one mixed; do
    if [ $cluster = one ]; then size="--gpus 256"; else size="--cluster v100=128,p100=64,k80=64"; fi
    best=""
    run=1
    while [ $run -le "$repeats" ]; do
      # shellcheck disable=SC2086
      timed_run "${policy}_$cluster" "$out" "$bin" run --trace "$trace" \
        --throughputs "$throughputs" $size --policy "$policy" $options
      best=$(echo "$best $run_user_s" | awk '{m = $1; for (i = 2; i <= NF; ++i) if ($i < m) m = $i;
        print m}')
      run=$((run + 1))
    done
    eval "user_$cluster=\$best"
  done
  jct=$run_jct_s makespan=$run_makespan_s  # the mixed run's
  solves=$(awk '$1 == "allocation_solves" {print $2}' "$out/run_${policy}_mixed.txt")
  solves=${solves:-–}  # Shockwave reports no allocation solves
  ratio=$(awk -v a="$user_mixed" -v b="$user_one" 'BEGIN {printf "%.2f", a / b}')
  within=$(awk -v r="$ratio" 'BEGIN {print (r <= 2.0 ? "yes" : "no")}')
  echo "| $policy | $user_one | $user_mixed | $ratio | $within | $solves | $jct | $makespan |"
done
