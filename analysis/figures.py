#!/usr/bin/python3
"""Paper-style figures from an adaptsim results file.

    /usr/bin/python3 analysis/figures.py RESULTS.h5 --out DIR [--baseline POLICY]
                                         [--window-param shockwave.future_rounds]

Writes, as PNG and PDF, into DIR:
  canonical_<n>.{png,pdf}  makespan, mean JCT, worst rho, unfair fraction per policy, normalised
                           to Shockwave (or to --baseline when shockwave is absent), one file
                           per scenario (trace, GPUs, round length, deadline factor)
  scale.{png,pdf}          the four metrics against cluster size (num_gpus), one line per policy
  window.{png,pdf}         the metrics against the planning-window parameter, mean with the
                           min-max spread over seeds (only when such tasks exist)
  rho_cdf.{png,pdf}        CDF of per-job finish-time fairness rho per policy
and figures_data.csv: every plotted number in the long format of
`adaptsim report --format csv` (table, scenario, policy, x, metric, stat, value). The definitions
are those of include/adaptsim/results_analysis.hpp; tests/mpi/figures_check.py checks that both agree
and that they equal the results file's numbers.
Needs Debian's python3-h5py, -pandas, -matplotlib, -numpy (installed by scripts/install-deps).
"""
import argparse
import json
import math
import os
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

METRICS = ["makespan_s", "mean_jct_s", "worst_ftf_rho", "unfair_fraction_1_05"]
TITLES = {"makespan_s": "makespan", "mean_jct_s": "mean JCT", "worst_ftf_rho": "worst FTF rho",
          "unfair_fraction_1_05": "unfair fraction (rho > 1.05)"}


def read_summary(path):
    """The /summary table (ok tasks only), sorted by task_index."""
    with h5py.File(path, "r") as f:
        g = f["summary"]
        df = pd.DataFrame({k: (g[k].asstr()[:] if g[k].dtype.kind == "O" else g[k][:]) for k in g})
    df = df[df.status == "ok"].sort_values("task_index").reset_index(drop=True)
    stem = df.trace.map(lambda p: os.path.splitext(os.path.basename(p))[0])
    df["scenario"] = [f"{s}|{g}|{r:g}|{d:g}" for s, g, r, d in
                      zip(stem, df.num_gpus, df.round_duration_s, df.deadline_factor)]
    df["label"] = [p if o in ("{}", "") else p + o for p, o in zip(df.policy, df.policy_options)]
    return df


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values else math.nan


def canonical_rows(df, baseline):
    rows = []
    for (scenario, label), members in df.groupby(["scenario", "label"], sort=True):
        same = df[(df.scenario == scenario) & (df.policy == baseline)]
        base_label = baseline if (same.label == baseline).any() else (
            sorted(same.label.unique())[0] if len(same) else None)
        base = same[same.label == base_label] if base_label is not None else same.iloc[0:0]
        for m in METRICS:
            value = mean(members[m])
            b = mean(base[m]) if len(base) else math.nan
            rows.append(("canonical", scenario, label, "", m, "mean", value))
            rows.append(("canonical", scenario, label, "", m, "normalised",
                         value / b if (b == b and b != 0) else math.nan))
    return rows


def scale_rows(df):
    rows = []
    for (label, gpus), members in df.groupby(["label", df.num_gpus.astype(str)], sort=True):
        for m in METRICS:
            rows.append(("scale", "", label, gpus, m, "mean", mean(members[m])))
    return rows


def window_rows(df, param):
    policy, _, option = param.partition(".")
    values = []
    for opts in df.policy_options:
        o = json.loads(opts) if opts else {}
        v = o.get(option)
        values.append(float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None)
    sub = df.assign(_x=values)
    sub = sub[(sub.policy == policy) & sub._x.notna()]
    rows = []
    for x, members in sub.groupby("_x", sort=True):
        for m in METRICS:
            v = list(members[m])
            mu = mean(v)
            std = math.sqrt(sum((e - mu) ** 2 for e in v) / (len(v) - 1)) if len(v) > 1 else 0.0
            for stat, number in (("mean", mu), ("std", std), ("min", min(v)), ("max", max(v)),
                                 ("n", float(len(v)))):
                rows.append(("window", "", param, f"{x:g}", m, stat, number))
    return rows


