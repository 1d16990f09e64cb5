#!/bin/sh
# Harness benchmark: the 56-task bench/bench_harness.toml with 2 worker ranks (+ rank 0) on the
# machine's cores; prints parallel efficiency (sum of task wall times / (workers x dispatch wall))
# and rank 0's CPU time as a share of wall, both measured by the harness and stored in /meta.
# Usage: bench/bench_harness.sh BUILD_DIR [OUT_DIR]
set -eu
build=$1 out=${2:-/tmp/adaptsim_bench_harness}
here=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
start=$(date +%s.%N)
mpirun --oversubscribe -n 3 "$build/src/app/adaptsim" sweep "$here/bench_harness.toml" \
  --out "$out/bench.h5" --force --quiet > /dev/null
end=$(date +%s.%N)
/usr/bin/python3 - "$out/bench.h5" "$start" "$end" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
m = dict(f["meta"].attrs)
wall, cpu, tasks = m["run_dispatch_wall_s"], m["run_rank0_cpu_s"], m["run_tasks"]
mpirun_wall = float(sys.argv[3]) - float(sys.argv[2])
print(f"tasks {tasks:.0f}, workers {m['run_worker_ranks']:.0f}, task time sum {m['run_task_time_sum_s']:.2f} s")
print(f"dispatch wall {wall:.2f} s: parallel efficiency {m['run_parallel_efficiency']:.3f}")
print(f"mpirun wall {mpirun_wall:.2f} s: efficiency incl. MPI start-up and merge "
      f"{m['run_task_time_sum_s'] / (m['run_worker_ranks'] * mpirun_wall):.3f}")
print(f"rank-0 CPU {cpu:.3f} s = {100 * cpu / wall:.2f} % of dispatch wall")
PY
