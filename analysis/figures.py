#!/usr/bin/python3
"""The Shockwave paper's figures from adaptsim results files.

    /usr/bin/python3 analysis/figures.py RESULTS.h5 [MORE.h5 ...] --out DIR [--golden DIR]
        [--baseline POLICY] [--window-param shockwave.future_rounds] [--window-spread k]
        [--adaptsim PATH]

The results files are read together (e.g. canonical.h5 and pollux_canonical.h5: Pollux joins the
canonical comparison). Every number and label comes from `adaptsim report --format json`
(analysis/adaptsim_tables.py; definitions in include/adaptsim/results_analysis.hpp, names and
looks in analysis/labels.toml); this script only draws. Writes into DIR, each as PDF, PNG (200
dpi) and CSV (the plotted numbers):
  canonical_<n>   the paper's four panels (makespan, average JCT, worst FTF rho, unfair fraction
                  rho > 1.05) per policy, normalised to Shockwave (or --baseline), one file per
                  scenario; with --golden, the reference run's ratio as a marker where one exists
  scale           each metric against cluster size, one line per policy
  window_<n>      the metrics against the planning window (minutes = rounds x round length), one
                  panel row per scenario (and per value of any other varied option), the mean
                  over --window-spread values and seeds as a line, their min-max as a band
  rho_cdf_<n>     CDF of per-job finish-time fairness rho, one line per policy, per scenario
and figures_data.csv: every number of the tables in the long format of `adaptsim report --format
csv` (table, scenario, policy, x, metric, stat, value). A figure is drawn only when its data
exist (scale: more than one cluster size; window: tasks with the window option). Needs the
adaptsim command line (--adaptsim, $ADAPTSIM_BINARY, PATH or the checkout's release build) and
Debian's python3-pandas, -matplotlib, -numpy (scripts/install-deps).
"""
import argparse
import math
import os
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adaptsim_style as st  # noqa: E402
import adaptsim_tables  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

MAX_CANONICAL_BARS = 12  # a scenario with more labels is an option sweep, not a comparison


def ordered_labels(tasks):
    """Labels of a frame of tasks in legend order (policy order, then label)."""
    pairs = {(st.policy_rank(d), lab) for d, lab in zip(tasks.display, tasks.label)}
    return [lab for _, lab in sorted(pairs)]


def table(tables, name, **match):
    """The rows of one table, optionally filtered by column values."""
    rows = tables.rows[tables.rows.table == name]
    for column, value in match.items():
        rows = rows[rows[column] == value]
    return rows


# ---- figures: each returns (Figure, DataFrame of the plotted numbers) -------------------------

def canonical_figure(tables, scenario):
    """Four panels for one scenario: bars normalised to the baseline, and the reference runs'
    ratios (the `reference` table, with --golden) as markers."""
    labels = ordered_labels(tables.tasks[tables.tasks.scenario == scenario])
    fig, axes = plt.subplots(1, 4, figsize=(11, 3.0))
    data = []
    drawn = False
    for ax, m in zip(axes, st.METRICS):
        values = [tables.value("canonical", scenario, lab, "", m, "normalised") for lab in labels]
        colours = [st.style(lab)[0] for lab in labels]
        short = [lab.replace(" (", "\n(") for lab in labels]
        ax.bar(range(len(labels)), values, color=colours, edgecolor="black", linewidth=0.5)
        ax.axhline(1.0, color="black", lw=0.8, ls="--")
        for i, (lab, v) in enumerate(zip(labels, values)):
            ref = tables.value("reference", scenario, lab, "", m, "normalised")
            if math.isfinite(ref):
                ax.plot(i, ref, ls="none", marker="_", color="black", markersize=14, mew=2.5,
                        label=None if drawn else "reference run")
                drawn = True
            data.append((scenario, lab, m, v, ref))
        ax.set_xticks(range(len(labels)), short, rotation=55, ha="right")
        ax.set_title(st.METRIC_TITLES[m])
        ax.set_ylabel(f"relative to {st.display_name(tables.baseline)}"
                      if m == st.METRICS[0] else "")
        ax.grid(axis="x", visible=False)
    if drawn:
        handles, names = [], []
        for ax in axes:
            h, n = ax.get_legend_handles_labels()
            handles, names = handles + h, names + n
        fig.legend(handles[:1], names[:1], loc="upper right", frameon=False)
    fig.suptitle(f"Canonical · {scenario}", y=1.02)
    frame = pd.DataFrame(data, columns=["scenario", "policy", "metric", "normalised", "reference"])
    return fig, frame


