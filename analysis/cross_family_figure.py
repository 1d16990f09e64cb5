#!/usr/bin/python3
"""The cross-family figure (docs/reproduction.md "The cross-family figure"): every policy of both
families — the round engine's (Shockwave, Themis, Gavel, ...) and the adaptive ones on the interval
engine (Pollux, Sia, and the "+TunedJobs" baselines) — on the same workloads, one row per scenario:

  /usr/bin/python3 analysis/cross_family_figure.py \\
      --scenario "Shockwave trace · 32 GPUs=cross_family_canonical.h5" \\
      --scenario "Philly · 64 T4=sia_table4.h5" \\
      --scenario "Helios · 64 mixed GPUs=sia_table3.h5" \\
      --trace-folder "Helios · 64 mixed GPUs=saturn" --out DIR

Each --scenario is LABEL=RESULTS.h5 (an adaptsim results file with per-job tables, `detail` at
least "per_job"); a label given twice pools its files' tasks. --trace-folder LABEL=FOLDER keeps
only the tasks of that scenario whose trace lies in a folder of that name (the Helios workloads of
Table 3's sweep: folder "saturn"). Each row draws whatever policies its files hold (tasks with
status ok), in the legend order of analysis/labels.toml, by their display names:

  average JCT (h)   mean over the tasks (workloads, seeds) of each task's mean JCT; the error bar
                    spans the tasks' minimum to maximum
  makespan (h)      the same for the results' makespan (the run's end, from time 0)
  worst ρ           the largest finish-time-fairness ρ of any job of any of the tasks
  ρ > 1 (%)         the share of those jobs with ρ > 1 (finished later than on their fair share)

ρ is the per-job type-weighted ρ (Sia's Eq. 3, `ftf_rho_type_weighted`) where every task of the
row has a positive finite value for each job that left and it differs from the static ρ for some
job, else the static ρ (`ftf_rho`, docs/mechanism.md §10; on one GPU type the two are equal); the
ρ panels' axis labels say which ("type-weighted ρ" or "static ρ"). Writes DIR/NAME.{png,pdf,csv}
(NAME = cross_family; the CSV holds the plotted numbers). Missing files, labels without '=' and a
scenario without an ok task are errors naming the argument.
"""
import argparse
import math
import os
import sys

import h5py
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adaptsim_style as st  # noqa: E402
import results_columns as rr  # noqa: E402

RHO_COLUMNS = {"ftf_rho_type_weighted": "type-weighted ρ", "ftf_rho": "static ρ"}
PANELS = [("mean_jct_h", "Average JCT", "average JCT (h)"),
          ("makespan_h", "Makespan", "makespan (h)"),
          ("worst_rho", "Worst ρ", "worst {rho} (dashed: 1)"),
          ("unfair_percent", "Unfair jobs", "jobs with {rho} > 1 (%)")]


def fail(message):
    raise SystemExit(f"cross_family_figure.py: {message}")


def parse_scenarios(arguments, folders=()):
    """[(label, [paths], [trace folders])] in first-seen order from LABEL=PATH arguments and
    LABEL=FOLDER filters (an empty list: every task)."""
    scenarios = {}
    for argument in arguments:
        label, sep, path = argument.partition("=")
        if not sep or not label or not path:
            fail(f"--scenario {argument!r}: expected LABEL=RESULTS.h5")
        if not os.path.isfile(path):
            fail(f"--scenario {argument!r}: results file not found: {path}")
        scenarios.setdefault(label, ([], []))[0].append(path)
    for argument in folders or ():
        label, sep, folder = argument.partition("=")
        if not sep or label not in scenarios or not folder:
            fail(f"--trace-folder {argument!r}: expected LABEL=FOLDER with a --scenario LABEL")
        scenarios[label][1].append(folder)
    return [(label, paths, folder) for label, (paths, folder) in scenarios.items()]


def job_rho(task, column):
    """(ρ per job that left, per job: ρ of `column`) of a task group: jobs with a positive finite
    static ρ (a job that never left has ρ 0)."""
    jobs = task["jobs"]
    left = np.asarray(jobs["ftf_rho"][:], dtype=float)
    left = np.isfinite(left) & (left > 0)
    if column not in jobs:
        return left, None
    return left, np.asarray(jobs[column][:], dtype=float)


def scenario_tasks(paths, trace_folder):
    """The ok tasks of a scenario's files as one DataFrame (file, task_id, policy, display,
    mean_jct_s, makespan_s)."""
    frames = []
    for path in paths:
        df, _ = rr.summary(path)
        df = df[df.status == "ok"].copy()
        if trace_folder:
            df = df[df.trace_folder.isin(trace_folder)]
        df["file"] = path
        frames.append(df[["file", "task_id", "policy", "trace", "mean_jct_s", "makespan_s"]])
    tasks = pd.concat(frames, ignore_index=True)
    tasks["display"] = tasks.policy.map(st.display_name)
    return tasks


def rho_column(tasks):
    """The per-job ρ of a scenario: the type-weighted one when every task has a positive finite
    value for every job that left and it differs from the static one somewhere, else the static
    one (on one GPU type the two are equal)."""
    differs = False
    for path, ids in tasks.groupby("file").task_id:
        with h5py.File(path, "r") as f:
            for task_id in ids:
                left, rho = job_rho(f["tasks"][task_id], "ftf_rho_type_weighted")
                if rho is None or not (np.isfinite(rho[left]).all() and (rho[left] > 0).all()):
                    return "ftf_rho"
                static = np.asarray(f["tasks"][task_id]["jobs"]["ftf_rho"][:], dtype=float)
                differs = differs or bool((rho[left] != static[left]).any())
    return "ftf_rho_type_weighted" if differs else "ftf_rho"


