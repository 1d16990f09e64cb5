#!/usr/bin/python3
"""Production figure test: draws analysis/production_figure.py from the small production sweep
and a synthetic one, then checks that the PNG and PDF exist, that the CSV has both kinds of
scenario, and that every number in it equals the value recomputed here from the results files'
/summary (mean, min, max and count per scenario, policy and metric; normalised = mean / the
baseline's mean). Usage: production_figure_check.py FIGURE.py OUT_DIR BASELINE RESULTS.h5..."""
import csv
import json
import math
import os
import subprocess
import sys

import h5py
import numpy as np

from declared_labels import DISPLAY, METRICS

figure, out, baseline = sys.argv[1:4]
results = sys.argv[4:]
missing = [r for r in results if not os.path.exists(r)]
if missing:
    print(f"skipped: {missing} not written (reference data absent)")
    sys.exit(77)
subprocess.run([sys.executable, figure] + results + ["--out", out, "--baseline", baseline],
               check=True)
for ext in ("png", "pdf", "csv"):
    path = os.path.join(out, f"production.{ext}")
    assert os.path.getsize(path) > 100, f"missing or empty {path}"
plotted = {}
for row in csv.DictReader(open(os.path.join(out, "production.csv"))):
    plotted[(row["scenario"], row["policy"], row["metric"], row["stat"])] = float(row["value"])
kinds = {row["kind"] for row in csv.DictReader(open(os.path.join(out, "production.csv")))}
assert kinds == {"production", "synthetic"}, kinds

# Independent grouping: (kind, trace, window/options JSON, GPUs) per task, straight from the file.
groups = {}
for path in results:
    with h5py.File(path, "r") as f:
        s = f["summary"]
        for i, task_id in enumerate(s["task_id"].asstr()[:]):
            if s["status"].asstr()[i] != "ok":
                continue
            config = json.loads(f["tasks"][task_id].attrs["config_json"])
            production = config.get("production", {})
            select = {k: v for k, v in production.items()
                      if k not in ("model_seed", "mapping", "mode_mix", "accordion_min_duration_s")}
            jobs = 0 if production else int(s["num_jobs"][i])
            key = (config["trace_path"], json.dumps(select, sort_keys=True), int(s["num_gpus"][i]),
                   jobs)
            policy = DISPLAY[s["policy"].asstr()[i]]
            for m in METRICS:
                groups.setdefault(key, {}).setdefault(policy, {}).setdefault(m, []).append(
                    float(s[m][i]))


def same(a, b):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


# Match each independent group to a plotted scenario by its numbers (labels are the script's).
scenarios = {key[0] for key in plotted}
assert len(scenarios) == len(groups), (sorted(scenarios), len(groups))
checked = 0
for key, policies in groups.items():
    base = np.mean(policies[DISPLAY[baseline]]["makespan_s"])
    matches = [sc for sc in scenarios if same(plotted[(sc, DISPLAY[baseline], "makespan_s",
                                                       "mean")], base)]
    assert len(matches) == 1, (key, matches)
    scenario = matches[0]
    for policy, metrics in policies.items():
        for m, values in metrics.items():
            ref = np.mean(policies[DISPLAY[baseline]][m])
            expect = {"n": len(values), "mean": np.mean(values), "min": min(values),
                      "max": max(values),
                      "normalised": np.mean(values) / ref if ref else math.nan}
            for stat, value in expect.items():
                assert same(plotted[(scenario, policy, m, stat)], float(value)), (
                    scenario, policy, m, stat, plotted[(scenario, policy, m, stat)], value)
                checked += 1
print(f"ok: {checked} numbers of {len(groups)} scenarios equal the results files")
