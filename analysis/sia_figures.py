#!/usr/bin/python3
"""Figures of Sia's evaluation (SOSP'23) from the results files of `adaptsim reproduce sia`
(docs/reproduction.md "Sia"):

  /usr/bin/python3 analysis/sia_figures.py [--table3 sia_table3.h5]
      [--arrival-rate sia_arrival_rate.h5] [--policy-runtime sia_policy_runtime.h5]
      [--table4 sia_table4.h5] [--fig8 sia_fig8.h5]
      [--paper-numbers experiments/paper_numbers.toml] --out figures/

  sia_table3          Table 3 as bars: average JCT, p99 JCT, makespan (h) and GPU-hours per job
                      per trace family (Philly, Helios, newTrace) and policy; bar = adaptsim (mean
                      over the workloads, error bar = std; p99 pooled), black mark = the paper's
                      value (error bar = the paper's ±)
  sia_table4          Table 4 (64 T4, Philly) as bars: the same four quantities per policy;
                      bar = adaptsim (mean over the workloads, error bar = std; p99 pooled),
                      black mark = the paper's value (stated without a spread)
  sia_fig8            Fig. 8 (Helios, mixed cluster): CDF of every job's finish-time fairness rho
                      (Eq. 3, ftf_rho_type_weighted from the isolated runs) per policy, pooled
                      over the workloads, log x, rho = 1 marked; right: worst rho and unfair
                      fraction (rho > 1) per policy, bar = adaptsim, black mark = the paper's
  sia_arrival_rate    Fig. 7: average JCT (h) against the arrival rate (jobs/h), one line per
                      policy (mean over the 10 workloads, band = min-max); right: Pollux's average
                      JCT above Sia's (Pollux / Sia - 1, %) per rate beside the paper's 50-65 %
                      band and its plotted points
  sia_policy_runtime  Fig. 9: policy runtime per optimisation (s, log) against cluster size (GPUs,
                      log 2), per policy: the median over each task's optimisations, error bar up
                      to its 95th percentile; the paper's statements as marks

Each figure is written as PNG, PDF and CSV (the plotted numbers). Policies carry the Sia paper's
names (labels.toml: Sia, Pollux, Gavel+TJ, Themis+TJ) and their colours. Metrics follow the
Sia artifact's utils/print_run_stats.py (analysis/reproduction_report.py computes the same values
for the report): JCTs pooled over the workloads of a family, p99 = element int(0.99 n) of the
sorted pooled JCTs, makespan = last completion - first submission per workload.
"""
import argparse
import math
import os
import sys
import tomllib

import matplotlib.pyplot as plt
import matplotlib.ticker as ticker
from matplotlib.patches import Patch
import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adaptsim_style as st  # noqa: E402
import results_columns as rr  # noqa: E402

POLICIES = ["sia", "pollux_unaware", "shockwave_tj", "gavel_tj", "themis_tj"]
FAMILIES = {"philly": "Philly", "saturn": "Helios", "newtrace": "newTrace"}
# Fig. 7's plotted points as Pollux / Sia average JCT per arrival rate (jobs/h), read from the
# paper PDF's vector data (docs/reproduction.md, "Fig. 7 at full size"; experiments/
# paper_numbers.toml, the fig7 notes).
FIG7_POLLUX_OVER_SIA = {10: 1.54, 20: 1.52, 30: 1.61, 40: 1.66, 50: 1.56}
TABLE3_METRICS = [("mean_jct_s", "avg JCT (h)", 1 / 3600),
                  ("p99_jct_pooled_s", "p99 JCT (h)", 1 / 3600),
                  ("makespan_from_first_submission_s", "makespan (h)", 1 / 3600),
                  ("gpu_hours_per_job", "GPU-hours per job", 1.0)]
# Table 4's [[reported]] keys (paper numbers file) -> the metric and its unit in the file
TABLE4_KEYS = {"avg_jct_h": ("mean_jct_s", 3600.0), "p99_jct_h": ("p99_jct_pooled_s", 3600.0),
               "makespan_h": ("makespan_from_first_submission_s", 3600.0),
               "gpu_hours_per_job": ("gpu_hours_per_job", 1.0)}