def scenario_rows(label, paths, trace_folder):
    """One row per policy of a scenario: the four panels' numbers (see the module docstring)."""
    tasks = scenario_tasks(paths, trace_folder)
    if len(tasks) == 0:
        fail(f"scenario {label!r}: no task with status ok in {', '.join(paths)}")
    column = rho_column(tasks)
    rows = []
    for display in sorted(tasks.display.unique(), key=st.policy_rank):
        t = tasks[tasks.display == display]
        rhos = []
        for path, ids in t.groupby("file").task_id:
            with h5py.File(path, "r") as f:
                for task_id in ids:
                    left, rho = job_rho(f["tasks"][task_id], column)
                    rhos.append(rho[left])
        rho = np.concatenate(rhos) if rhos else np.array([])
        jct, makespan = t.mean_jct_s / 3600, t.makespan_s / 3600
        rows.append(dict(
            scenario=label, display=display, policies=" ".join(sorted(t.policy.unique())),
            tasks=len(t), jobs=len(rho), rho_column=column,
            mean_jct_h=float(jct.mean()), mean_jct_h_min=float(jct.min()),
            mean_jct_h_max=float(jct.max()), makespan_h=float(makespan.mean()),
            makespan_h_min=float(makespan.min()), makespan_h_max=float(makespan.max()),
            worst_rho=float(rho.max()) if len(rho) else math.nan,
            unfair_percent=float(100 * np.mean(rho > 1)) if len(rho) else math.nan))
    return pd.DataFrame(rows)


def value_text(metric, value):
    if not np.isfinite(value):
        return "n/a"
    if metric == "unfair_percent":
        return f"{value:.1f} %" if value < 10 else f"{value:.0f} %"
    return f"{value:.2f}"


def draw(rows):
    """The figure: one row of four panels per scenario, horizontal bars per policy."""
    scenarios = list(dict.fromkeys(rows.scenario))
    heights = [0.9 + 0.32 * len(rows[rows.scenario == s]) for s in scenarios]
    fig = plt.figure(figsize=(11.0, sum(heights) + 0.35 * len(scenarios)), layout="constrained")
    subfigs = fig.subfigures(len(scenarios), 1, height_ratios=heights, squeeze=False)[:, 0]
    for subfig, scenario in zip(subfigs, scenarios):
        r = rows[rows.scenario == scenario].reset_index(drop=True)
        rho = RHO_COLUMNS[r.rho_column.iloc[0]]
        axes = subfig.subplots(1, len(PANELS), sharey=True)
        y = np.arange(len(r))[::-1]  # legend order top to bottom
        colours = [st.style(d)[0] for d in r.display]
        for ax, (metric, title, axis) in zip(axes, PANELS):
            values = r[metric].to_numpy(dtype=float)
            error = None
            if metric + "_min" in r and (r.tasks > 1).any():
                error = np.vstack([values - r[metric + "_min"], r[metric + "_max"] - values])
            ax.barh(y, np.nan_to_num(values), color=colours, height=0.7, xerr=error,
                    error_kw=dict(lw=0.8, capsize=2, ecolor="0.3"))
            ends = r[metric + "_max"].to_numpy(dtype=float) if error is not None else values
            top = np.nanmax(ends) if np.isfinite(ends).any() else 1.0
            top = top if top > 0 else 1.0
            for yi, v, end in zip(y, values, ends):
                ax.text(np.nan_to_num(end) + 0.03 * top, yi, value_text(metric, v), va="center",
                        fontsize=7)
            ax.set_xlim(0, top * 1.3)
            if metric == "unfair_percent" and top > 50:
                ax.set_xticks(range(0, 101, 25))  # no tick past 100 %
            if metric == "worst_rho":
                ax.axvline(1.0, color="0.4", lw=0.8, ls="--")
            ax.set_title(title)
            ax.set_xlabel(axis.format(rho=rho))
            ax.grid(axis="y", visible=False)
        axes[0].set_yticks(y)
        axes[0].set_yticklabels(r.display)
        subfig.suptitle(scenario, fontweight="bold", fontsize=10)
    return fig


def draw_all(scenarios, out, name="cross_family"):
    """Draws the figure of `scenarios` ([(label, [paths], [trace folders])], parse_scenarios)
    into out/name.{png,pdf,csv}; returns the plotted rows."""
    st.apply_style()
    rows = pd.concat([scenario_rows(label, paths, folders) for label, paths, folders in scenarios],
                     ignore_index=True)
    fig = draw(rows)
    st.check_texts(fig)
    st.save(fig, rows, out, name)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", action="append", required=True, metavar="LABEL=RESULTS.h5",
                        help="a row of the figure: its label and a results file (repeatable)")
    parser.add_argument("--trace-folder", action="append", metavar="LABEL=FOLDER",
                        help="keep only that scenario's tasks whose trace is in FOLDER")
    parser.add_argument("--name", default="cross_family")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rows = draw_all(parse_scenarios(args.scenario, args.trace_folder), args.out, args.name)
    print(f"{os.path.join(args.out, args.name)}.png: {len(rows)} bars in "
          f"{rows.scenario.nunique()} scenario(s)")


if __name__ == "__main__":
    main()