def rho_values(path, df):
    """label -> finite per-job ftf_rho pooled over the label's tasks."""
    out = {}
    with h5py.File(path, "r") as f:
        for task_id, label in zip(df.task_id, df.label):
            rho = f["tasks"][task_id]["jobs"]["ftf_rho"][:]
            out.setdefault(label, []).extend(float(r) for r in rho if math.isfinite(r))
    return out


def quantile(values, q):
    return float(np.quantile(np.asarray(values), q)) if values else math.nan


def rho_rows(rho):
    rows = []
    for label in sorted(rho):
        v = rho[label]
        for stat, number in (("p50", quantile(v, 0.5)), ("p90", quantile(v, 0.9)),
                             ("p99", quantile(v, 0.99)), ("max", max(v) if v else math.nan),
                             ("mean", mean(v)), ("n", float(len(v)))):
            rows.append(("rho_cdf", "", label, "", "ftf_rho", stat, number))
    return rows


def save(fig, out, name):
    for ext in ("png", "pdf"):
        fig.savefig(os.path.join(out, f"{name}.{ext}"), bbox_inches="tight")
    plt.close(fig)


def draw_canonical(rows, out, baseline):
    data = pd.DataFrame(rows, columns=["table", "scenario", "policy", "x", "metric", "stat", "value"])
    data = data[data.stat == "normalised"]
    for n, scenario in enumerate(sorted(data.scenario.unique())):
        d = data[data.scenario == scenario]
        fig, axes = plt.subplots(1, len(METRICS), figsize=(4 * len(METRICS), 3.5))
        for ax, m in zip(axes, METRICS):
            dm = d[d.metric == m]
            ax.bar(range(len(dm)), dm.value)
            ax.set_xticks(range(len(dm)), dm.policy, rotation=60, ha="right", fontsize=7)
            ax.axhline(1.0, color="black", lw=0.8, ls="--")
            ax.set_title(f"{TITLES[m]} / {baseline}", fontsize=9)
        fig.suptitle(scenario, fontsize=8)
        save(fig, out, f"canonical_{n}")


def draw_lines(rows, out, name, xlabel, spread):
    data = pd.DataFrame(rows, columns=["table", "scenario", "policy", "x", "metric", "stat", "value"])
    fig, axes = plt.subplots(1, len(METRICS), figsize=(4 * len(METRICS), 3.5))
    for ax, m in zip(axes, METRICS):
        for label, d in data[data.metric == m].groupby("policy"):
            piv = d.pivot(index="x", columns="stat", values="value")
            piv.index = piv.index.astype(float)
            piv = piv.sort_index()
            ax.plot(piv.index, piv["mean"], marker="o", label=label)
            if spread:
                ax.fill_between(piv.index, piv["min"], piv["max"], alpha=0.25)
        ax.set_xlabel(xlabel)
        ax.set_title(TITLES[m], fontsize=9)
    axes[0].legend(fontsize=6)
    save(fig, out, name)


def draw_cdf(rho, out):
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for label in sorted(rho):
        v = np.sort(np.asarray(rho[label]))
        if len(v):
            ax.step(v, np.arange(1, len(v) + 1) / len(v), where="post", label=label)
    ax.set_xlabel("finish-time fairness rho")
    ax.set_ylabel("CDF of jobs")
    ax.legend(fontsize=6)
    save(fig, out, "rho_cdf")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results")
    parser.add_argument("--out", required=True)
    parser.add_argument("--baseline", default="",
                        help="policy to normalise by when shockwave is absent")
    parser.add_argument("--window-param", default="shockwave.future_rounds")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    df = read_summary(args.results)
    if df.empty:
        print(f"{args.results}: no tasks with status ok", file=sys.stderr)
        return 1
    baseline = "shockwave" if ((df.policy == "shockwave").any() or not args.baseline) else args.baseline
    rows = canonical_rows(df, baseline)
    draw_canonical(rows, args.out, baseline)
    scale = scale_rows(df)
    rows += scale
    draw_lines(scale, args.out, "scale", "GPUs", spread=False)
    window = window_rows(df, args.window_param)
    if window:
        rows += window
        draw_lines(window, args.out, "window", args.window_param, spread=True)
    else:
        print(f"no tasks with {args.window_param}: window figure skipped", file=sys.stderr)
    rho = rho_values(args.results, df)
    rows += rho_rows(rho)
    draw_cdf(rho, args.out)
    pd.DataFrame(rows, columns=["table", "scenario", "policy", "x", "metric", "stat", "value"]) \
        .to_csv(os.path.join(args.out, "figures_data.csv"), index=False, float_format="%.17g")
    print(f"figures written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
