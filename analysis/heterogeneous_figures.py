#!/usr/bin/python3
"""Figures of the heterogeneous-cluster study (docs/heterogeneous.md).

  /usr/bin/python3 analysis/heterogeneous_figures.py heterogeneous.h5 [gavel_job_rate.h5]
      --out DIR

heterogeneous.h5 (experiments/heterogeneous.toml): one panel per metric (rows: average JCT,
makespan, worst FTF ρ, utilization) and scenario (columns: jobs · GPUs); in each panel every
policy family as a pair of bars, heterogeneity-agnostic (hatched) and heterogeneity-aware (solid),
the policies with one form (Gandiva-Fair, AlloX, MST, Shockwave) as one bar; a cell whose every
task failed has no bar but a red × and "failed" (its row in the CSV: status and message). Writes
DIR/heterogeneous.{png,pdf,csv} and DIR/heterogeneous_ratios.csv (agnostic / aware per family,
scenario and metric; > 1 means the aware form is better for JCT, makespan and ρ).

gavel_job_rate.h5 (experiments/gavel_job_rate.toml, optional): Gavel's Fig. 8 shape, average JCT
of the steady-state jobs (the middle half of the trace by job id, Gavel's measurement window)
against the input job rate, one panel per policy family (LAS, FIFO) with its agnostic form dashed
and its aware form solid, named as Gavel's own figures name them ("LAS" vs "Gavel", "FIFO" vs
"Gavel": labels.toml [paper_names.gavel]). Writes DIR/gavel_job_rate.{png,pdf,csv}.

Display names, colours and metric texts come from analysis/labels.toml (adaptsim_style.py).
"""
import argparse
import os
import re
import sys

import h5py
import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adaptsim_style as st  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402

# Policy families: (heterogeneity-agnostic, heterogeneity-aware) registry names (Gavel §4; the
# reference's `policies/*.py`). A family is drawn when either form has results.
FAMILIES = [("fifo", "fifo_perf"), ("max_min_fairness", "max_min_fairness_perf"),
            ("finish_time_fairness", "finish_time_fairness_perf"),
            ("min_total_duration", "min_total_duration_perf")]
# Policies with one form on several GPU types, drawn as one bar after the families.
SINGLE = ["gandiva_fair", "allox", "max_sum_throughput_perf", "shockwave"]
# Rows of the comparison figure: summary metrics (labels.toml [[metric]] / [[figure_metric]]).
PANEL_METRICS = ["mean_jct_s", "makespan_s", "worst_ftf_rho", "utilization"]
# Metrics for which a smaller value is better (the ratio agnostic / aware > 1 favours aware).
LOWER_IS_BETTER = {"mean_jct_s", "makespan_s", "worst_ftf_rho", "worst_ftf_rho_type_weighted"}


def read_summary(path, ok_only=True):
    """/summary of a results file as a DataFrame (strings decoded); ok tasks only unless
    `ok_only` is False."""
    with h5py.File(path, "r") as f:
        g = f["summary"]
        df = pd.DataFrame({k: g[k].asstr()[:] if g[k].dtype.kind == "O" else g[k][:] for k in g})
    return df[df.status == "ok"].copy() if ok_only else df


def scenario_of(df):
    """Adds `scenario` ("120 jobs · 32 GPUs"). A task that failed before it counted its jobs
    (num_jobs 0) takes the job count of an ok task of the same trace and cluster."""
    jobs = {(t, c): n for t, c, n in zip(df.trace, df.cluster, df.num_jobs) if n > 0}
    df["scenario"] = [st.scenario_label(jobs.get((t, c), n), g)
                      for t, c, n, g in zip(df.trace, df.cluster, df.num_jobs, df.num_gpus)]
    return df


def cluster_title(cluster):
    """'k80=36,p100=36,v100=36' -> '36 V100 + 36 P100 + 36 K80' (the reference's order); a plain
    GPU count -> 'N GPUs'."""
    if "=" not in cluster:
        return f"{cluster} GPUs"
    counts = [part.split("=") for part in cluster.split(",")]
    return " + ".join(f"{n} {name.upper()}" for name, n in sorted(counts, reverse=True))


def family_label(agnostic):
    return st.display_name(agnostic)


