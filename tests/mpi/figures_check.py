#!/usr/bin/python3
"""Figures test: runs analysis/figures.py (which draws the tables of `adaptsim report --format
json`) on a results file and checks that every figure exists (PNG, PDF and its CSV), that the
numbers it wrote equal `adaptsim report --format csv` and the values recomputed here straight
from the file with h5py (independently of adaptsim), that the labels are the display names
analysis/labels.toml declares (tests/mpi/declared_labels.py), and that no text element of a
figure (read back from the matplotlib Figure objects) contains '{' or exceeds 40 characters.
Usage: figures_check.py ADAPTSIM RESULTS.h5 FIGURES.py OUT_DIR"""
import csv
import io
import json
import math
import os
import subprocess
import sys

import h5py
import numpy as np

from declared_labels import DISPLAY, METRICS

adaptsim, results, figures, out = sys.argv[1:5]
if not os.path.exists(results):
    # The sweep before this test skipped (no reference data): nothing to check.
    print(f"skipped: {results} was not written (reference data absent)")
    sys.exit(77)
args = ["--baseline", "gandiva_fair", "--window-param", "max_min_fairness.face_position"]
subprocess.run([sys.executable, figures, results, "--out", out, "--adaptsim", adaptsim] + args,
               check=True)
for name in ["canonical_0", "canonical_1", "scale", "window", "rho_cdf_0", "rho_cdf_1"]:
    for ext in ("png", "pdf", "csv"):
        path = os.path.join(out, f"{name}.{ext}")
        assert os.path.getsize(path) > 100, f"missing or empty figure {path}"


def load(text):
    rows = {}
    for r in csv.DictReader(io.StringIO(text)):
        rows[(r["table"], r["scenario"], r["policy"], r["x"], r["metric"], r["stat"])] = float(r["value"])
    return rows


plotted = load(open(os.path.join(out, "figures_data.csv")).read())
report = load(subprocess.run([adaptsim, "report", results, "--format", "csv"] + args, check=True,
                             capture_output=True, text=True).stdout)
assert plotted.keys() == report.keys(), sorted(set(plotted) ^ set(report))[:5]


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


for key, value in plotted.items():
    assert same(value, report[key]), (key, value, report[key])
# Independent recomputation of a few numbers from the raw file.
S32 = "120 jobs · 32 GPUs"
with h5py.File(results, "r") as f:
    s = f["summary"]
    policy, gpus = s["policy"].asstr()[:], s["num_gpus"][:]
    opts = s["policy_options"].asstr()[:]
    makespan = s["makespan_s"][:]
    sel = (policy == "fifo") & (gpus == 32)
    key = ("scale", "", "FIFO", "32", "makespan_s", "mean")
    assert same(plotted[key], float(np.mean(makespan[sel]))), key
    base = (policy == "gandiva_fair") & (gpus == 32)
    key = ("canonical", S32, "FIFO", "", "makespan_s", "normalised")
    assert same(plotted[key], float(np.mean(makespan[sel]) / np.mean(makespan[base]))), key
    rho = np.concatenate([f["tasks"][t]["jobs"]["ftf_rho"][:] for t, p, g in
                          zip(s["task_id"].asstr()[:], policy, gpus)
                          if p == "gandiva_fair" and g == 32])
    key = ("rho_cdf", S32, "Gandiva-Fair", "", "ftf_rho", "p90")
    assert same(plotted[key], float(np.quantile(rho[np.isfinite(rho)], 0.9))), key
    win = (policy == "max_min_fairness") & (opts == '{"face_position":0.5}') & (gpus == 32)
    key = ("window", S32, "Gavel", "0.5", "makespan_s", "max")
    assert same(plotted[key], float(np.max(makespan[win]))), key
    assert ("canonical", S32, "Gavel (face 0.5)", "", "makespan_s", "mean") in plotted
# Every figure's own CSV: the scale figure's numbers equal the file's.
for r in csv.DictReader(open(os.path.join(out, "scale.csv"))):
    if r["policy"] == "FIFO":
        with h5py.File(results, "r") as f:
            s = f["summary"]
            sel = (s["policy"].asstr()[:] == "fifo") & (s["num_gpus"][:] == int(r["num_gpus"]))
            assert same(float(r["mean"]), float(np.mean(s[r["metric"]][:][sel]))), r
# The canonical bars and the window band of the figures: every number, from the raw file.
with h5py.File(results, "r") as f:
    s = f["summary"]
    columns = zip(s["policy"].asstr()[:], s["num_gpus"][:], s["num_jobs"][:],
                  s["policy_options"].asstr()[:])
    tasks = [dict(policy=p, gpus=int(g), jobs=int(j), options=json.loads(o or "{}"),
                  **{m: float(s[m][i]) for m in METRICS})
             for i, (p, g, j, o) in enumerate(columns)]


def label(t):
    face = t["options"].get("face_position")
    return DISPLAY[t["policy"]] + ("" if face is None else f" (face {face:g})")


bars = 0
for n in (0, 1):
    for r in csv.DictReader(open(os.path.join(out, f"canonical_{n}.csv"))):
        ts = [t for t in tasks if f"{t['jobs']} jobs · {t['gpus']} GPUs" == r["scenario"]]
        mine = np.mean([t[r["metric"]] for t in ts if label(t) == r["policy"]])
        base = np.mean([t[r["metric"]] for t in ts if t["policy"] == "gandiva_fair"])
        assert same(float(r["normalised"]), mine / base), r
        bars += 1
assert bars == 2 * 5 * len(METRICS), bars  # 2 scenarios x 5 labels x the metrics
for r in csv.DictReader(open(os.path.join(out, "window.csv"))):
    ts = [t for t in tasks if t["policy"] == "max_min_fairness"
          and r["row"] == f"{t['jobs']} jobs · {t['gpus']} GPUs"
          and same(t["options"]["face_position"], float(r["window_min"]))]
    values = [t[r["metric"]] for t in ts]
    for stat, expected in (("mean", np.mean(values)), ("min", min(values)), ("max", max(values)),
                           ("n", len(values))):
        assert same(float(r[stat]), float(expected)), (r, stat)
# Text elements of every figure, read back from the Figure objects while drawing again.
sys.path.insert(0, os.path.dirname(figures))
import figures as figures_module  # noqa: E402
import figure_texts  # noqa: E402

texts = figure_texts.check_saved_figures()
figures_module.draw_all([results], out + "_redrawn", "gandiva_fair",
                        "max_min_fairness.face_position", adaptsim=adaptsim)
assert "Gavel (face 0.5)" in texts and not any("max_min_fairness" in t for t in texts), texts
print(f"figures ok: {len(plotted)} numbers equal in figures.py, adaptsim report and the file; "
      f"{bars} canonical bars recomputed; {len(texts)} figure texts checked")
