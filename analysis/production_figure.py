#!/usr/bin/python3
"""Policies on production job logs next to the synthetic traces, from adaptsim results files.

    /usr/bin/python3 analysis/production_figure.py RESULTS.h5 [MORE.h5 ...] --out DIR
        [--baseline shockwave]

Reads every ok task of the files (e.g. production.h5 of experiments/production.toml and
canonical.h5 of experiments/canonical.toml). A task whose configuration has a production part
(docs/production.md) is a production scenario, labelled by its log, window and cluster size
("Philly 2017-11-20 +7 d · 512 GPUs", "ITP cluster01 · 64 GPUs"); any other task is a synthetic
scenario ("120 jobs · 32 GPUs"). Writes DIR/production.{pdf,png,csv}: four panels (makespan,
average JCT, worst FTF rho, unfair fraction rho > 1.05), one group of bars per scenario, one bar
per policy: the policy's mean over its tasks in that scenario (seeds and model seeds) divided by
the baseline policy's mean there, with the min-max of the per-task ratios as an error bar.
Scenarios without the baseline are left out (and named on stderr).

CSV columns: scenario, kind (production | synthetic), policy (display name), metric, stat, value
with stat in n (tasks), mean, min, max (the metric's own units: s, 1) and normalised, norm_min,
norm_max (divided by the baseline's mean). Needs Debian's python3-h5py, -pandas, -matplotlib.
"""
import argparse
import csv
import json
import os
import sys
import textwrap

import h5py
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adaptsim_style as st  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

COLUMNS = ["scenario", "kind", "policy", "metric", "stat", "value"]


def production_label(production, num_gpus, trace):
    """'Philly 2017-11-20 +7 d · 512 GPUs', 'ITP cluster01 · 64 GPUs' (a virtual cluster adds
    ' vc 11cb48')."""
    name = "Philly" if production["format"] == "philly" else "ITP " + os.path.splitext(
        os.path.basename(trace))[0]
    start = production["window_start"][:10] or (
        f"day {st.number(production['window_start_s'] / 86400)}"
        if production["window_start_s"] else "")
    length = production["window_length_s"]
    window = f"{start} +{st.number(length / 86400)} d" if length else start
    clusters = " ".join(production["virtual_clusters"])
    parts = [name, window, f"vc {clusters}" if clusters else ""]
    return " ".join(p for p in parts if p) + f" · {int(num_gpus)} GPUs"


def read_tasks(paths):
    """One row per ok task: scenario, kind, policy, display name and the summary metrics."""
    rows = []
    for path in paths:
        with h5py.File(path, "r") as f:
            g = f["summary"]
            summary = pd.DataFrame({k: (g[k].asstr()[:] if g[k].dtype.kind == "O" else g[k][:])
                                    for k in g})
            summary = summary[summary.status == "ok"].sort_values("task_index")
            for _, task in summary.iterrows():
                config = json.loads(f["tasks"][task.task_id].attrs["config_json"])
                production = config.get("production")
                row = {m: float(task[m]) for m in st.METRICS}
                row["policy"] = st.display_name(task.policy)
                if production is not None:
                    row["scenario"] = production_label(production, task.num_gpus, task.trace)
                    row["kind"] = "production"
                else:
                    row["scenario"] = st.scenario_label(task.num_jobs, task.num_gpus)
                    row["kind"] = "synthetic"
                rows.append(row)
    return pd.DataFrame(rows)


def figure_rows(tasks, baseline):
    """The CSV rows: per (scenario, policy, metric) the statistics above."""
    rows = []
    scenarios = []
    base_name = st.display_name(baseline)
    # Production scenarios first, then synthetic, each in order of first appearance.
    for kind in ("production", "synthetic"):
        for scenario in dict.fromkeys(tasks[tasks.kind == kind].scenario):
            members = tasks[tasks.scenario == scenario]
            base = members[members.policy == base_name]
            if base.empty:
                print(f"production_figure: no {base_name} in '{scenario}'; left out",
                      file=sys.stderr)
                continue
            scenarios.append(scenario)
            for policy, group in members.groupby("policy"):
                for metric in st.METRICS:
                    reference = base[metric].mean()
                    values = group[metric]
                    ratios = values / reference if reference else values * float("nan")
                    stats = {"n": len(values), "mean": values.mean(), "min": values.min(),
                             "max": values.max(), "normalised": values.mean() / reference
                             if reference else float("nan"),
                             "norm_min": ratios.min(), "norm_max": ratios.max()}
                    for stat, value in stats.items():
                        rows.append({"scenario": scenario, "kind": kind, "policy": policy,
                                     "metric": metric, "stat": stat, "value": float(value)})
    return pd.DataFrame(rows, columns=COLUMNS), scenarios


