#!/usr/bin/python3
"""The Shockwave paper's figures from adaptsim results files.

    /usr/bin/python3 analysis/figures.py RESULTS.h5 [MORE.h5 ...] --out DIR [--golden DIR]
        [--baseline POLICY] [--window-param shockwave.future_rounds] [--window-spread k]

The results files are read together (e.g. canonical.h5 and pollux_canonical.h5: Pollux joins the
canonical comparison). Writes into DIR, each as PDF, PNG (200 dpi) and CSV (the plotted numbers):
  canonical_<n>   the paper's four panels (makespan, average JCT, worst FTF rho, unfair fraction
                  rho > 1.05) per policy, normalised to Shockwave (or --baseline), one file per
                  scenario; with --golden, the reference run's ratio as a marker where one exists
  scale           each metric against cluster size, one line per policy
  window_<n>      the metrics against the planning window (minutes = rounds x round length), one
                  panel row per scenario (and per value of any other varied option), the mean
                  over --window-spread values and seeds as a line, their min-max as a band
  rho_cdf_<n>     CDF of per-job finish-time fairness rho, one line per policy, per scenario
and figures_data.csv: every number in the long format of `adaptsim report --format csv` (table,
scenario, policy, x, metric, stat, value; definitions in include/adaptsim/results_analysis.hpp; the
figures test checks that both agree and equal the results file). A figure is drawn only when
its data exist (scale: more than one cluster size; window: tasks with the window option).
Needs Debian's python3-h5py, -pandas, -matplotlib, -numpy (scripts/install-deps).
"""
import argparse
import json
import math
import os
import sys

import h5py
import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adaptsim_style as st  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

COLUMNS = ["table", "scenario", "policy", "x", "metric", "stat", "value"]
MAX_CANONICAL_BARS = 12  # a scenario with more labels is an option sweep, not a comparison


def read_summary(paths):
    """/summary of ok tasks of every file, with `file` and the labels of adaptsim_style."""
    frames = []
    for path in paths:
        with h5py.File(path, "r") as f:
            g = f["summary"]
            df = pd.DataFrame({k: (g[k].asstr()[:] if g[k].dtype.kind == "O" else g[k][:])
                               for k in g})
        df["file"] = path
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df = df[df.status == "ok"].sort_values(["file", "task_index"]).reset_index(drop=True)
    return st.add_labels(df)


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else math.nan


def ordered_labels(df):
    """Labels of a frame in legend order (policy order, then label)."""
    pairs = {(st.policy_rank(d), lab) for d, lab in zip(df.display, df.label)}
    return [lab for _, lab in sorted(pairs)]


def baseline_label(df, scenario, baseline):
    """The baseline's label in a scenario (label): without options, else its first (sorted)."""
    same = df[(df.scenario_label == scenario) & (df.policy == baseline)]
    if not len(same):
        return None
    name = st.display_name(baseline)
    return name if (same.label == name).any() else sorted(same.label.unique())[0]


def canonical_rows(df, baseline):
    rows = []
    for (scenario, label), members in df.groupby(["scenario_label", "label"], sort=True):
        base_label = baseline_label(df, scenario, baseline)
        base = df[(df.scenario_label == scenario) & (df.label == base_label)]
        for m in st.METRICS:
            value = mean(members[m])
            b = mean(base[m]) if len(base) else math.nan
            rows.append(("canonical", scenario, label, "", m, "mean", value))
            rows.append(("canonical", scenario, label, "", m, "normalised",
                         value / b if (b == b and b != 0) else math.nan))
    return rows


def scale_rows(df):
    rows = []
    for (label, gpus), members in df.groupby(["label", df.num_gpus.astype(str)], sort=True):
        for m in st.METRICS:
            rows.append(("scale", "", label, gpus, m, "mean", mean(members[m])))
    return rows


def window_frame(df, param, spread):
    """Tasks of the window policy with the window option: `x` (window in minutes) and `row`
    (scenario label plus the options that vary besides the window and the spread option)."""
    policy, _, option = param.partition(".")
    sub = df[df.policy == policy].copy()
    if sub.empty:
        return sub
    opts = [json.loads(o) if o else {} for o in sub.policy_options]
    keep = [isinstance(o.get(option), (int, float)) and not isinstance(o.get(option), bool)
            for o in opts]
    sub = sub[keep].copy()
    opts = [o for o, k in zip(opts, keep) if k]
    if sub.empty:
        return sub
    varied = st.varied_options(sub).get(policy, [])
    sub["x"] = [o[option] * r / 60 if option == "future_rounds" else o[option]
                for o, r in zip(opts, sub.round_duration_s)]
    rows = []
    for o, scenario, r in zip(opts, sub.scenario_label, sub.round_duration_s):
        extra = [st.option_label(k, o[k], r) for k in varied if k not in (option, spread)
                 and k in o]
        rows.append(" · ".join([scenario] + extra))
    sub["row"] = rows
    return sub