def scale_figure(tables):
    """Each metric against GPUs, one line per policy label (the `scale` table)."""
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.6))
    rows = []
    jobs = tables.tasks.groupby("num_gpus").num_jobs.first()
    for ax, m in zip(axes, st.METRICS):
        k = st.METRIC_SCALE.get(m, 1.0)
        for lab in ordered_labels(tables.tasks):
            d = table(tables, "scale", policy=lab, metric=m, stat="mean").sort_values("x_value")
            gpus = [int(g) for g in d.x_value]
            colour, marker = st.style(lab)
            ax.plot(gpus, d.value.to_numpy() * k, marker=marker, color=colour, label=lab, lw=1.2,
                    markersize=5)
            rows += [(lab, g, m, float(v)) for g, v in zip(gpus, d.value)]
        ax.set_xscale("log", base=2)
        ax.set_xticks(list(jobs.index), [f"{g}\n({j} jobs)" for g, j in jobs.items()])
        ax.minorticks_off()
        ax.set_xlabel("cluster size (GPUs)")
        ax.set_ylabel(st.METRIC_LABELS[m])
        ax.set_title(st.METRIC_TITLES[m])
    handles, names = axes[0].get_legend_handles_labels()
    fig.suptitle("Scale study")
    fig.tight_layout(rect=(0, 0.1, 1, 1), w_pad=2.0)
    fig.legend(handles, names, loc="lower center", bbox_to_anchor=(0.5, 0.0),
               ncol=min(len(names), 9), frameon=False)
    return fig, pd.DataFrame(rows, columns=["policy", "num_gpus", "metric", "mean"])


def window_figure(tables, spread):
    """One panel row per row of the `window` table: mean line and min-max band against x."""
    sub = tables.tasks[tables.tasks.window_row != ""]
    window = table(tables, "window")
    rows_ = sorted(window.scenario.unique())
    fig, axes = plt.subplots(len(rows_), 4, figsize=(12, 2.4 * len(rows_) + 0.4), squeeze=False)
    data = []
    name = tables.window_policy
    colour, marker = st.style(name)
    spreads = sorted({o.get(spread) for o in sub.options} - {None})
    seeds = sub.seed.nunique()
    values = f"{spread} = {', '.join(st.number(v) for v in spreads)}" if spreads else ""
    over = ([values] if values else []) + (["seeds"] if seeds > 1 else [])
    band = "min–max over " + " and ".join(over) if over else "min–max"
    if len(band) > st.MAX_TEXT:
        band = "min–max over " + " and ".join(([spread] if spreads else []) + ["seeds"])
    for r, row in enumerate(rows_):
        for c, m in enumerate(st.METRICS):
            ax = axes[r][c]
            k = st.METRIC_SCALE.get(m, 1.0)
            g = (window[(window.scenario == row) & (window.metric == m)]
                 .pivot(index="x_value", columns="stat", values="value").sort_index())
            ax.fill_between(g.index, g["min"] * k, g["max"] * k, color=colour, alpha=0.2,
                            lw=0, label=band)
            ax.plot(g.index, g["mean"] * k, marker=marker, color=colour, label=f"{name}, mean")
            data += [(row, x, m, v["mean"], v["min"], v["max"], int(v["n"]))
                     for x, v in g.iterrows()]
            ax.set_title(st.METRIC_TITLES[m])
            ax.set_ylabel(st.METRIC_LABELS[m])
            if r == len(rows_) - 1:
                ax.set_xlabel(tables.window_axis)
        # The row's name left of its first panel's axis label, however wide the tick labels.
        axes[r][0].annotate(row, xy=(0, 0.5), xycoords=axes[r][0].yaxis.label,
                            xytext=(-6, 0), textcoords="offset points", rotation=90,
                            va="center", ha="right", fontsize=9, fontweight="bold")
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2,
               frameon=False)
    fig.suptitle("Planning-window sensitivity", y=1.01)
    fig.tight_layout()
    frame = pd.DataFrame(data, columns=["row", "window_min", "metric", "mean", "min", "max", "n"])
    return fig, frame


