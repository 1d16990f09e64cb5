#!/usr/bin/env python3
"""Python policy vs the C++ policy it ports: whole-task wall time (median of N runs) on the 120-job
/ 32-GPU and 900-job / 256-GPU reference traces, and the per-call cost of the Python policy.

    PYTHONPATH=build/release/python:examples python3 bench/bench_python_policy.py [DATA] [-n N]

Per call: the time inside compute_allocation as Python sees it (the policy's own work), and the
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

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = [
    ("120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace", 32),
    ("900_0.2_5_1000_5_15_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace", 256),
]
PORTS = [("max_min_fairness", MaxMinFairness), ("gandiva_fair", GandivaFair)]
CALLS = {"n": 0, "s": 0.0}


def timed(cls):
    """A subclass whose compute_allocation counts calls and the time spent in Python."""
    class Timed(cls):
        def compute_allocation(self, state):
            start = time.perf_counter()
            result = super().compute_allocation(state)
            CALLS["s"] += time.perf_counter() - start
            CALLS["n"] += 1
            return result
    Timed.__qualname__ = "Timed" + cls.__name__
    globals()[Timed.__qualname__] = Timed
    return Timed


def median_wall(policy, trace, throughputs, gpus, repeats):
    walls = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = adaptsim.run(trace=trace, throughputs=throughputs, policy=policy, gpus=gpus,
                              deadline_factor=1.5)
        walls.append(time.perf_counter() - start)
        assert result.status == "ok", result.message
    return statistics.median(walls), result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?",
                        default=os.path.join(CHECKOUT, "..", "shared", "data"))
    parser.add_argument("-n", "--repeats", type=int, default=5)
    args = parser.parse_args()
    throughputs = os.path.join(args.data, "shockwave", "throughputs", "tacc_throughputs.json")
    print("| policy | configuration | C++ s | Python s | ratio | calls | in policy ms/call |"
          " overhead ms/call |")
    print("|---|---|---|---|---|---|---|---|")
    for trace_name, gpus in CASES:
        trace = os.path.join(args.data, "shockwave", "traces", trace_name)
        jobs = trace_name.split("_")[0]
        for name, cls in PORTS:
            cpp_s, cpp = median_wall(name, trace, throughputs, gpus, args.repeats)
            policy = timed(cls)
            CALLS.update(n=0, s=0.0)
            py_s, port = median_wall(policy, trace, throughputs, gpus, args.repeats)
            assert list(port.jobs["jct_s"]) == list(cpp.jobs["jct_s"])
            calls = CALLS["n"] // args.repeats
            inside_ms = 1e3 * CALLS["s"] / CALLS["n"]
            overhead_ms = 1e3 * (py_s - cpp_s) / calls - inside_ms
            print(f"| {name} | {jobs} jobs / {gpus} GPUs | {cpp_s:.3f} | {py_s:.3f} | "
                  f"{py_s / cpp_s:.2f} | {calls} | {inside_ms:.3f} | {overhead_ms:.3f} |")


if __name__ == "__main__":
    main()