NUMBER_KEYS = {"mean_jct_s": "avg_jct", "makespan_from_first_submission_s": "makespan",
               "gpu_hours_per_job": "gpu_hours_per_job"}


def name(policy):
    """The Sia paper's name of a registry name: its display name (labels.toml: Sia, Pollux for
    pollux_unaware, Gavel+TJ), or a [paper_names.sia] entry where one is declared."""
    return st.paper_name(policy, "sia")


def look(policy):
    return st.style(st.display_name(policy))


def ordered(policies):
    return [p for p in POLICIES if p in set(policies)] + sorted(set(policies) - set(POLICIES))


def paper_table3(numbers_path):
    """{(family, policy, metric): (value, ±)} of Table 3 from the paper numbers file, in the
    metric's own unit (s for times; the "within" numbers carry value and tolerance = std /
    mean)."""
    with open(numbers_path, "rb") as f:
        numbers = tomllib.load(f).get("number", [])
    out = {}
    for n in numbers:
        if n.get("sweep") == "sia_table3" and n.get("kind") == "mean":
            unit = 3600.0 if n.get("unit") == "h" else 1.0
            value = float(n["value"]) * unit
            out[(n["trace_folder"], n["policy"], n["metric"])] = (
                value, value * float(n["tolerance"]))
    return out


def table3_rows(path):
    """One row per (family, policy): adaptsim's Table 3 quantities (s or GPU-h) with their std
    over the workloads (the p99 is pooled: no std), the tasks and the mean / max contention."""
    df, _ = rr.summary(path)
    for metric in ("makespan_from_first_submission_s",):
        df = rr.with_metric(df, path, metric)
    d = df[df.status == "ok"]
    rows = []
    for family in FAMILIES:
        for policy in ordered(d.policy.unique()):
            t = d[(d.trace_folder == family) & (d.policy == policy)]
            if len(t) == 0:
                continue
            row = dict(family=family, policy=policy, tasks=len(t),
                       p99_jct_pooled_s=rr.pooled_p99(path, t.task_id),
                       mean_contention=float(t.mean_contention.mean()),
                       max_contention=int(t.max_contention.max()))
            for metric, _, _ in TABLE3_METRICS:
                if metric != "p99_jct_pooled_s":
                    row[metric] = float(t[metric].mean())
                    row[metric + "_std"] = (float(t[metric].std(ddof=0)) if len(t) > 1
                                            else math.nan)
            rows.append(row)
    return pd.DataFrame(rows)


def table3_figure(rows, paper, reported):
    families = [f for f in FAMILIES if f in set(rows.family)]
    policies = ordered(rows.policy.unique())
    fig, axes = plt.subplots(1, len(TABLE3_METRICS), figsize=(3.0 * len(TABLE3_METRICS), 2.9))
    width = 0.8 / max(len(policies), 1)
    data = []
    for ax, (metric, label, scale) in zip(axes, TABLE3_METRICS):
        for i, policy in enumerate(policies):
            colour, _ = look(policy)
            xs, ys, errs, pys, perrs = [], [], [], [], []
            for k, family in enumerate(families):
                r = rows[(rows.family == family) & (rows.policy == policy)]
                if len(r) == 0:
                    continue
                x = k + (i - (len(policies) - 1) / 2) * width
                y = float(r[metric].iloc[0]) * scale
                err = float(r.get(metric + "_std", pd.Series([np.nan])).iloc[0]) * scale
                pv, pe = paper.get((family, policy, metric), (np.nan, np.nan))
                if metric == "p99_jct_pooled_s":
                    pv = reported.get((family, policy), {}).get("p99_jct_h", np.nan) * 3600
                pv, pe = pv * scale, pe * scale
                xs.append(x), ys.append(y), errs.append(err), pys.append(pv), perrs.append(pe)
                data.append(dict(metric=metric, family=family, policy=name(policy), adaptsim=y,
                                 adaptsim_std=err, paper=pv, paper_std=pe))
            finite = [e for e in errs if np.isfinite(e)]
            ax.bar(xs, ys, width, color=colour, label=name(policy),
                   yerr=[e if np.isfinite(e) else 0 for e in errs] if finite else None,
                   capsize=2, error_kw=dict(lw=0.8))
            ax.errorbar(xs, pys, yerr=[e if np.isfinite(e) else 0 for e in perrs], fmt="_",
                        color="black", ms=9, mew=1.6, lw=0.8, capsize=2,
                        label="paper" if i == 0 else None)
        ax.grid(axis="x", visible=False)
        ax.set_xticks(range(len(families)))
        ax.set_xticklabels([FAMILIES[f] for f in families])
        ax.set_title(label)
        ax.set_ylim(bottom=0)
    handles, labels = axes[0].get_legend_handles_labels()
    order = [i for i, label in enumerate(labels) if label != "paper"] + \
        [i for i, label in enumerate(labels) if label == "paper"]
    handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    fig.legend(handles, labels, frameon=False, loc="lower center", ncol=len(labels))
    fig.suptitle("Table 3 · 64 GPUs · T4, RTX, A100")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig, pd.DataFrame(data)