def window_rows(sub, param):
    rows = []
    if sub.empty:
        return rows
    name = st.display_name(param.partition(".")[0])
    for (row, x), members in sub.groupby(["row", "x"], sort=True):
        for m in st.METRICS:
            v = list(members[m])
            mu = mean(v)
            std = math.sqrt(sum((e - mu) ** 2 for e in v) / (len(v) - 1)) if len(v) > 1 else 0.0
            for stat, num in (("mean", mu), ("std", std), ("min", min(v)), ("max", max(v)),
                              ("n", float(len(v)))):
                rows.append(("window", row, name, st.number(x), m, stat, num))
    return rows


def rho_values(df):
    """(scenario label, policy label) -> finite per-job ftf_rho pooled over the tasks."""
    out = {}
    for path, group in df.groupby("file", sort=False):
        with h5py.File(path, "r") as f:
            for task_id, scenario, label in zip(group.task_id, group.scenario_label, group.label):
                rho = f["tasks"][task_id]["jobs"]["ftf_rho"][:]
                out.setdefault((scenario, label), []).extend(
                    float(r) for r in rho if math.isfinite(r))
    return out


def quantile(values, q):
    return float(np.quantile(np.asarray(values), q)) if values else math.nan


def rho_rows(rho):
    rows = []
    for (scenario, label) in sorted(rho):
        v = rho[(scenario, label)]
        for stat, num in (("p50", quantile(v, 0.5)), ("p90", quantile(v, 0.9)),
                          ("p99", quantile(v, 0.99)), ("max", max(v) if v else math.nan),
                          ("mean", mean(v)), ("n", float(len(v)))):
            rows.append(("rho_cdf", scenario, label, "", "ftf_rho", stat, num))
    return rows


# ---- figures: each returns (Figure, DataFrame of the plotted numbers) -------------------------

def canonical_figure(df, scenario, baseline, golden=None):
    """Four panels for one scenario label: bars normalised to the baseline; `golden` (a frame
    policy, metric, value of reference runs for this scenario) adds the reference ratios."""
    d = df[df.scenario_label == scenario]
    base = baseline_label(df, scenario, baseline)
    labels = ordered_labels(d)
    fig, axes = plt.subplots(1, 4, figsize=(11, 3.0))
    data = []
    ref_ratio = {}
    if golden is not None and len(golden):
        g = golden.pivot(index="policy", columns="metric", values="value")
        if baseline in g.index:
            for policy in g.index:
                for m in st.METRICS:
                    ref_ratio[(st.display_name(policy), m)] = g.loc[policy, m] / g.loc[baseline, m]
    for ax, m in zip(axes, st.METRICS):
        b = mean(d[d.label == base][m]) if base else math.nan
        values = [mean(d[d.label == lab][m]) / b for lab in labels]
        colours = [st.style(lab)[0] for lab in labels]
        short = [lab.replace(" (", "\n(") for lab in labels]
        ax.bar(range(len(labels)), values, color=colours, edgecolor="black", linewidth=0.5)
        ax.axhline(1.0, color="black", lw=0.8, ls="--")
        drawn = False
        for i, (lab, v) in enumerate(zip(labels, values)):
            ref = ref_ratio.get((lab, m), math.nan)
            if math.isfinite(ref):
                ax.plot(i, ref, ls="none", marker="_", color="black", markersize=14, mew=2.5,
                        label=None if drawn else "reference run")
                drawn = True
            data.append((scenario, lab, m, v, ref))
        ax.set_xticks(range(len(labels)), short, rotation=55, ha="right")
        ax.set_title(st.METRIC_TITLES[m])
        ax.set_ylabel(f"relative to {st.display_name(baseline)}" if m == st.METRICS[0] else "")
        ax.grid(axis="x", visible=False)
    if ref_ratio:
        handles, names = axes[0].get_legend_handles_labels()
        if handles:
            fig.legend(handles[:1], names[:1], loc="upper right", frameon=False)
    fig.suptitle(f"Canonical · {scenario}", y=1.02)
    frame = pd.DataFrame(data, columns=["scenario", "policy", "metric", "normalised", "reference"])
    return fig, frame


