#!/usr/bin/python3
"""Pollux job-load figures from an adaptsim results file (experiments/pollux_jobload.toml).

  /usr/bin/python3 analysis/pollux_figures.py pollux_jobload.h5 --out figures/

Writes (PNG and PDF for each figure)
  pollux_mean_jct_vs_load  mean JCT (h; mean over workloads of each task's mean JCT, error bar =
                           std over workloads) vs relative job load per policy, with the
                           artifact's values (docs/pollux.md §5.1) dashed;
  pollux_jct_cdf           JCT CDF per policy at load 1.0 (all workloads pooled; the lowest load
                           present when 1.0 is absent);
  pollux_jobload.csv       the table behind the first figure: policy, load, mean_jct_s (mean),
                           std, count (workloads), mean_jct_h, artifact_h, delta_percent;
  pollux_jct_cdf.csv       the per-job JCTs of the CDF (policy, load, trace, seed, jct_s).
Only tasks with status "ok" count; tasks of other policies are ignored. Load is read from the
workload folder: workloads-0.5 / workloads (1.0) / workloads-1.5 / workloads-2.0.
"""
import argparse
import os
import re

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

# Artifact mean JCT in hours over the 8 workloads (docs/pollux.md §5.1; the artifact's
# results-jobload/*/summary.json).
ARTIFACT_MEAN_JCT_H = {
    "pollux": {0.5: 0.426, 1.0: 0.764, 1.5: 1.024, 2.0: 1.469},
    "optimus": {0.5: 0.665, 1.0: 1.578, 1.5: 2.010, 2.0: 2.700},
    "tiresias": {0.5: 0.581, 1.0: 1.122, 1.5: 1.717, 2.0: 2.789},
}
POLICIES = ["pollux", "optimus", "tiresias"]
COLORS = {"pollux": "tab:blue", "optimus": "tab:orange", "tiresias": "tab:green"}


def load_of(trace):
    """Relative job load of a workload path (the folder name; plain `workloads/` is 1.0)."""
    match = re.search(r"workloads-([0-9.]+)/", trace)
    return float(match.group(1)) if match else 1.0


def read(path):
    """(summary of ok tasks of the three policies, per-job JCTs of completed jobs)."""
    with h5py.File(path, "r") as f:
        g = f["summary"]
        summary = pd.DataFrame(
            {k: g[k].asstr()[:] if g[k].dtype.kind in "OS" else g[k][:] for k in g})
        summary = summary[(summary.status == "ok") & summary.policy.isin(POLICIES)].copy()
        summary["load"] = summary.trace.map(load_of)
        jcts = []
        for row in summary.itertuples():
            jobs = f["tasks"][row.task_id]["jobs"]
            done = jobs["outcome"].asstr()[:] == "completed"
            for jct in jobs["jct_s"][:][done]:
                jcts.append((row.policy, row.load, row.trace, row.seed, float(jct)))
    return summary, pd.DataFrame(jcts, columns=["policy", "load", "trace", "seed", "jct_s"])


def save(fig, out, name):
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(os.path.join(out, f"{name}.{ext}"), dpi=150)
    plt.close(fig)


def jobload_table(summary):
    table = (summary.groupby(["policy", "load"]).mean_jct_s.agg(["mean", "std", "count"])
             .reset_index())
    table["mean_jct_h"] = table["mean"] / 3600
    table["artifact_h"] = [ARTIFACT_MEAN_JCT_H.get(p, {}).get(l, np.nan)
                           for p, l in zip(table.policy, table.load)]
    table["delta_percent"] = 100 * (table.mean_jct_h / table.artifact_h - 1)
    return table


def plot_mean_vs_load(summary, out):
    table = jobload_table(summary)
    table.to_csv(os.path.join(out, "pollux_jobload.csv"), index=False)
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for policy, rows in table.groupby("policy"):
        color = COLORS.get(policy)
        ax.errorbar(rows["load"], rows["mean_jct_h"], yerr=rows["std"].fillna(0) / 3600,
                    marker="o", capsize=3, label=f"{policy} (adaptsim)", color=color)
        ref = ARTIFACT_MEAN_JCT_H[policy]
        ax.plot(list(ref), list(ref.values()), "--", color=color, alpha=0.6,
                label=f"{policy} (artifact)")
    ax.set_xlabel("relative job load")
    ax.set_ylabel("mean JCT (h)")
    ax.legend(fontsize=7)
    save(fig, out, "pollux_mean_jct_vs_load")
    return table


def plot_cdf(jcts, out):
    loads = sorted(jcts.load.unique())
    load = 1.0 if 1.0 in loads else (loads[0] if loads else 1.0)
    rows = jcts[jcts.load == load]
    rows.to_csv(os.path.join(out, "pollux_jct_cdf.csv"), index=False)
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for policy, group in rows.groupby("policy"):
        values = np.sort(group.jct_s.to_numpy()) / 3600
        ax.plot(values, np.arange(1, len(values) + 1) / len(values), label=policy,
                color=COLORS.get(policy))
    ax.set_xscale("log")
    ax.set_xlabel("JCT (h)")
    ax.set_ylabel("fraction of jobs")
    ax.set_title(f"JCT CDF, load {load}")
    if len(rows):
        ax.legend(fontsize=7)
    save(fig, out, "pollux_jct_cdf")
    return load


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", help="HDF5 results file of experiments/pollux_jobload.toml")
    parser.add_argument("--out", default=".", help="output folder")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    summary, jcts = read(args.results)
    if summary.empty:
        raise SystemExit(f"{args.results}: no ok task of {', '.join(POLICIES)}")
    table = plot_mean_vs_load(summary, args.out)
    load = plot_cdf(jcts, args.out)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(f"JCT CDF at load {load}: {len(jcts[jcts.load == load])} jobs")


if __name__ == "__main__":
    main()