def paper_reported(numbers_path):
    """{(family, policy): {p99_jct_h, mean_contention, max_contention}} of Table 3: the values
    the paper states without a spread (paper numbers file, [[reported]])."""
    with open(numbers_path, "rb") as f:
        reported = tomllib.load(f).get("reported", [])
    return {(r["trace_folder"], r["policy"]): r for r in reported
            if r.get("sweep") == "sia_table3"}


def paper_table4(numbers_path):
    """Table 4 of the paper numbers file ([[reported]] entries of sweep sia_table4), in the
    paper's order: [(policy, shown name, {metric: value in the metric's unit (s, GPU-h)})]. A
    policy that is not a registry name carries its `paper_name`."""
    with open(numbers_path, "rb") as f:
        reported = tomllib.load(f).get("reported", [])
    out = []
    for r in reported:
        if r.get("sweep") != "sia_table4":
            continue
        values = {metric: float(r[key]) * unit for key, (metric, unit) in TABLE4_KEYS.items()
                  if key in r}
        out.append((r["policy"], r.get("paper_name", name(r["policy"])), values))
    return out


def table4_figure(rows, paper):
    """One panel per Table 3 quantity, the policies side by side: bar = adaptsim (error bar =
    std over the workloads), black mark = the paper's value."""
    policies = ordered(rows.policy.unique())
    stated = {policy: values for policy, _, values in paper}
    fig, axes = plt.subplots(1, len(TABLE3_METRICS), figsize=(3.0 * len(TABLE3_METRICS), 2.9))
    data = []
    for ax, (metric, label, scale) in zip(axes, TABLE3_METRICS):
        for k, policy in enumerate(policies):
            r = rows[rows.policy == policy]
            y = float(r[metric].iloc[0]) * scale
            err = float(r.get(metric + "_std", pd.Series([np.nan])).iloc[0]) * scale
            pv = stated.get(policy, {}).get(metric, np.nan) * scale
            ax.bar([k], [y], 0.7, color=look(policy)[0],
                   yerr=[err] if np.isfinite(err) else None, capsize=2,
                   error_kw=dict(lw=0.8))
            ax.plot([k], [pv], "_", color="black", ms=14, mew=1.8,
                    label="paper" if k == 0 else None)
            data.append(dict(metric=metric, policy=name(policy), workloads=int(r.tasks.iloc[0]),
                             adaptsim=y, adaptsim_std=err, paper=pv))
        ax.grid(axis="x", visible=False)
        ax.set_xticks(range(len(policies)))
        ax.set_xticklabels([name(p) for p in policies], rotation=30, ha="right")
        ax.set_title(label)
        ax.set_ylim(bottom=0)
    handles, labels = axes[0].get_legend_handles_labels()
    handles = [Patch(facecolor="0.75", label="adaptsim")] + handles
    fig.legend(handles, ["adaptsim"] + labels, frameon=False, loc="upper right", ncol=2)
    fig.suptitle("Table 4 · 64 GPUs · T4 · Philly")
    fig.tight_layout()
    return fig, pd.DataFrame(data)


