#!/usr/bin/python3
"""Production-log sweep test: checks the results of tests/mpi/production_small.toml straight from
the HDF5 file — every task finished, carries its production options and input statistics, the
statistics add up (every row of the log in exactly one counter, rows_read equal to the log's data
lines counted here, simulated jobs = the jobs table), and the model seed changes the models jobs
get but not their arrivals or GPU counts.
Usage: production_check.py RESULTS.h5 EXPECTED_TASKS"""
import json
import os
import sys

import h5py
import numpy as np

results, expected_tasks = sys.argv[1], int(sys.argv[2])
if not os.path.exists(results):
    print(f"skipped: {results} was not written (reference data absent)")
    sys.exit(77)

COUNTERS = ["outside_window", "other_virtual_cluster", "below_min_duration", "pollux_filtered",
            "skipped_too_many_gpus", "skipped_zero_duration", "outside_sample_hours",
            "not_sampled", "selected"]
data_lines = {}
by_log = {}
with h5py.File(results, "r") as f:
    summary = f["summary"]
    status = summary["status"].asstr()[:]
    assert len(status) == expected_tasks, (len(status), expected_tasks)
    assert (status == "ok").all(), list(zip(status, summary["message"].asstr()[:]))
    for task_id in summary["task_id"].asstr()[:]:
        task = f["tasks"][task_id]
        config = json.loads(task.attrs["config_json"])
        production = config["production"]
        assert production["format"] in ("philly", "itp"), production
        stats = {k: int(v) for k, v in task["input_statistics"].attrs.items()}
        path = config["trace_path"]
        if path not in data_lines:
            with open(path) as log:
                data_lines[path] = sum(1 for line in log if line.strip()) - 1
        assert stats["rows_read"] == data_lines[path], (stats, data_lines[path])
        assert sum(stats[k] for k in COUNTERS) == stats["rows_read"], stats
        jobs = task["jobs"]
        assert stats["simulated_jobs"] == len(jobs["job_id"]), (stats, len(jobs["job_id"]))
        assert stats["simulated_jobs"] == (stats["selected"] - stats["skipped_unsupported"]
                                           - stats["skipped_no_work"]), stats
        assert stats["simulated_jobs"] > 0, stats
        key = (path, config["policy"])
        by_log.setdefault(key, {})[production["model_seed"]] = (
            jobs["workload"].asstr()[:], jobs["arrival_s"][:], jobs["requested_gpus"][:])

for key, seeds in by_log.items():
    assert len(seeds) >= 2, (key, seeds.keys())
    (m0, a0, g0), (m1, a1, g1) = list(seeds.values())[:2]
    assert np.array_equal(a0, a1) and np.array_equal(g0, g1), key
    assert not np.array_equal(m0, m1), f"{key}: the model seed did not change any model"
print(f"ok: {expected_tasks} tasks, {len(by_log)} (log, policy) pairs")
