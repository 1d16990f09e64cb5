#!/usr/bin/python3
"""Cross-family figure test: runs analysis/cross_family_figure.py on a results file as two
scenarios and checks that the figure exists (PNG, PDF, CSV), that every plotted number equals the
value recomputed here straight from the file with h5py (the tasks' mean JCT and makespan, the
pooled per-job ρ of the jobs that left: its maximum and the share above 1), that the bars carry
the display names of analysis/labels.toml in its legend order, and that a missing results file or
a scenario without '=' is refused with an error naming it and draws nothing.
Usage: cross_family_figure_check.py RESULTS.h5 CROSS_FAMILY_FIGURE.py OUT_DIR"""
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

import declared_labels

results, script, out = sys.argv[1:4]
if not os.path.exists(results):
    print(f"skipped: {results} was not written (reference data absent)")
    sys.exit(77)
shutil.rmtree(out, ignore_errors=True)
labels = ["one scenario", "another scenario"]
subprocess.run([sys.executable, script, "--scenario", f"{labels[0]}={results}",
                "--scenario", f"{labels[1]}={results}", "--out", out], check=True)
for ext in ("png", "pdf", "csv"):
    path = os.path.join(out, f"cross_family.{ext}")
    assert os.path.getsize(path) > 1000, f"missing or empty figure {path}"


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


expected = {}
with h5py.File(results, "r") as f:
    s = f["summary"]
    for tid, policy, status, mean, makespan in zip(s["task_id"].asstr()[:], s["policy"].asstr()[:],
                                                   s["status"].asstr()[:], s["mean_jct_s"][:],
                                                   s["makespan_s"][:]):
        assert status == "ok", (tid, status)
        jobs = f["tasks"][tid]["jobs"]
        rho = jobs["ftf_rho"][:]
        left = rho[np.isfinite(rho) & (rho > 0)]
        # one GPU type: the type-weighted ρ is the static one, so the figure shows "ρ"
        assert (jobs["ftf_rho_type_weighted"][:] == rho).all(), tid
        expected[declared_labels.DISPLAY[policy]] = dict(
            mean_jct_h=mean / 3600, makespan_h=makespan / 3600, worst_rho=float(left.max()),
            unfair_percent=float(100 * np.mean(left > 1)), jobs=len(left), policies=policy)
assert set(expected) == {"Gavel", "Pollux", "Sia"}, expected

rows = list(csv.DictReader(open(os.path.join(out, "cross_family.csv"))))
assert [r["scenario"] for r in rows] == [labels[0]] * 3 + [labels[1]] * 3, rows
order = [p for p in declared_labels.DISPLAY.values() if p in expected]
order = list(dict.fromkeys(order))
for label in labels:
    shown = [r for r in rows if r["scenario"] == label]
    assert [r["display"] for r in shown] == order, (label, [r["display"] for r in shown])
    for r in shown:
        e = expected[r["display"]]
        assert r["policies"] == e["policies"] and int(r["tasks"]) == 1, r
        assert int(r["jobs"]) == e["jobs"] == 120, r
        assert r["rho_column"] == "ftf_rho", r
        for key in ("mean_jct_h", "makespan_h", "worst_rho", "unfair_percent"):
            assert same(float(r[key]), e[key]), (r["display"], key, r[key], e[key])

# A missing results file and a malformed scenario: an error naming the argument, no figure.
with tempfile.TemporaryDirectory() as empty:
    missing = os.path.join(empty, "absent.h5")
    for argument, message in [(f"X={missing}", f"results file not found: {missing}"),
                              (results, "expected LABEL=RESULTS.h5")]:
        run = subprocess.run([sys.executable, script, "--scenario", argument, "--out", empty],
                             capture_output=True, text=True)
        assert run.returncode != 0, (argument, run)
        assert message in run.stderr, (argument, run.stderr)
        assert not os.path.exists(os.path.join(empty, "cross_family.png")), argument
print(f"cross-family figure: {len(rows)} bars match {results}")
