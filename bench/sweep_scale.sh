#!/bin/sh
# Benchmark of large sweeps of small tasks (docs/performance.md, "Sweeps of 10^3-10^4 small tasks"):
#   bench/sweep_scale.sh ADAPTSIM TASKS DETAIL [RANKS] [WORKDIR]
# Generates a 30-job trace (seed 0, durations 0.2-1 h), sweeps FIFO and Gandiva-Fair on 16 GPUs
# over TASKS/2 seeds (the seed changes the task id, so every task is distinct; each simulates in
# a few milliseconds) under `mpirun --oversubscribe -n RANKS` (default 3: 2 workers) at
# --detail DETAIL, and prints the farm's statistics line (parallel efficiency, rank-0 CPU,
# batches, merge time), each rank's user and system CPU and wall time, the bytes of the merged
# file per task, and the load average before and after (the machine may be shared).
# Needs the reference throughputs (ADAPTSIM_DATA, default ../shared/data).
set -eu
adaptsim=$1 tasks=$2 detail=$3 ranks=${4:-3}
dir=${5:-/tmp/adaptsim-sweep-scale}
data=$(cd "${ADAPTSIM_DATA:-$(dirname "$0")/../../shared/data}" && pwd)
throughputs=$data/shockwave/throughputs/tacc_throughputs.json
mkdir -p "$dir"
"$adaptsim" generate-trace --out "$dir/tiny.trace" --throughputs "$throughputs" --num-jobs 30 \
  --max-duration-h 1 --force > /dev/null
seeds=$(seq -s, 0 $((tasks / 2 - 1)))
cat > "$dir/spec.toml" <<SPEC
name = "sweep_scale"
traces = "$dir/tiny.trace"
throughputs = "$throughputs"
num_gpus = 16
policies = ["fifo", "gandiva_fair"]
seeds = [$seeds]
detail = "$detail"
SPEC
out=$dir/out_${tasks}_${detail}_n$ranks.h5
rm -rf "$out" "$out.shards"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# Each rank under /usr/bin/time: its own CPU time, labelled with its rank.
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  mpirun --oversubscribe -n "$ranks" sh -c 'exec /usr/bin/time -f \
"rank ${OMPI_COMM_WORLD_RANK:-0}: %U s user, %S s system, %e s wall" "$@"' sh \
  "$adaptsim" sweep "$dir/spec.toml" --out "$out" \
  2>&1 >/dev/null | grep -E "^adaptsim: [0-9]+ tasks run|verified|^rank [0-9]+:" | sort -s -k1,2
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
bytes=$(stat -c %s "$out")
echo "tasks $tasks detail $detail ranks $ranks: $bytes bytes, $((bytes / tasks)) bytes per task"