def scale_figure(df):
    """Each metric against GPUs, one line per policy label."""
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.6))
    rows = []
    jobs = df.groupby("num_gpus").num_jobs.first()
    for ax, m in zip(axes, st.METRICS):
        k = st.METRIC_SCALE.get(m, 1.0)
        for lab in ordered_labels(df):
            d = df[df.label == lab].groupby("num_gpus")[m].mean().sort_index()
            colour, marker = st.style(lab)
            ax.plot(d.index, d.values * k, marker=marker, color=colour, label=lab, lw=1.2,
                    markersize=5)
            rows += [(lab, int(g), m, float(v)) for g, v in d.items()]
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


def window_figure(sub, spread, xlabel="planning window (min)"):
    """One panel row per `row` of window_frame: mean line and min-max band against x."""
    rows_ = sorted(sub.row.unique())
    fig, axes = plt.subplots(len(rows_), 4, figsize=(12, 2.4 * len(rows_) + 0.4), squeeze=False)
    data = []
    name = st.display_name(sub.policy.iloc[0])
    colour, marker = st.style(name)
    spreads = sorted({json.loads(o).get(spread) for o in sub.policy_options} - {None})
    seeds = sub.seed.nunique()
    values = f"{spread} = {', '.join(st.number(v) for v in spreads)}" if spreads else ""
    over = ([values] if values else []) + (["seeds"] if seeds > 1 else [])
    band = "min–max over " + " and ".join(over) if over else "min–max"
    if len(band) > st.MAX_TEXT:
        band = "min–max over " + " and ".join(([spread] if spreads else []) + ["seeds"])
    for r, row in enumerate(rows_):
        d = sub[sub.row == row]
        for c, m in enumerate(st.METRICS):
            ax = axes[r][c]
            k = st.METRIC_SCALE.get(m, 1.0)
            g = d.groupby("x")[m].agg(["mean", "min", "max", "count"]).sort_index()
            ax.fill_between(g.index, g["min"] * k, g["max"] * k, color=colour, alpha=0.2,
                            lw=0, label=band)
            ax.plot(g.index, g["mean"] * k, marker=marker, color=colour, label=f"{name}, mean")
            data += [(row, x, m, v["mean"], v["min"], v["max"], int(v["count"])) for x, v in g.iterrows()]
            ax.set_title(st.METRIC_TITLES[m])
            ax.set_ylabel(st.METRIC_LABELS[m])
            if r == len(rows_) - 1:
                ax.set_xlabel(xlabel)
        extra = row.split(" · ")[2:]
        axes[r][0].annotate(" · ".join(row.split(" · ")[:2] + extra), xy=(-0.42, 0.5),
                            xycoords="axes fraction", rotation=90, va="center", ha="center",
                            fontsize=9, fontweight="bold")
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2,
               frameon=False)
    fig.suptitle("Planning-window sensitivity", y=1.01)
    fig.tight_layout()
    frame = pd.DataFrame(data, columns=["row", "window_min", "metric", "mean", "min", "max", "n"])
    return fig, frame


def rho_cdf_figure(rho, scenario):
    """CDF of per-job rho, one line per policy label of `scenario`."""
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    rows = []
    labels = sorted((lab for s, lab in rho if s == scenario),
                    key=lambda lab: (st.policy_rank(lab.split(" (")[0]), lab))
    for lab in labels:
        v = np.sort(np.asarray(rho[(scenario, lab)]))
        if not len(v):
            continue
        colour, marker = st.style(lab)
        y = np.arange(1, len(v) + 1) / len(v)
        ax.plot(v, y, drawstyle="steps-post", color=colour, label=lab, lw=1.4, marker=marker,
                markevery=[len(v) - 1], markersize=5)  # the worst rho carries the marker
        rows += [(lab, float(x), float(p)) for x, p in zip(v, y)]
    ax.axvline(1.0, color="black", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel("finish-time fairness ρ (log scale)")
    ax.set_ylabel("fraction of jobs")
    ax.set_title(f"FTF ρ CDF · {scenario}")
    ax.legend(loc="lower right", fontsize=7, frameon=False)
    return fig, pd.DataFrame(rows, columns=["policy", "ftf_rho", "cdf"])


def read_golden(folder):
    """Reference runs of the 120-job / 32-GPU trace (golden/shockwave_tacc32): a frame policy,
    metric, value with the metrics of METRICS (worst rho = max of finish_time_fairness_list,
    unfair fraction = share of jobs with rho > 1.05, as SummaryMetrics)."""
    rows = []
    if not folder or not os.path.isdir(folder):
        return pd.DataFrame(rows, columns=["policy", "metric", "value"])
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("tacc_32gpus__") and name.endswith("__simulation.json")):
            continue
        policy = name[len("tacc_32gpus__"):-len("__simulation.json")]
        if policy in ("old_shockwave", "new_orig_hyperparam_shockwave"):
            continue  # variants with unknown configuration
        with open(os.path.join(folder, name)) as f:
            d = json.load(f)
        rho = d["finish_time_fairness_list"]
        rows += [(policy, "makespan_s", d["makespan"]), (policy, "mean_jct_s", d["avg_jct"]),
                 (policy, "worst_ftf_rho", max(rho)),
                 (policy, "unfair_fraction_1_05", sum(r > 1.05 for r in rho) / len(rho))]
    return pd.DataFrame(rows, columns=["policy", "metric", "value"])