def paper_fig8(numbers_path):
    """Fig. 8 of the paper numbers file ([[reported]] entries of sweep sia_fig8), in the paper's
    order: [(policy, shown name, {"worst_rho": .., "unfair_fraction": ..})]."""
    with open(numbers_path, "rb") as f:
        reported = tomllib.load(f).get("reported", [])
    return [(r["policy"], r.get("paper_name", name(r["policy"])),
             {k: float(r[k]) for k in ("worst_rho", "unfair_fraction") if k in r})
            for r in reported if r.get("sweep") == "sia_fig8"]


def fig8_rhos(path):
    """{policy: (tasks, ρ of every completed job of its ok tasks)}: the jobs'
    ftf_rho_type_weighted (Sia's ρ, Eq. 3, docs/sia.md §12), pooled over the workloads."""
    df, _ = rr.summary(path)
    d = df[df.status == "ok"]

    def rhos(task):
        jobs = task["jobs"]
        outcome = jobs["outcome"].asstr()[:]
        return jobs["ftf_rho_type_weighted"][:][outcome == "completed"]
    values = rr.task_values(path, d.task_id, rhos)
    out = {}
    for policy in ordered(d.policy.unique()):
        ids = d.task_id[d.policy == policy]
        out[policy] = (len(ids), np.concatenate([values[t] for t in ids]))
    return out


def fig8_summary(rhos):
    """Worst ρ, unfair fraction #(ρ > 1) / #(ρ > 0) (`sia-simulator/utils/print_run_stats.py:
    254-255`), mean and median ρ of a pooled array."""
    positive = rhos[rhos > 0]
    return dict(jobs=len(rhos), worst_rho=float(rhos.max()) if len(rhos) else np.nan,
                unfair_fraction=float((rhos > 1).sum() / len(positive)) if len(positive)
                else np.nan,
                mean_rho=float(rhos.mean()) if len(rhos) else np.nan,
                median_rho=float(np.median(rhos)) if len(rhos) else np.nan)


