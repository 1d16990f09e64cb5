#!/usr/bin/python3
"""The Pollux paper's simulator figures from adaptsim results files.

  /usr/bin/python3 analysis/pollux_figures.py pollux_jobload.h5 [pollux_interval.h5]
      [pollux_realistic.h5] [pollux_fairness.h5] --out DIR

Writes into DIR, each as PDF, PNG (200 dpi) and CSV (the plotted numbers):
  pollux_mean_jct_vs_load   average JCT (h; mean over workloads of each task's mean JCT, error
                            bar = std over workloads) against relative job load, one line per
                            policy, with the artifact's values (Pollux OSDI'21 Fig. 8a) dashed
  pollux_jct_cdf            JCT CDF per policy at load 1.0 (all workloads pooled; the lowest load
                            present when 1.0 is absent)
  pollux_interval           Pollux's average JCT against the scheduling interval (tasks with
                            several `interval_s` values), with the artifact's (Fig. 8b)
  pollux_realistic_mean_jct average JCT (h) per policy with TunedJobs and with realistic job
                            configurations (Pollux OSDI'21 §5.2, Table 2), bar = mean over
                            workloads, error bar = std; Pollux's reduction against each baseline
  pollux_realistic_jct_cdf  JCT CDF per policy on the realistic workloads (solid) and on the
                            TunedJobs ones (dashed), load 1, all workloads pooled
  pollux_fairness           the fairness knob: Pollux's average and p99 JCT, makespan, worst FTF
                            ρ, unfair fraction (ρ > 1.05) and GPU-hours per job against the
                            fitness exponent p, one row per load; line = mean over workloads,
                            band = min-max over workloads; the paper's p = -1 marked
The artifact's values are read from experiments/paper_numbers.toml (--paper-numbers). Only tasks
with status "ok" count; a task in several files counts once. Load is read from the workload
folder: workloads-0.5 / workloads (1.0) / workloads-1.5 / workloads-2.0; workloads-realistic
holds the realistic configurations (load 1.0), every other folder the TunedJobs ones. The figures
of the paper's configuration (load, interval, TunedJobs) use Pollux's tasks with p = -1 (the
paper's; also a task without `p`, whose default it is) and the baselines; the realistic ones the
tasks at load 1 and a 60 s interval; the fairness figure Pollux's TunedJobs tasks at a 60 s
interval, every p. Metric names and axis labels: analysis/labels.toml ([[metric]],
[[figure_metric]], whose `derived` defines GPU-hours per job).
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
from matplotlib.patches import Patch  # noqa: E402

POLICIES = ["pollux", "optimus", "tiresias"]
TUNED, REALISTIC = "TunedJobs", "Realistic"  # job configurations, as the paper names them
PAPER_P = -1.0  # Pollux's fitness exponent in the paper's evaluation (and the option's default)
DEFAULT_NUMBERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "experiments",
                               "paper_numbers.toml")


def load_of(trace):
    """Relative job load of a workload path (the folder name; plain `workloads/` is 1.0)."""
    match = re.search(r"workloads-([0-9.]+)/", trace)
    return float(match.group(1)) if match else 1.0


def interval_of(options_json):
    """The task's scheduling interval in s (`interval_s`, default 60)."""
    return float((json.loads(options_json) if options_json else {}).get("interval_s", 60.0))


def config_of(trace):
    """The job configurations of a workload path: Realistic (workloads-realistic/) or TunedJobs."""
    return REALISTIC if "workloads-realistic/" in trace else TUNED


def p_of(options_json):
    """Pollux's fitness exponent p of a task (`p`, default -1; also -1 for the baselines, which
    have no p, so that they join the paper's configuration)."""
    return float((json.loads(options_json) if options_json else {}).get("p", PAPER_P))


