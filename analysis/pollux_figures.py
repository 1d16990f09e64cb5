#!/usr/bin/python3
"""The Pollux paper's simulator figures from adaptsim results files.

  /usr/bin/python3 analysis/pollux_figures.py pollux_jobload.h5 [pollux_interval.h5] --out DIR

Writes into DIR, each as PDF, PNG (200 dpi) and CSV (the plotted numbers):
  pollux_mean_jct_vs_load   average JCT (h; mean over workloads of each task's mean JCT, error
                            bar = std over workloads) against relative job load, one line per
                            policy, with the artifact's values (Pollux OSDI'21 Fig. 8a) dashed
  pollux_jct_cdf            JCT CDF per policy at load 1.0 (all workloads pooled; the lowest load
                            present when 1.0 is absent)
  pollux_interval           Pollux's average JCT against the scheduling interval (tasks with
                            several `interval_s` values), with the artifact's (Fig. 8b)
The artifact's values are read from experiments/paper_numbers.toml (--paper-numbers). Only tasks
with status "ok" count. Load is read from the workload folder: workloads-0.5 / workloads (1.0) /
workloads-1.5 / workloads-2.0.
"""
import argparse
import json
import os
import re
import sys
import tomllib

import h5py
import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adaptsim_style as st  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

POLICIES = ["pollux", "optimus", "tiresias"]
DEFAULT_NUMBERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "experiments",
                               "paper_numbers.toml")


def load_of(trace):
    """Relative job load of a workload path (the folder name; plain `workloads/` is 1.0)."""
    match = re.search(r"workloads-([0-9.]+)/", trace)
    return float(match.group(1)) if match else 1.0


def interval_of(options_json):
    """The task's scheduling interval in s (`interval_s`, default 60)."""
    return float((json.loads(options_json) if options_json else {}).get("interval_s", 60.0))


def artifact_values(path):
    """(jobload {policy: {load: h}}, interval {seconds: h}) from the paper numbers file."""
    with open(path, "rb") as f:
        numbers = tomllib.load(f).get("number", [])
    jobload, interval = {}, {}
    for n in numbers:
        if n.get("sweep") == "pollux_jobload" and n.get("kind") == "mean":
            jobload.setdefault(n["policy"], {})[float(n["load"])] = float(n["value"])
        if n.get("sweep") == "pollux_interval" and n.get("kind") == "mean":
            interval[float(n["interval_s"])] = float(n["value"])
    return jobload, interval


def read(paths):
    """(summary of ok tasks of the three policies, per-job JCTs of completed jobs).

    A task in several files (the job-load sweep's load-1 Pollux runs are the interval sweep's
    1-min runs: same configuration, same task id) counts once, from the first file that has it.
    """
    frames, jcts, seen = [], [], set()
    for path in paths:
        with h5py.File(path, "r") as f:
            g = f["summary"]
            summary = pd.DataFrame(
                {k: g[k].asstr()[:] if g[k].dtype.kind in "OS" else g[k][:] for k in g})
            summary = summary[(summary.status == "ok") & summary.policy.isin(POLICIES)
                              & ~summary.task_id.isin(seen)].copy()
            seen.update(summary.task_id)
            summary["load"] = summary.trace.map(load_of)
            summary["interval_s"] = summary.policy_options.map(interval_of)
            summary["file"] = path
            for row in summary.itertuples():
                jobs = f["tasks"][row.task_id]["jobs"]
                done = jobs["outcome"].asstr()[:] == "completed"
                for jct in jobs["jct_s"][:][done]:
                    jcts.append((row.policy, row.load, row.interval_s, row.trace, row.seed,
                                 row.num_jobs, row.num_gpus, float(jct)))
        frames.append(summary)
    summary = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return summary, pd.DataFrame(
        jcts, columns=["policy", "load", "interval_s", "trace", "seed", "num_jobs", "num_gpus",
                       "jct_s"])


def jobload_table(summary, artifact):
    table = (summary.groupby(["policy", "load"]).mean_jct_s.agg(["mean", "std", "count"])
             .reset_index())
    table["mean_jct_h"] = table["mean"] / 3600
    table["artifact_h"] = [artifact.get(p, {}).get(l, np.nan)
                           for p, l in zip(table.policy, table.load)]
    table["delta_percent"] = 100 * (table.mean_jct_h / table.artifact_h - 1)
    return table


def ordered(policies):
    return sorted(policies, key=lambda p: st.policy_rank(st.display_name(p)))


def scenario_of(summary):
    """'160 jobs · 64 GPUs' style title part of the tasks at load 1.0 (or all)."""
    d = summary[summary.load == 1.0] if (summary.load == 1.0).any() else summary
    jobs = sorted(d.num_jobs.unique())
    gpus = sorted(d.num_gpus.unique())
    return st.scenario_label("/".join(str(j) for j in jobs), "/".join(str(g) for g in gpus))