def tick_label(scenario):
    """A scenario label on short lines: the log and window wrapped, the cluster size last."""
    name, _, gpus = scenario.rpartition(" · ")
    return textwrap.fill(name, 18) + "\n" + gpus


def draw(data, scenarios, baseline, out):
    st.apply_style()
    policies = sorted(set(data.policy), key=st.policy_rank)
    fig, axes = plt.subplots(len(st.METRICS), 1, figsize=(7.0, 2.0 * len(st.METRICS) + 0.8),
                             sharex=True)
    width = 0.8 / max(1, len(policies))
    for ax, metric in zip(axes, st.METRICS):
        rows = data[data.metric == metric]
        for i, policy in enumerate(policies):
            xs, ys, lo, hi = [], [], [], []
            for s, scenario in enumerate(scenarios):
                cell = rows[(rows.scenario == scenario) & (rows.policy == policy)]
                if cell.empty:
                    continue
                value = dict(zip(cell.stat, cell.value))
                xs.append(s - 0.4 + width * (i + 0.5))
                ys.append(value["normalised"])
                lo.append(value["normalised"] - value["norm_min"])
                hi.append(value["norm_max"] - value["normalised"])
            colour, _ = st.style(policy)
            ax.bar(xs, ys, width, color=colour, label=policy, yerr=[lo, hi],
                   error_kw={"elinewidth": 0.6, "capsize": 1.5})
        for s, scenario in enumerate(scenarios):  # a baseline of 0 leaves no ratio to draw
            cell = rows[(rows.scenario == scenario) & (rows.policy == st.display_name(baseline))
                        & (rows.stat == "mean")]
            if len(cell) and cell.value.iloc[0] == 0:
                ax.text(s, 1.0, f"{st.display_name(baseline)} = 0:\nno ratio", ha="center",
                        va="bottom", fontsize=7)
        ax.axhline(1.0, color="black", linewidth=0.6)
        ax.set_ylabel(f"{st.METRIC_TITLES[metric]}\n÷ {st.display_name(baseline)}")
    axes[-1].set_xticks(range(len(scenarios)))
    axes[-1].set_xticklabels([tick_label(s) for s in scenarios], rotation=0, fontsize=7)
    n_production = sum(1 for s in scenarios if (data[data.scenario == s].kind == "production")
                       .any())
    if 0 < n_production < len(scenarios):
        for ax in axes:
            ax.axvline(n_production - 0.5, color="grey", linewidth=0.8, linestyle="--")
        axes[0].set_title("production logs | synthetic traces")
    axes[0].legend(ncol=min(6, len(policies)), loc="lower center", bbox_to_anchor=(0.5, 1.15),
                   frameon=False)
    fig.tight_layout()
    for ext in ("pdf", "png"):
        fig.savefig(os.path.join(out, f"production.{ext}"), bbox_inches="tight")
    return fig


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", help="adaptsim results files (HDF5)")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--baseline", default="shockwave", help="registry name to divide by")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tasks = read_tasks(args.results)
    if tasks.empty:
        sys.exit("production_figure: no finished task in the results files")
    data, scenarios = figure_rows(tasks, args.baseline)
    if not scenarios:
        sys.exit(f"production_figure: no scenario has the baseline '{args.baseline}'")
    data.to_csv(os.path.join(args.out, "production.csv"), index=False, quoting=csv.QUOTE_MINIMAL)
    fig = draw(data, scenarios, args.baseline, args.out)
    too_long = [t for t in st.texts(fig)
                if max(map(len, t.split("\n"))) > st.MAX_TEXT or "{" in t]
    if too_long:
        sys.exit(f"production_figure: text too long for the figure: {too_long}")


if __name__ == "__main__":
    main()
