#!/bin/sh
# Shockwave at scale (docs/performance.md, "Shockwave at scale"): generated traces of 900, 2,000,
# 4,000 and 9,000 jobs on 256, 512, 1,024 and 2,048 GPUs, each run once by `adaptsim run` (one
# thread, so one core) under /usr/bin/time -v; prints wall, user and max RSS.
#
# The traces follow the paper's 900-job / 256-GPU trace (900_0.2_5_1000_5_15_...: durations
# 0.2-5 h on a 1000-point grid, mean inter-arrival lam = 5 s, seed 15, wisr throughputs): the
# arrival rate grows with the cluster (lam = 5 s x 256 / GPUs), so arrivals per GPU per second
# and, with the same job mix, the offered load per GPU stay those of the 900/256 trace; the
# number of jobs grows with the cluster too, so the arrival period stays 4,500-5,600 s. Shockwave
# runs with scale_256gpus.json (k = 1e5, lambda = 5, T = 20 rounds).
#
# Usage: bench/bench_shockwave_scale.sh BUILD_DIR [DATA_DIR] [OUT_DIR] [SIZES]
#   SIZES: space-separated jobs:gpus pairs (default "900:256 2000:512 4000:1024 9000:2048");
#   extra `adaptsim run` options in $ADAPTSIM_RUN_OPTIONS (e.g. --policy-option
#   solver=structured_reference for the reference local search).
set -eu
build=$1
data=${2:-${ADAPTSIM_DATA:-$(cd "$(dirname "$0")/../.." && pwd)/shared/data}}
out=${3:-/tmp/adaptsim_bench_shockwave_scale}
sizes=${4:-"900:256 2000:512 4000:1024 9000:2048"}
. "$(dirname "$0")/timing.sh"
bin=$build/src/app/adaptsim
throughputs=$data/shockwave/throughputs/wisr_throughputs.json
config=$data/shockwave/configurations/scale_256gpus.json
mkdir -p "$out"
echo "| jobs | GPUs | lam s | wall s | user s | max RSS MiB | mean JCT s | makespan s |"
echo "|---|---|---|---|---|---|---|---|"
for size in $sizes; do
  jobs=${size%:*} gpus=${size#*:}
  lam=$(/usr/bin/python3 -c "print(5.0 * 256 / $gpus)")
  trace=$out/generated_${jobs}.trace
  "$bin" generate-trace --throughputs "$throughputs" --num-jobs "$jobs" --lam "$lam" \
    --num-durations 1000 --seed 15 --out "$trace" --force > /dev/null
  # shellcheck disable=SC2086
  timed_run "$jobs" "$out" "$bin" run --trace "$trace" --throughputs "$throughputs" \
    --gpus "$gpus" --policy shockwave --policy-option "config=$config" ${ADAPTSIM_RUN_OPTIONS:-}
  echo "| $jobs | $gpus | $lam | $run_wall_s | $run_user_s | $run_rss_mib | $run_jct_s | $run_makespan_s |"
done