GOLDEN_TRACE = "120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic"


def golden_for(df, scenario, golden):
    """The reference runs when `scenario` is theirs (120-job trace, 32 GPUs, 120 s rounds,
    deadline factor 1.5), else None."""
    d = df[df.scenario_label == scenario]
    if golden is None or not len(golden):
        return None
    match = ((d.trace_stem == GOLDEN_TRACE) & (d.num_gpus == 32) & (d.round_duration_s == 120)
             & (d.deadline_factor == 1.5)).any()
    return golden if match else None


KINDS = ("canonical", "scale", "window", "rho_cdf")


def draw_all(paths, out, baseline="", window_param="shockwave.future_rounds",
             window_spread="k", golden_dir="", kinds=KINDS):
    """Draws every applicable figure of `kinds` of the files into `out` (figures_data.csv holds
    every table regardless); returns the long-format rows and the names of the figures
    written."""
    st.apply_style()
    os.makedirs(out, exist_ok=True)
    df = read_summary(paths)
    if df.empty:
        raise SystemExit(f"{', '.join(paths)}: no tasks with status ok")
    base = "shockwave" if ((df.policy == "shockwave").any() or not baseline) else baseline
    golden = read_golden(golden_dir)
    rows, written = [], []
    rows += canonical_rows(df, base)
    for n, scenario in enumerate(sorted(df.scenario_label.unique())):
        d = df[df.scenario_label == scenario]
        if ("canonical" not in kinds or d.label.nunique() > MAX_CANONICAL_BARS
                or baseline_label(df, scenario, base) is None):
            continue
        fig, data = canonical_figure(df, scenario, base, golden_for(df, scenario, golden))
        st.save(fig, data, out, f"canonical_{n}")
        written.append(f"canonical_{n}")
    rows += scale_rows(df)
    if "scale" in kinds and df.num_gpus.nunique() > 1:
        fig, data = scale_figure(df)
        st.save(fig, data, out, "scale")
        written.append("scale")
    sub = window_frame(df, window_param, window_spread)
    if len(sub):
        rows += window_rows(sub, window_param)
    if "window" in kinds and len(sub) and sub.x.nunique() > 1:
        xlabel = ("planning window (min)" if window_param.endswith(".future_rounds")
                  else window_param.partition(".")[2])
        fig, data = window_figure(sub, window_spread, xlabel)
        st.save(fig, data, out, "window")
        written.append("window")
    rho = rho_values(df)
    rows += rho_rows(rho)
    for n, scenario in enumerate(sorted({s for s, _ in rho})):
        if ("rho_cdf" not in kinds
                or df[df.scenario_label == scenario].label.nunique() > MAX_CANONICAL_BARS):
            continue
        fig, data = rho_cdf_figure(rho, scenario)
        st.save(fig, data, out, f"rho_cdf_{n}")
        written.append(f"rho_cdf_{n}")
    pd.DataFrame(rows, columns=COLUMNS).to_csv(os.path.join(out, "figures_data.csv"),
                                               index=False, float_format="%.17g")
    return rows, written


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
    args = parser.parse_args(argv)
    _, written = draw_all(args.results, args.out, args.baseline, args.window_param,
                          args.window_spread, args.golden, args.figures.split(","))
    print(f"figures written to {args.out}: {', '.join(written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
