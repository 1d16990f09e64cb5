#!/usr/bin/env python3
"""Python policy vs the C++ policy it ports: whole-task wall time (median of N runs) on the 120-job
/ 32-GPU and 900-job / 256-GPU reference traces (round engine) and on the Pollux artifact's
workload-6 / 64 GPUs (interval engine, Tiresias), and the per-call cost of the Python policy.

    PYTHONPATH=build/release/python:examples python3 bench/bench_python_policy.py [DATA] [-n N]

Per call: the time inside compute_allocation (optimize) as Python sees it (the policy's own work), and the
crossing overhead = (port wall - C++ wall) / calls, which includes building the state view and
converting the returned dict. Results in docs/performance.md ("Python policies").
"""

import argparse
import os
import statistics
import time

import adaptsim
from adaptsim_examples.gandiva_fair import GandivaFair
from adaptsim_examples.max_min_fairness import MaxMinFairness
from adaptsim_examples.tiresias import Tiresias

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = [
    ("120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace", 32),
    ("900_0.2_5_1000_5_15_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace", 256),
]
PORTS = [("max_min_fairness", MaxMinFairness), ("gandiva_fair", GandivaFair)]
INTERVAL_PORTS = [("tiresias", Tiresias)]
CALLS = {"n": 0, "s": 0.0}


def timed(cls, method="compute_allocation"):
    """A subclass whose `method` counts calls and the time spent in Python."""
    def wrapper(self, state):
        start = time.perf_counter()
        result = getattr(cls, method)(self, state)
        CALLS["s"] += time.perf_counter() - start
        CALLS["n"] += 1
        return result
    Timed = type("Timed" + cls.__name__, (cls,), {method: wrapper})
    Timed.__qualname__ = "Timed" + cls.__name__
    globals()[Timed.__qualname__] = Timed
    return Timed


def median_wall(policy, trace, throughputs, gpus, repeats, **settings):
    """(median whole-task wall time, median engine wall time (Result.wall_time_s; 0 when the
    engine does not measure it), the last Result)."""
    walls, engine = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        result = adaptsim.run(trace=trace, throughputs=throughputs, policy=policy, gpus=gpus,
                              **settings)
        walls.append(time.perf_counter() - start)
        engine.append(result.wall_time_s)
        assert result.status == "ok", result.message
    return statistics.median(walls), statistics.median(engine), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?",
                        default=os.path.join(CHECKOUT, "..", "shared", "data"))
    parser.add_argument("-n", "--repeats", type=int, default=5)
    args = parser.parse_args()
    throughputs = os.path.join(args.data, "shockwave", "throughputs", "tacc_throughputs.json")
    print("| policy | configuration | C++ s | Python s | ratio | engine loop C++ / Python s |"
          " calls | in policy ms/call | overhead ms/call |")
    print("|---|---|---|---|---|---|---|---|---|")
    for trace_name, gpus in CASES:
        trace = os.path.join(args.data, "shockwave", "traces", trace_name)
        jobs = trace_name.split("_")[0]
        for name, cls in PORTS:
            compare(name, cls, "compute_allocation", trace, throughputs, gpus, args.repeats,
                    f"{jobs} jobs / {gpus} GPUs", deadline_factor=1.5)
    workload = os.path.join(args.data, "pollux", "workloads", "workload-6.csv")
    profiles = os.path.join(args.data, "pollux", "traces")
    for name, cls in INTERVAL_PORTS:
        compare(name, cls, "optimize", workload, profiles, 64, args.repeats,
                "workload-6 / 64 GPUs (interval)")


def compare(name, cls, method, trace, throughputs, gpus, repeats, label, **settings):
    """One table row: the C++ policy `name` and its port `cls` (whose `method` is timed)."""
    cpp_s, cpp_engine_s, cpp = median_wall(name, trace, throughputs, gpus, repeats, **settings)
    policy = timed(cls, method)
    CALLS.update(n=0, s=0.0)
    py_s, py_engine_s, port = median_wall(policy, trace, throughputs, gpus, repeats,
                                          **settings)
    assert list(port.jobs["jct_s"]) == list(cpp.jobs["jct_s"])
    calls = CALLS["n"] // repeats
    inside_ms = 1e3 * CALLS["s"] / CALLS["n"]
    overhead_ms = 1e3 * (py_s - cpp_s) / calls - inside_ms
    engine = (f"{cpp_engine_s:.3f} / {py_engine_s:.3f} ({py_engine_s / cpp_engine_s:.1f}×)"
              if cpp_engine_s > 0 else "—")
    print(f"| {name} | {label} | {cpp_s:.3f} | {py_s:.3f} | "
          f"{py_s / cpp_s:.2f} | {engine} | {calls} | {inside_ms:.3f} | {overhead_ms:.3f} |")


if __name__ == "__main__":
    main()