def comparison_table(df):
    """One row per (scenario, family, form) with the panel metrics averaged over the ok seeds;
    `status` "ok", or "failed" when every task of the cell failed (metrics NaN, `message` the
    first task's error)."""
    rows = []
    groups = [(a, {"agnostic": a, "aware": w}) for a, w in FAMILIES]
    groups += [(p, {"single": p}) for p in SINGLE]
    for scenario, sdf in df.groupby("scenario", sort=False):
        for family, forms in groups:
            for form, policy in forms.items():
                pdf = sdf[sdf.policy == policy]
                if pdf.empty:
                    continue
                ok = pdf[pdf.status == "ok"]
                row = dict(scenario=scenario, num_gpus=int(pdf.num_gpus.iloc[0]),
                           cluster=pdf.cluster.iloc[0], family=family_label(family), form=form,
                           policy=policy, tasks=len(ok),
                           status="ok" if len(ok) else pdf.status.iloc[0],
                           message="" if len(ok) else pdf.message.iloc[0])
                for m in PANEL_METRICS + ["worst_ftf_rho_type_weighted"]:
                    row[m] = float(ok[m].mean()) if len(ok) else np.nan
                rows.append(row)
    return pd.DataFrame(rows)


def ratio_table(table):
    """agnostic / aware per (scenario, family, metric) for the families with both forms."""
    rows = []
    for (scenario, family), g in table[table.status == "ok"].groupby(["scenario", "family"],
                                                                     sort=False):
        forms = {r.form: r for r in g.itertuples()}
        if "agnostic" not in forms or "aware" not in forms:
            continue
        for m in PANEL_METRICS + ["worst_ftf_rho_type_weighted"]:
            aware = getattr(forms["aware"], m)
            rows.append(dict(scenario=scenario, family=family, metric=m,
                             agnostic=getattr(forms["agnostic"], m), aware=aware,
                             ratio=getattr(forms["agnostic"], m) / aware if aware else np.nan))
    return pd.DataFrame(rows, columns=["scenario", "family", "metric", "agnostic", "aware", "ratio"])


