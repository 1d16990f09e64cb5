#!/usr/bin/python3
"""Pollux figures test: runs analysis/pollux_figures.py on a results file and checks that every
figure exists (PNG and PDF) and that every plotted number equals the value recomputed here
straight from the file with h5py (task summaries and per-job JCTs), and that no text element of
a figure (read back from the matplotlib Figure objects) contains '{' or exceeds 40 characters.
Usage: pollux_figures_check.py RESULTS.h5 POLLUX_FIGURES.py OUT_DIR"""
import csv
import math
import os
import re
import subprocess
import sys

import h5py
import numpy as np

results, figures, out = sys.argv[1:4]
if not os.path.exists(results):
    print(f"skipped: {results} was not written (reference data absent)")
    sys.exit(77)
subprocess.run([sys.executable, figures, results, "--out", out], check=True)
for name in ["pollux_mean_jct_vs_load", "pollux_jct_cdf"]:
    for ext in ("png", "pdf", "csv"):
        path = os.path.join(out, f"{name}.{ext}")
        assert os.path.getsize(path) > 100, f"missing or empty figure {path}"


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def load_of(trace):
    m = re.search(r"workloads-([0-9.]+)/", trace)
    return float(m.group(1)) if m else 1.0


expected, jobs_at = {}, {}
with h5py.File(results, "r") as f:
    s = f["summary"]
    for tid, policy, trace, status, mean in zip(s["task_id"].asstr()[:], s["policy"].asstr()[:],
                                               s["trace"].asstr()[:], s["status"].asstr()[:],
                                               s["mean_jct_s"][:]):
        assert status == "ok", (tid, status)
        jobs = f["tasks"][tid]["jobs"]
        done = jobs["outcome"].asstr()[:] == "completed"
        jct = jobs["jct_s"][:][done]
        assert done.all(), f"{tid}: every job completes"
        assert same(mean, float(np.mean(jct))), (tid, mean)  # summary = its jobs
        expected.setdefault((policy, load_of(trace)), []).append(mean)
        jobs_at.setdefault(load_of(trace), 0)
        jobs_at[load_of(trace)] += len(jct)

rows = list(csv.DictReader(open(os.path.join(out, "pollux_mean_jct_vs_load.csv"))))
assert {(r["policy"], float(r["load"])) for r in rows} == set(expected), rows
for r in rows:
    values = expected[(r["policy"], float(r["load"]))]
    assert int(r["count"]) == len(values), r
    assert same(float(r["mean"]), float(np.mean(values))), r
    assert same(float(r["mean_jct_h"]), float(np.mean(values)) / 3600), r
cdf = list(csv.DictReader(open(os.path.join(out, "pollux_jct_cdf.csv"))))
assert len(cdf) == jobs_at[1.0], (len(cdf), jobs_at)
# Text elements, read back from the Figure objects while drawing again.
sys.path.insert(0, os.path.dirname(figures))
import pollux_figures  # noqa: E402
import figure_texts  # noqa: E402

texts = figure_texts.check_saved_figures()
pollux_figures.draw_all([results], out + "_redrawn")
assert "Pollux (adaptsim)" in texts and not any("pollux" in t for t in texts), texts
# A task in two files counts once (the job-load sweep's load-1 Pollux runs are the interval
# sweep's 1-min runs): drawing from the file twice gives the same table.
pollux_figures.draw_all([results, results], out + "_twice")
twice = list(csv.DictReader(open(os.path.join(out + "_twice", "pollux_mean_jct_vs_load.csv"))))
assert twice == rows, (twice, rows)
print(f"pollux figures ok: {len(rows)} table rows and {len(cdf)} CDF jobs equal the file")