def gpu_hours_per_job(summary):
    """GPU-hours per job of each task: the summary metric `gpu_hours_per_job` (results files of
    schema version 5 on); older files lack it, and it is derived as it was before: utilization
    (mean over GPUs of busy time / makespan) x GPUs x makespan, in hours, per job."""
    if "gpu_hours_per_job" in summary:
        return summary.gpu_hours_per_job
    return summary.utilization * summary.num_gpus * summary.makespan_s / 3600 / summary.num_jobs


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
            summary["config"] = summary.trace.map(config_of)
            summary["p"] = summary.policy_options.map(p_of)
            summary["gpu_hours_per_job"] = gpu_hours_per_job(summary)
            summary["file"] = path
            for row in summary.itertuples():
                jobs = f["tasks"][row.task_id]["jobs"]
                done = jobs["outcome"].asstr()[:] == "completed"
                for jct in jobs["jct_s"][:][done]:
                    jcts.append((row.policy, row.load, row.interval_s, row.config, row.p,
                                 row.trace, row.seed, row.num_jobs, row.num_gpus, float(jct)))
        frames.append(summary)
    summary = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return summary, pd.DataFrame(
        jcts, columns=["policy", "load", "interval_s", "config", "p", "trace", "seed", "num_jobs",
                       "num_gpus", "jct_s"])


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


def realistic_figure(summary):
    """Average JCT (h) per policy, TunedJobs beside Realistic (tasks at load 1, 60 s interval,
    Pollux with p = -1), and Pollux's reduction against each baseline with realistic
    configurations written over the baseline's bar."""
    table = (summary.groupby(["policy", "config"]).mean_jct_s.agg(["mean", "std", "count"])
             .reset_index())
    table["mean_jct_h"] = table["mean"] / 3600
    configs = [c for c in (TUNED, REALISTIC) if (table.config == c).any()]
    policies = ordered(table.policy.unique())
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    width = 0.8 / len(configs)
    for i, policy in enumerate(policies):
        name = st.display_name(policy)
        colour, _ = st.style(name)
        for k, config in enumerate(configs):
            row = table[(table.policy == policy) & (table.config == config)]
            if row.empty:
                continue
            x = i + (k - (len(configs) - 1) / 2) * width
            ax.bar(x, row.mean_jct_h.iloc[0], width, color=colour,
                   alpha=0.4 if config == TUNED else 1.0, hatch="//" if config == TUNED else None,
                   edgecolor="black", linewidth=0.5, yerr=row["std"].fillna(0).iloc[0] / 3600,
                   capsize=3, error_kw={"elinewidth": 0.8, "ecolor": "#555555"})
    realistic = table[table.config == REALISTIC].set_index("policy")
    reductions = []
    if "pollux" in realistic.index:
        top = ((table["mean"] + table["std"].fillna(0)) / 3600).max()
        for i, policy in enumerate(policies):
            if policy == "pollux" or policy not in realistic.index:
                continue
            reduction = 1 - realistic.loc["pollux", "mean"] / realistic.loc[policy, "mean"]
            reductions.append((policy, reduction))
            x = i + (len(configs) - 1) / 2 * width
            ax.text(x, realistic.loc[policy, "mean"] / 3600 / 2,
                    f"Pollux\n{100 * reduction:.0f} %\nlower", ha="center", va="center",
                    fontsize=7, color="white", fontweight="bold")
        # The paper's claim: a baseline with realistic configurations above this line has an
        # average JCT more than 70 % above Pollux's (Pollux OSDI'21 §5.2, Table 2).
        claim = realistic.loc["pollux", "mean"] / (1 - 0.70) / 3600
        ax.axhline(claim, color="black", lw=0.8, ls=":", label="Pollux / 0.3 (paper: >70 % lower)")
        top = max(top, claim)
        ax.set_ylim(0, top * 1.08)
    ax.set_xticks(range(len(policies)), [st.display_name(p) for p in policies])
    ax.grid(axis="x", visible=False)
    ax.set_ylabel(st.METRIC_LABELS["mean_jct_s"])
    handles = [Patch(facecolor="grey", alpha=0.4 if c == TUNED else 1.0,
                     hatch="//" if c == TUNED else None, edgecolor="black", linewidth=0.5,
                     label=f"{c} configurations") for c in configs]
    lines, _ = ax.get_legend_handles_labels()
    ax.legend(handles=handles + lines, frameon=False, fontsize=7, loc="upper center",
              bbox_to_anchor=(0.5, -0.1), ncol=2)
    ax.set_title("Configurations · " + scenario_of(summary))
    table["pollux_reduction"] = [dict(reductions).get(p, np.nan) if c == REALISTIC else np.nan
                                 for p, c in zip(table.policy, table.config)]
    return fig, table