def draw_comparison(df, out):
    table = comparison_table(scenario_of(df))
    scenarios = list(dict.fromkeys(table.sort_values("num_gpus").scenario))
    families = list(dict.fromkeys(table.family))
    fig, axes = plt.subplots(len(PANEL_METRICS), len(scenarios), squeeze=False,
                             figsize=(3.3 * len(scenarios), 2.2 * len(PANEL_METRICS)))
    width = 0.38
    for c, scenario in enumerate(scenarios):
        sdf = table[table.scenario == scenario]
        for r, metric in enumerate(PANEL_METRICS):
            ax = axes[r][c]
            scale = st.METRIC_SCALE.get(metric, 1.0)
            for x, family in enumerate(families):
                fdf = sdf[sdf.family == family]
                colour, _ = st.style(family)
                for row in fdf.itertuples():
                    offset = {"agnostic": -width / 2, "aware": width / 2, "single": 0.0}[row.form]
                    if row.status != "ok":
                        # No bar: the run did not finish. A mark says so (not a zero).
                        ax.text(x + offset, 0.06, "failed", transform=ax.get_xaxis_transform(),
                                rotation=90, ha="center", va="bottom", fontsize=7,
                                color="#BB0000")
                        ax.plot(x + offset, 0, marker="x", color="#BB0000", markersize=6,
                                clip_on=False, zorder=5)
                        continue
                    ax.bar(x + offset, getattr(row, metric) * scale, width, color=colour,
                           edgecolor="black", linewidth=0.5,
                           hatch="///" if row.form == "agnostic" else None,
                           alpha=0.55 if row.form == "agnostic" else 1.0)
            ax.set_xticks(range(len(families)))
            ax.set_xticklabels(families if r == len(PANEL_METRICS) - 1 else [""] * len(families),
                               rotation=35, ha="right")
            if c == 0:
                ax.set_ylabel(st.METRIC_LABELS[metric])
            if r == 0:
                ax.set_title(scenario, pad=14)
                ax.text(0.5, 1.02, cluster_title(sdf.cluster.iloc[0]), transform=ax.transAxes,
                        ha="center", va="bottom", fontsize=8)
    handles = [plt.Rectangle((0, 0), 1, 1, facecolor="white", edgecolor="black", hatch="///"),
               plt.Rectangle((0, 0), 1, 1, facecolor="grey", edgecolor="black")]
    names = ["heterogeneity-agnostic", "heterogeneity-aware"]
    if (table.status != "ok").any():
        handles.append(plt.Line2D([], [], marker="x", color="#BB0000", linestyle=""))
        names.append("failed: the run did not finish")
    fig.legend(handles, names, loc="upper center", ncol=len(names), bbox_to_anchor=(0.5, 1.03),
               frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    st.check_texts(fig)
    st.save(fig, table, out, "heterogeneous")
    ratios = ratio_table(table)
    ratios.to_csv(os.path.join(out, "heterogeneous_ratios.csv"), index=False,
                  float_format="%.17g")
    return ["heterogeneous"]


# The job-rate figure's panels: (heterogeneity-agnostic, heterogeneity-aware), Gavel's LAS first.
JOB_RATE_FAMILIES = [("max_min_fairness", "max_min_fairness_perf"), ("fifo", "fifo_perf")]
RATE_RE = re.compile(r"rate_([0-9.]+)")


def steady_state_jct(path, task_id):
    """Mean JCT (s) of the jobs in the middle half of the trace by job id (Gavel measures the
    JCT of jobs in a window of job ids, `scheduler/scripts/sweeps/run_sweep_continuous.py`
    --window-start/--window-end); NaN when the task has no jobs table."""
    with h5py.File(path, "r") as f:
        jobs = f["tasks"][task_id].get("jobs")
        if jobs is None or "jct_s" not in jobs:
            return np.nan
        ids, jct = jobs["job_id"][:], jobs["jct_s"][:]
    n = len(ids)
    keep = (ids >= n // 4) & (ids < n - n // 4)
    return float(np.mean(jct[keep])) if keep.any() else np.nan


def draw_job_rate(path, out):
    """One panel per policy family (Gavel draws one figure per family), its heterogeneity-agnostic
    form dashed and its aware form solid, named as Gavel's figures name them (labels.toml
    [paper_names.gavel]: "LAS" and "Gavel", "FIFO" and "Gavel")."""
    df = read_summary(path)
    df["jobs_per_hour"] = [float(RATE_RE.search(os.path.basename(t)).group(1))
                           for t in df.trace]
    df["steady_jct_s"] = [steady_state_jct(path, t) for t in df.task_id]
    table = (df.groupby(["policy", "jobs_per_hour"], as_index=False)
             .agg(steady_jct_s=("steady_jct_s", "mean"), mean_jct_s=("mean_jct_s", "mean"),
                  tasks=("task_id", "count")))
    table.insert(1, "label", [st.paper_name(p, "gavel") for p in table.policy])
    families = [(a, w) for a, w in JOB_RATE_FAMILIES if {a, w} & set(table.policy)]
    fig, axes = plt.subplots(1, len(families), squeeze=False, sharey=True,
                             figsize=(3.0 * len(families) + 0.4, 3.0))
    for ax, family in zip(axes[0], families):
        for policy in family:
            pdf = table[table.policy == policy].sort_values("jobs_per_hour")
            if pdf.empty:
                continue
            colour, marker = st.style(st.display_name(policy))
            aware = policy == family[1]
            ax.plot(pdf.jobs_per_hour, pdf.steady_jct_s / 3600, color=colour, marker=marker,
                    linestyle="-" if aware else "--", label=st.paper_name(policy, "gavel"))
        ax.set_title(st.paper_name(family[0], "gavel"))
        ax.set_xlabel("input job rate (jobs/h)")
        ax.legend(frameon=False)
    axes[0][0].set_ylabel("average JCT (h), steady state")
    fig.suptitle(" / ".join(cluster_title(c) for c in sorted(df.cluster.unique())), fontsize=10)
    fig.tight_layout()
    st.check_texts(fig)
    st.save(fig, table, out, "gavel_job_rate")
    return ["gavel_job_rate"]


def draw_all(heterogeneous, job_rate, out):
    st.apply_style()
    written = []
    if heterogeneous:
        written += draw_comparison(read_summary(heterogeneous, ok_only=False), out)
    if job_rate:
        written += draw_job_rate(job_rate, out)
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("heterogeneous",
                        help="results file of experiments/heterogeneous.toml ('' for none)")
    parser.add_argument("job_rate", nargs="?", default=None,
                        help="results file of experiments/gavel_job_rate.toml")
    parser.add_argument("--out", required=True, help="folder for the figures")
    args = parser.parse_args(argv)
    for name in draw_all(args.heterogeneous, args.job_rate, args.out):
        print(os.path.join(args.out, name + ".png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