def jobload_figure(summary, artifact):
    """Average JCT against load per policy (adaptsim solid, artifact dashed)."""
    table = jobload_table(summary, artifact)
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    for policy in ordered(table.policy.unique()):
        rows = table[table.policy == policy].sort_values("load")
        name = st.display_name(policy)
        colour, marker = st.style(name)
        ax.errorbar(rows["load"], rows["mean_jct_h"], yerr=rows["std"].fillna(0) / 3600,
                    marker=marker, capsize=3, label=f"{name} (adaptsim)", color=colour)
        ref = artifact.get(policy, {})
        if ref:
            ax.plot(list(ref), list(ref.values()), "--", color=colour, marker=marker,
                    mfc="none", alpha=0.8, label=f"{name} (artifact)")
    ax.set_xlabel("relative job load")
    ax.set_ylabel("average JCT (h)")
    loads = set(table.load) | {l for ref in artifact.values() for l in ref}
    ax.set_xticks(sorted(loads), [st.number(l) for l in sorted(loads)])
    handles, names = ax.get_legend_handles_labels()
    order = sorted(range(len(names)), key=lambda i: (st.policy_rank(names[i].split(" (")[0]),
                                                     "artifact" in names[i]))
    ax.legend([handles[i] for i in order], [names[i] for i in order], frameon=False, fontsize=7)
    ax.set_title("Pollux workloads · 16 nodes × 4 GPUs")
    return fig, table


def jct_cdf_figure(jcts):
    loads = sorted(jcts.load.unique())
    load = 1.0 if 1.0 in loads else (loads[0] if loads else 1.0)
    rows = jcts[(jcts.load == load) & (jcts.interval_s == 60.0)]
    if rows.empty:
        rows = jcts[jcts.load == load]
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    for policy in ordered(rows.policy.unique()):
        values = np.sort(rows[rows.policy == policy].jct_s.to_numpy()) / 3600
        name = st.display_name(policy)
        colour, _ = st.style(name)
        ax.plot(values, np.arange(1, len(values) + 1) / len(values), label=name, color=colour)
    ax.set_xscale("log")
    ax.set_xlabel("JCT (h, log scale)")
    ax.set_ylabel("fraction of jobs")
    traces = rows.trace.nunique()
    ax.set_title(f"JCT CDF · load {st.number(load)} · {traces} workloads" if traces > 1 else
                 f"JCT CDF · load {st.number(load)} · {scenario_of(rows)}")
    if len(rows):
        ax.legend(frameon=False, loc="lower right")
    return fig, rows.reset_index(drop=True), load


def interval_figure(summary, artifact):
    d = summary[summary.policy == "pollux"]
    table = (d.groupby("interval_s").mean_jct_s.agg(["mean", "std", "count"]).reset_index())
    table["interval_min"] = table.interval_s / 60
    table["mean_jct_h"] = table["mean"] / 3600
    table["artifact_h"] = [artifact.get(s, np.nan) for s in table.interval_s]
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    colour, marker = st.style("Pollux")
    ax.errorbar(table.interval_min, table.mean_jct_h, yerr=table["std"].fillna(0) / 3600,
                marker=marker, color=colour, capsize=3, label="Pollux (adaptsim)")
    if table["count"].nunique() > 1:  # a partial sweep: say how many workloads each point averages
        for _, row in table.iterrows():
            ax.annotate(f"n={int(row['count'])}", (row.interval_min, row.mean_jct_h),
                        textcoords="offset points", xytext=(6, -12), fontsize=7, color=colour)
    if artifact and (d.load == 1.0).all():  # the artifact's runs are at load 1.0
        ax.plot([s / 60 for s in artifact], list(artifact.values()), "--", marker=marker,
                mfc="none", color=colour, alpha=0.8, label="Pollux (artifact)")
    ax.set_xscale("log", base=2)
    ticks = sorted(set(table.interval_min) | ({s / 60 for s in artifact}
                                              if (d.load == 1.0).all() else set()))
    ax.set_xticks(ticks, [st.number(m) for m in ticks])
    ax.minorticks_off()
    ax.set_xlabel(st.option_axis("interval_s") + ", log scale")
    ax.set_ylabel("average JCT (h)")
    ax.set_title("Scheduling interval · " + scenario_of(d))
    ax.legend(frameon=False)
    return fig, table


def draw_all(paths, out, numbers=DEFAULT_NUMBERS):
    """Draws every applicable figure; returns the names written."""
    st.apply_style()
    summary, jcts = read(paths)
    if summary.empty:
        raise SystemExit(f"{', '.join(paths)}: no ok task of {', '.join(POLICIES)}")
    jobload, interval = artifact_values(numbers)
    written = []
    at_60 = summary[summary.interval_s == 60.0]
    if at_60.load.nunique() > 1 or at_60.policy.nunique() > 1:
        fig, table = jobload_figure(at_60, jobload)
        st.save(fig, table, out, "pollux_mean_jct_vs_load")
        written.append("pollux_mean_jct_vs_load")
        fig, rows, _ = jct_cdf_figure(jcts)
        st.save(fig, rows, out, "pollux_jct_cdf")
        written.append("pollux_jct_cdf")
    pollux = summary[summary.policy == "pollux"]
    if pollux.interval_s.nunique() > 1:
        fig, table = interval_figure(pollux[pollux.load == 1.0] if (pollux.load == 1.0).any()
                                     else pollux, interval)
        st.save(fig, table, out, "pollux_interval")
        written.append("pollux_interval")
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+", help="results files (HDF5), read together")
    parser.add_argument("--out", default=".", help="output folder")
    parser.add_argument("--paper-numbers", default=DEFAULT_NUMBERS,
                        help="the artifact's values (experiments/paper_numbers.toml)")
    args = parser.parse_args()
    written = draw_all(args.results, args.out, args.paper_numbers)
    print(f"figures written to {args.out}: {', '.join(written)}")


if __name__ == "__main__":
    main()