def realistic_cdf_figure(jcts):
    """JCT CDF per policy on the realistic workloads (solid) and the TunedJobs ones (dashed)."""
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    for policy in ordered(jcts.policy.unique()):
        name = st.display_name(policy)
        colour, _ = st.style(name)
        for config, style in ((REALISTIC, "-"), (TUNED, "--")):
            values = np.sort(jcts[(jcts.policy == policy) & (jcts.config == config)]
                             .jct_s.to_numpy()) / 3600
            if len(values):
                ax.plot(values, np.arange(1, len(values) + 1) / len(values), style,
                        color=colour, label=f"{name} ({config})")
    ax.set_xscale("log")
    ax.set_xlabel("JCT (h, log scale)")
    ax.set_ylabel("fraction of jobs")
    traces = jcts[jcts.config == REALISTIC].trace.nunique()
    ax.set_title(f"JCT CDF · load 1 · {traces} workloads" if traces > 1 else
                 "JCT CDF · load 1 · " + scenario_of(jcts.assign(load=1.0)))
    ax.legend(frameon=False, loc="lower right", fontsize=6.5)
    return fig, jcts.reset_index(drop=True)


# The fairness figure's panels (labels.toml: [[metric]] and [[figure_metric]]).
FAIRNESS_METRICS = ["mean_jct_s", "p99_jct_s", "makespan_s", "worst_ftf_rho",
                    "unfair_fraction_1_05", "gpu_hours_per_job"]


def fairness_table(summary):
    """Per load and p: mean, min, max and n over workloads of every FAIRNESS_METRICS value."""
    rows = []
    for (load, p), d in summary.groupby(["load", "p"]):
        for m in FAIRNESS_METRICS:
            values = d[m].to_numpy(dtype=float)
            rows.append((load, int(d.num_jobs.iloc[0]), int(d.num_gpus.iloc[0]), p, m,
                         float(values.mean()), float(values.min()), float(values.max()),
                         len(values)))
    return pd.DataFrame(rows, columns=["load", "num_jobs", "num_gpus", "p", "metric", "mean",
                                       "min", "max", "n"])