def fig8_figure(rhos, paper):
    """Left: the CDF of ρ per policy (log x, ρ = 1 dashed); middle and right: worst ρ (log) and
    the unfair fraction per policy, bar = adaptsim, black mark = the paper's value (a policy of the
    paper without tasks: its mark alone)."""
    stated = {policy: values for policy, _, values in paper}
    shown = {policy: label for policy, label, _ in paper}
    fig, (ax, wx, ux) = plt.subplots(1, 3, figsize=(10.0, 3.9),
                                     gridspec_kw=dict(width_ratios=[1.6, 1, 1]))
    data = []
    for policy, (tasks, r) in rhos.items():
        colour, marker = look(policy)
        s = fig8_summary(r)
        x = np.sort(r[r > 0])
        y = np.arange(1, len(x) + 1) / len(x)
        ax.step(x, y, where="post", color=colour,
                label=f"{name(policy)}: worst {s['worst_rho']:.1f}, "
                      f"{100 * s['unfair_fraction']:.1f} % > 1")
        data.append(dict(policy=name(policy), workloads=tasks, **s,
                         paper_worst_rho=stated.get(policy, {}).get("worst_rho", np.nan),
                         paper_unfair_fraction=stated.get(policy, {}).get("unfair_fraction",
                                                                          np.nan)))
    ax.axvline(1.0, color="0.4", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: st.number(v)))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.set_xlabel("finish-time fairness ρ (Eq. 3)")
    ax.set_ylabel("fraction of jobs")
    ax.set_ylim(0, 1.02)
    ax.set_title("Fig. 8 · ρ CDF · Helios · 64 GPUs mixed")
    # below the axes: the curves cross every corner of the plot
    ax.legend(frameon=False, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
    policies = ordered(set(rhos) | set(stated))
    for bx, key, label, scale in ((wx, "worst_rho", "worst ρ (log)", 1.0),
                                  (ux, "unfair_fraction", "unfair jobs, ρ > 1 (%)", 100.0)):
        for k, policy in enumerate(policies):
            if policy in rhos:
                bx.bar([k], [fig8_summary(rhos[policy][1])[key] * scale], 0.7,
                       color=look(policy)[0])
            pv = stated.get(policy, {}).get(key, np.nan) * scale
            bx.plot([k], [pv], "_", color="black", ms=14, mew=1.8,
                    label="paper" if k == 0 else None)
        bx.set_xticks(range(len(policies)))
        bx.set_xticklabels([shown.get(p, name(p)) + ("" if p in rhos else " (not run)")
                            for p in policies], rotation=30, ha="right")
        bx.grid(axis="x", visible=False)
        bx.set_title(label)
        bx.set_ylim(bottom=0)
    # worst ρ spans 1 to tens: a log axis from 0.5, ρ = 1 dashed
    wx.set_yscale("log")
    tallest = max([fig8_summary(r)["worst_rho"] for _, r in rhos.values()]
                  + [v.get("worst_rho", 1.0) for v in stated.values()])
    wx.set_ylim(0.5, 2.0 * tallest)
    wx.axhline(1.0, color="0.4", lw=0.8, ls="--")
    wx.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: st.number(v)))
    wx.yaxis.set_minor_formatter(ticker.NullFormatter())
    wx.legend(frameon=False, fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig, pd.DataFrame(data)


def rate_of(folder):
    return float(folder.split("_")[1]) if folder.startswith("rate_") else np.nan


def arrival_rate_figure(path):
    df, _ = rr.summary(path)
    d = df[df.status == "ok"].copy()
    d["rate"] = d.trace_folder.map(rate_of)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(7.5, 2.9))
    data = []
    for policy in ordered(d.policy.unique()):
        colour, marker = look(policy)
        g = d[d.policy == policy].groupby("rate").mean_jct_s
        mean, lo, hi = g.mean() / 3600, g.min() / 3600, g.max() / 3600
        ax.plot(mean.index, mean.values, marker=marker, color=colour, label=name(policy))
        ax.fill_between(mean.index, lo.values, hi.values, color=colour, alpha=0.15, lw=0)
        for rate in mean.index:
            data.append(dict(panel="mean_jct_h", policy=name(policy), rate=rate,
                             value=mean[rate], low=lo[rate], high=hi[rate],
                             tasks=int(g.count()[rate])))
    ax.set_xlabel("arrival rate (jobs/h)")
    ax.set_ylabel("average JCT (h)")
    ax.set_title("Fig. 7 · 64 GPUs")
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False)
    if {"sia", "pollux_unaware"} <= set(d.policy):
        means = d.groupby(["rate", "policy"]).mean_jct_s.mean().unstack()
        # "Sia outperforms Pollux by 50-65 %" is Pollux's JCT above Sia's, Pollux / Sia - 1:
        # the paper's own points (FIG7_POLLUX_OVER_SIA) give 52-66 % (docs/reproduction.md).
        above = 100 * (means["pollux_unaware"] / means["sia"] - 1)
        bx.axhspan(50, 65, color="0.85", label="paper: 50-65 %")
        bx.plot(list(FIG7_POLLUX_OVER_SIA), [100 * (v - 1) for v in FIG7_POLLUX_OVER_SIA.values()],
                "k_", ms=12, mew=2, ls="none", label="paper's points")
        bx.plot(above.index, above.values, marker=look("sia")[1], color=look("sia")[0],
                label="adaptsim")
        for rate, value in above.items():
            data.append(dict(panel="pollux_above_sia_percent", policy="Pollux vs Sia", rate=rate,
                             value=value, low=np.nan, high=np.nan, tasks=np.nan))
        bx.set_ylim(0, 100)
        bx.legend(frameon=False, loc="lower right")
    bx.set_xlabel("arrival rate (jobs/h)")
    bx.set_ylabel("Pollux's avg JCT above Sia's (%)")
    bx.set_title("Sia vs Pollux")
    fig.tight_layout()
    return fig, pd.DataFrame(data)


def gpus_of(cluster):
    """GPUs of a Sia cluster text, whose counts are nodes on the interval engine (docs/sia.md §5):
    the node sizes of the Sia artifact's GPU types (simulator_config.py: aws and quad 4 GPUs per
    node, the others 8)."""
    per_node = {"aws": 4, "rtx": 8, "dgx-ext": 8, "dgx": 8, "azure": 8, "quad": 4}
    return sum(per_node[t] * int(n) for t, n in (part.split("=") for part in cluster.split(",")))


