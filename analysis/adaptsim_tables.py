"""The numbers and labels of every comparison figure, computed once by `adaptsim report`.

    tables = adaptsim_tables.read(["canonical.h5", "pollux_canonical.h5"], golden="...")
    tables.tasks   one row per ok task: file, task_id, policy, display, label, scenario, ...
    tables.rows    the long table of `adaptsim report --format csv`: table, scenario, policy, x,
                   metric, stat, value (and x_value, the number behind x)
    tables.rho     (scenario, label) -> the pooled per-job ρ, ascending

`adaptsim report --format json` labels the tasks (display names, varied options, the planning
window in minutes: analysis/labels.toml) and computes the canonical, scale, window, ρ CDF and
reference tables (include/adaptsim/results_analysis.hpp); the figures draw them and compute
nothing of their own. The binary: `adaptsim=` (the scripts' --adaptsim), else $ADAPTSIM_BINARY,
else `adaptsim` on PATH, else the checkout's build/release/src/app/adaptsim.
"""
import json
import math
import os
import shutil
import subprocess
from dataclasses import dataclass

import pandas as pd

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLUMNS = ["table", "scenario", "policy", "x", "metric", "stat", "value"]
TASK_COLUMNS = ["file", "task_id", "task_index", "policy", "display", "label", "scenario", "trace",
                "num_jobs", "num_gpus", "seed", "round_duration_s", "options", "window_x",
                "window_row"]


def binary(adaptsim=None):
    """The adaptsim command line to run (see the module docstring); SystemExit when none."""
    for candidate in (adaptsim, os.environ.get("ADAPTSIM_BINARY"), shutil.which("adaptsim"),
                      os.path.join(CHECKOUT, "build", "release", "src", "app", "adaptsim")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise SystemExit("the adaptsim command line computes the figures' numbers: build it "
                     "(cmake --preset release && cmake --build --preset release), or name it "
                     "with --adaptsim PATH or $ADAPTSIM_BINARY")


@dataclass
class Tables:
    baseline: str           # registry name the canonical table normalises by
    baseline_labels: dict   # scenario -> the baseline's label there
    window_policy: str      # display name of the window table's policy
    window_axis: str        # its x axis ("planning window (min)")
    tasks: pd.DataFrame
    rows: pd.DataFrame
    rho: dict
    reference: list         # reference runs: {"policy", "display", "metrics": {name: value}}
    reference_scenarios: list

    def value(self, table, scenario, policy, x, metric, stat):
        """One number of the tables (NaN when absent)."""
        return self.index.get((table, scenario, policy, x, metric, stat), math.nan)

    def __post_init__(self):
        self.index = {tuple(r[:6]): r[6] for r in self.rows[COLUMNS].itertuples(index=False)}


def _number(value):
    return math.nan if value is None else float(value)


def read(paths, adaptsim=None, baseline="", window_param="shockwave.future_rounds",
         window_spread="k", golden=""):
    """Runs `adaptsim report --format json` on the results files (read together) and returns
    its Tables. `golden`: a folder of reference runs (include/adaptsim/reference_runs.hpp)."""
    command = [binary(adaptsim), "report", *paths, "--format", "json",
               "--window-param", window_param, "--window-spread", window_spread]
    if baseline:
        command += ["--baseline", baseline]
    if golden:
        command += ["--golden", golden]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
    data = json.loads(done.stdout)
    tasks = pd.DataFrame(data["tasks"], columns=TASK_COLUMNS)
    tasks["window_x"] = [_number(x) for x in tasks.window_x]
    rows = pd.DataFrame(data["rows"], columns=COLUMNS + ["x_value"])
    rows["value"] = [_number(v) for v in rows.value]
    rows["x_value"] = [_number(v) for v in rows.x_value]
    rho = {(r["scenario"], r["policy"]): r["values"] for r in data["rho"]}
    reference = [dict(r, metrics={k: _number(v) for k, v in r["metrics"].items()})
                 for r in data["reference"]]
    return Tables(data["baseline"], data["baseline_labels"], data["window_policy"],
                  data["window_axis"], tasks, rows, rho, reference, data["reference_scenarios"])