def fairness_figure(summary):
    """Pollux's metrics against p, one row per load: mean line, min-max band over workloads.
    x: the p values evenly spaced from the largest (1: the sum of speedups, throughput) to the
    most negative (fairer); the paper's p = -1 dashed."""
    table = fairness_table(summary)
    loads = sorted(table.load.unique())
    ps = sorted(table.p.unique(), reverse=True)
    position = {p: i for i, p in enumerate(ps)}
    colour, marker = st.style("Pollux")
    counts = set(table.n)
    band = ("min–max over workloads" if len(counts) > 1 else
            f"min–max over {counts.pop()} workload" + ("s" if max(table.n) > 1 else ""))
    fig, axes = plt.subplots(len(loads), len(FAIRNESS_METRICS),
                             figsize=(2.6 * len(FAIRNESS_METRICS), 2.4 * len(loads) + 0.5),
                             squeeze=False)
    for r, load in enumerate(loads):
        for c, m in enumerate(FAIRNESS_METRICS):
            ax = axes[r][c]
            k = st.METRIC_SCALE.get(m, 1.0)
            g = table[(table.load == load) & (table.metric == m)].sort_values("p", ascending=False)
            x = [position[p] for p in g.p]
            ax.fill_between(x, g["min"] * k, g["max"] * k, color=colour, alpha=0.2, lw=0,
                            label=band)
            ax.plot(x, g["mean"] * k, marker=marker, color=colour, label="Pollux, mean")
            if len(counts) > 1:  # a partial sweep: how many workloads each point averages
                for xi, (_, row) in zip(x, g.iterrows()):
                    ax.annotate(f"n={int(row.n)}", (xi, row["mean"] * k), fontsize=6,
                                textcoords="offset points", xytext=(0, -10), ha="center",
                                color=colour)
            if PAPER_P in position:
                ax.axvline(position[PAPER_P], color="black", lw=0.8, ls="--",
                           label="the paper's p = −1")
            ax.set_xticks(range(len(ps)), [st.number(p) for p in ps], fontsize=7)
            ax.grid(axis="x", visible=False)
            ax.set_title(st.METRIC_TITLES[m])
            ax.set_ylabel(st.METRIC_LABELS[m])
        d = summary[summary.load == load]
        label = f"load {st.number(load)} · " + st.scenario_label(
            "/".join(str(j) for j in sorted(d.num_jobs.unique())),
            "/".join(str(g) for g in sorted(d.num_gpus.unique())))
        axes[r][0].annotate(label, xy=(0, 0.5), xycoords=axes[r][0].yaxis.label,
                            xytext=(-6, 0), textcoords="offset points", rotation=90,
                            va="center", ha="right", fontsize=9, fontweight="bold")
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.suptitle("Pollux's fairness knob p", y=1.01)
    fig.supxlabel(st.option_axis("p"), fontsize=9)
    fig.tight_layout()
    fig.legend(handles, names, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3,
               frameon=False)
    return fig, table


def draw_all(paths, out, numbers=DEFAULT_NUMBERS):
    """Draws every applicable figure; returns the names written."""
    st.apply_style()
    summary, jcts = read(paths)
    if summary.empty:
        raise SystemExit(f"{', '.join(paths)}: no ok task of {', '.join(POLICIES)}")
    jobload, interval = artifact_values(numbers)
    written = []
    # The paper's configuration: TunedJobs workloads, Pollux with p = -1.
    paper = summary[(summary.config == TUNED) & (summary.p == PAPER_P)]
    paper_jcts = jcts[(jcts.config == TUNED) & (jcts.p == PAPER_P)]
    at_60 = paper[paper.interval_s == 60.0]
    if at_60.load.nunique() > 1 or at_60.policy.nunique() > 1:
        fig, table = jobload_figure(at_60, jobload)
        st.save(fig, table, out, "pollux_mean_jct_vs_load")
        written.append("pollux_mean_jct_vs_load")
        fig, rows, _ = jct_cdf_figure(paper_jcts)
        st.save(fig, rows, out, "pollux_jct_cdf")
        written.append("pollux_jct_cdf")
    pollux = paper[paper.policy == "pollux"]
    if pollux.interval_s.nunique() > 1:
        fig, table = interval_figure(pollux[pollux.load == 1.0] if (pollux.load == 1.0).any()
                                     else pollux, interval)
        st.save(fig, table, out, "pollux_interval")
        written.append("pollux_interval")
    # Job configurations: load 1, 60 s interval, Pollux with p = -1; drawn when realistic
    # workloads ran.
    def configs(d):
        return d[(d.load == 1.0) & (d.interval_s == 60.0) & (d.p == PAPER_P)]
    if (summary.config == REALISTIC).any():
        fig, table = realistic_figure(configs(summary))
        st.save(fig, table, out, "pollux_realistic_mean_jct")
        written.append("pollux_realistic_mean_jct")
        fig, rows = realistic_cdf_figure(configs(jcts))
        st.save(fig, rows, out, "pollux_realistic_jct_cdf")
        written.append("pollux_realistic_jct_cdf")
    # The fairness knob: Pollux on the TunedJobs workloads at a 60 s interval, every p.
    knob = summary[(summary.policy == "pollux") & (summary.config == TUNED)
                   & (summary.interval_s == 60.0)]
    if knob.p.nunique() > 1:
        fig, table = fairness_figure(knob)
        st.save(fig, table, out, "pollux_fairness")
        written.append("pollux_fairness")
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