def policy_runtime_figure(path):
    df, _ = rr.summary(path)
    for stat in ("median", "p95"):
        df = rr.with_metric(df, path, f"statistic.optimize_cpu_time_{stat}_s")
    d = df[df.status.isin(["ok", "timeout"])].copy()
    d["gpus"] = d.cluster.map(gpus_of)
    fig, ax = plt.subplots(figsize=(4.2, 3.0))
    data = []
    for policy in ordered(d.policy.unique()):
        colour, marker = look(policy)
        t = d[d.policy == policy].sort_values("gpus")
        median = t["statistic.optimize_cpu_time_median_s"]
        p95 = t["statistic.optimize_cpu_time_p95_s"]
        ax.errorbar(t.gpus, median, yerr=[np.zeros(len(t)), (p95 - median).clip(lower=0)],
                    marker=marker, color=colour, capsize=2, label=name(policy))
        for gpus, cluster, m, p, rounds, status in zip(t.gpus, t.cluster, median, p95,
                                                        t.num_rounds, t.status):
            data.append(dict(policy=name(policy), gpus=gpus, cluster=cluster, median_s=m,
                             p95_s=p, rounds=rounds, status=status))
    # The paper's statements (§5.6): 64 GPUs, Sia median 96 ms, Pollux 2.2 s; 2,048 GPUs, Sia
    # about one second.
    ax.scatter([64, 2048], [0.096, 1.0], marker="x", color=look("sia")[0], zorder=3,
               label="paper: Sia")
    ax.scatter([64], [2.2], marker="x", color=look("pollux_unaware")[0], zorder=3,
               label="paper: Pollux")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    # plain numbers on the log axis ("0.01", "1"), not mathtext powers of ten
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: st.number(v)))
    ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    ticks = sorted(set(d.gpus) | {64, 2048})
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(int(t)) for t in ticks])
    ax.set_xlabel("cluster size (GPUs)")
    ax.set_ylabel("runtime per optimisation (s)")
    ax.set_title("Fig. 9 · policy runtime (CPU)")
    ax.legend(frameon=False, fontsize=7)
    fig.tight_layout()
    return fig, pd.DataFrame(data)


DEFAULT_NUMBERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "experiments",
                               "paper_numbers.toml")


def draw_all(table3, arrival_rate, policy_runtime, out, numbers=DEFAULT_NUMBERS, table4=None,
             fig8=None):
    """Draws the figures whose results file is given (None: skipped); returns their names."""
    st.apply_style()
    written = []
    if table3:
        rows = table3_rows(table3)
        if len(rows):
            fig, data = table3_figure(rows, paper_table3(numbers), paper_reported(numbers))
            st.check_texts(fig)
            st.save(fig, data, out, "sia_table3")
            written.append("sia_table3")
    if arrival_rate:
        fig, data = arrival_rate_figure(arrival_rate)
        st.check_texts(fig)
        st.save(fig, data, out, "sia_arrival_rate")
        written.append("sia_arrival_rate")
    if policy_runtime:
        fig, data = policy_runtime_figure(policy_runtime)
        st.check_texts(fig)
        st.save(fig, data, out, "sia_policy_runtime")
        written.append("sia_policy_runtime")
    if table4:
        rows = table3_rows(table4)
        if len(rows):
            fig, data = table4_figure(rows, paper_table4(numbers))
            st.check_texts(fig)
            st.save(fig, data, out, "sia_table4")
            written.append("sia_table4")
    if fig8:
        rhos = fig8_rhos(fig8)
        if rhos:
            fig, data = fig8_figure(rhos, paper_fig8(numbers))
            st.check_texts(fig)
            st.save(fig, data, out, "sia_fig8")
            written.append("sia_fig8")
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table3")
    parser.add_argument("--arrival-rate")
    parser.add_argument("--policy-runtime")
    parser.add_argument("--table4")
    parser.add_argument("--fig8")
    parser.add_argument("--paper-numbers", default=DEFAULT_NUMBERS)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    names = draw_all(args.table3, args.arrival_rate, args.policy_runtime, args.out,
                     args.paper_numbers, args.table4, args.fig8)
    print(f"{args.out}: {', '.join(names) or 'no figure (no results file given)'}")


if __name__ == "__main__":
    main()
