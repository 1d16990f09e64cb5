#!/bin/sh
# Production-log benchmarks (docs/performance.md, "Production logs"): one `adaptsim run` per case,
# one process on one core, wall time, user CPU and peak RSS from /usr/bin/time -v (bench/timing.sh).
#   every round-based baseline on the full Philly log (the artifact's filter) on 1,024 GPUs
#     (target <= 60 s and <= 2 GiB each)
#   Shockwave on one Philly week (2017-11-20, 512 GPUs) and on the largest ITP cluster
#     (cluster04, 15,802 jobs, 1,024 GPUs)
#   Pollux on a 160-job Philly workload sampled as the artifact samples (every day's jobs from
#     02:00-10:00, arriving at their time of day) and on one Philly day of one virtual cluster
#     (2017-11-20, 11cb48: 104 jobs), with the artifact's profiles on 64 GPUs
# Usage: bench/bench_production.sh BUILD_DIR [CASE...]   (CASE: baselines shockwave pollux)
# Needs the reference data ($ADAPTSIM_DATA, default ../shared/data next to the checkout).
set -eu
. "$(dirname "$0")/timing.sh"
build=$1
shift
cases=${*:-baselines shockwave pollux}
here=$(cd "$(dirname "$0")" && pwd)
data=${ADAPTSIM_DATA:-$here/../../shared/data}
adaptsim=$build/src/app/adaptsim
philly=$data/production/philly/philly.csv
catalogue=$here/../data/catalog/v100.toml
measure() {  # LABEL ARGS...: prints label, wall s, user s, peak RSS MiB, jobs, status
  label=$1
  shift
  log=$(mktemp)
  time_run "$log" "$log.out" "$adaptsim" run "$@"
  printf '%-34s wall %7s s  user %7s s  RSS %6s MiB  jobs %6s  %s\n' "$label" \
    "$(time_wall_s "$log")" "$(time_user_s "$log")" "$(time_rss_mib "$log")" \
    "$(run_value "$log.out" num_jobs)" "$(run_value "$log.out" status)"
  rm -f "$log" "$log.out"
}
for case in $cases; do
  case $case in
    baselines)
      for policy in fifo gandiva_fair max_min_fairness max_sum_throughput_perf allox \
                    finish_time_fairness min_total_duration; do
        measure "$policy Philly all 1024 GPUs" --production-log "$philly" --log-format philly \
          --pollux-filter --skip-unsimulable --throughputs "$catalogue" --gpus 1024 \
          --idle-round-start arrival --policy "$policy"
      done ;;
    shockwave)
      measure "shockwave Philly week 512 GPUs" --production-log "$philly" --log-format philly \
        --window-start "2017-11-20 00:00:00" --window-length-s 604800 --pollux-filter \
        --skip-unsimulable --throughputs "$catalogue" --gpus 512 --idle-round-start arrival \
        --policy shockwave
      measure "shockwave ITP cluster04 1024 GPUs" \
        --production-log "$data/production/ms-itp/cluster04.csv" --log-format itp \
        --skip-unsimulable --throughputs "$catalogue" --gpus 1024 --idle-round-start arrival \
        --policy shockwave ;;
    pollux)
      measure "pollux Philly artifact sample 160 jobs 64 GPUs" --production-log "$philly" \
        --log-format philly --sample-jobs 160 --pollux-filter --skip-unsimulable \
        --throughputs "$data/pollux/traces" --gpus 64 --policy pollux \
        --policy-option p=-1 --policy-option interval_s=60 --policy-option restart_delay_s=30
      measure "pollux Philly day vc 11cb48 64 GPUs" --production-log "$philly" \
        --log-format philly --window-start "2017-11-20 00:00:00" --window-length-s 86400 \
        --virtual-cluster 11cb48 --pollux-filter --skip-unsimulable \
        --throughputs "$data/pollux/traces" --gpus 64 --policy pollux \
        --policy-option p=-1 --policy-option interval_s=60 --policy-option restart_delay_s=30 ;;
    *) echo "unknown case $case (baselines, shockwave, pollux)" >&2; exit 2 ;;
  esac
done