def rho_cdf_figure(tables, scenario):
    """CDF of per-job ρ, one line per policy label of `scenario`."""
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    rows = []
    labels = sorted((lab for s, lab in tables.rho if s == scenario),
                    key=lambda lab: (st.policy_rank(lab.split(" (")[0]), lab))
    for lab in labels:
        v = np.asarray(tables.rho[(scenario, lab)])
        if not len(v):
            continue
        colour, marker = st.style(lab)
        y = np.arange(1, len(v) + 1) / len(v)
        ax.plot(v, y, drawstyle="steps-post", color=colour, label=lab, lw=1.4, marker=marker,
                markevery=[len(v) - 1], markersize=5)  # the worst rho carries the marker
        rows += [(lab, float(x), float(p)) for x, p in zip(v, y)]
    ax.axvline(1.0, color="black", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel(f"{st.RHO_AXIS} (log scale)")
    ax.set_ylabel("fraction of jobs")
    ax.set_title(f"FTF ρ CDF · {scenario}")
    ax.legend(loc="lower right", fontsize=7, frameon=False)
    return fig, pd.DataFrame(rows, columns=["policy", st.RHO_COLUMN, "cdf"])


KINDS = ("canonical", "scale", "window", "rho_cdf")


def draw_all(paths, out, baseline="", window_param="shockwave.future_rounds",
             window_spread="k", golden_dir="", kinds=KINDS, adaptsim=None):
    """Draws every applicable figure of `kinds` of the files into `out` (figures_data.csv holds
    every table regardless); returns the tables and the names of the figures written."""
    st.apply_style()
    os.makedirs(out, exist_ok=True)
    golden = golden_dir if golden_dir and os.path.isdir(golden_dir) else ""
    tables = adaptsim_tables.read(paths, adaptsim, baseline, window_param, window_spread, golden)
    tasks = tables.tasks
    if tasks.empty:
        raise SystemExit(f"{', '.join(paths)}: no tasks with status ok")
    written = []
    for n, scenario in enumerate(sorted(tasks.scenario.unique())):
        d = tasks[tasks.scenario == scenario]
        if ("canonical" not in kinds or d.label.nunique() > MAX_CANONICAL_BARS
                or scenario not in tables.baseline_labels):
            continue
        fig, data = canonical_figure(tables, scenario)
        st.save(fig, data, out, f"canonical_{n}")
        written.append(f"canonical_{n}")
    if "scale" in kinds and tasks.num_gpus.nunique() > 1:
        fig, data = scale_figure(tables)
        st.save(fig, data, out, "scale")
        written.append("scale")
    windowed = tasks[tasks.window_row != ""]
    if "window" in kinds and len(windowed) and windowed.window_x.nunique() > 1:
        fig, data = window_figure(tables, window_spread)
        st.save(fig, data, out, "window")
        written.append("window")
    for n, scenario in enumerate(sorted({s for s, _ in tables.rho})):
        if ("rho_cdf" not in kinds
                or tasks[tasks.scenario == scenario].label.nunique() > MAX_CANONICAL_BARS):
            continue
        fig, data = rho_cdf_figure(tables, scenario)
        st.save(fig, data, out, f"rho_cdf_{n}")
        written.append(f"rho_cdf_{n}")
    tables.rows[adaptsim_tables.COLUMNS].to_csv(os.path.join(out, "figures_data.csv"),
                                                index=False, float_format="%.17g")
    return tables, written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", help="results files (HDF5), read together")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--golden", default="",
                        help="folder of the reference runs (golden/shockwave_tacc32)")
    parser.add_argument("--baseline", default="",
                        help="policy to normalise by when shockwave is absent")
    parser.add_argument("--window-param", default="shockwave.future_rounds")
    parser.add_argument("--window-spread", default="k",
                        help="option of the window policy shown as a band, not as rows")
    parser.add_argument("--figures", default=",".join(KINDS),
                        help="figure kinds to draw (default: all of " + ", ".join(KINDS) + ")")
    parser.add_argument("--adaptsim", default=None,
                        help="the adaptsim command line (default: $ADAPTSIM_BINARY, PATH, the "
                             "checkout's build/release/src/app/adaptsim)")
    args = parser.parse_args(argv)
    _, written = draw_all(args.results, args.out, args.baseline, args.window_param,
                          args.window_spread, args.golden, args.figures.split(","),
                          args.adaptsim)
    print(f"figures written to {args.out}: {', '.join(written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
