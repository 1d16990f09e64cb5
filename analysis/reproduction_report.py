#!/usr/bin/python3
"""Figures and reproduction report of `adaptsim reproduce shockwave|pollux|gavel|sia` (docs/reproduction.md).

  /usr/bin/python3 analysis/reproduction_report.py shockwave|pollux|gavel|sia --results DIR
      [--paper-numbers experiments/paper_numbers.toml] [--data ../shared/data] [--adaptsim PATH]

Reads the sweeps' results files DIR/<sweep>.h5 (those that exist), draws the paper's figures into
DIR/figures/ (analysis/figures.py, analysis/pollux_figures.py,
analysis/heterogeneous_figures.py, analysis/sia_figures.py, analysis/cross_family_figure.py)
and writes DIR/reproduction.md and
DIR/reproduction.csv: for every number the paper, its artifact or its reference runs state, the
stated value, adaptsim's value, their ratio, and whether adaptsim lands on the paper's side
(check "direction": same side of the pivot; "within": inside the relative tolerance;
"within_points": inside the absolute tolerance; "at_least": adaptsim's value at least the
stated one, for a claim such as "more than 70 % lower"; "at_most": at most the stated one). A number whose sweep has not run is listed as
"not run" and not counted. Every adaptsim value is computed here from the results files only;
the reference runs' metrics, the figures' numbers and every name come from `adaptsim report`
(analysis/adaptsim_tables.py; `adaptsim reproduce` passes its own binary as --adaptsim) and
analysis/labels.toml.
"""
import argparse
import datetime
import json
import math
import os
import shutil
import sys
import tomllib

import h5py
import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adaptsim_style as st  # noqa: E402
import adaptsim_tables  # noqa: E402
import cross_family_figure  # noqa: E402
import figures  # noqa: E402
import heterogeneous_figures  # noqa: E402
import pollux_figures  # noqa: E402
import sia_figures  # noqa: E402
from results_columns import pooled_p99, summary, with_metric  # noqa: E402

SWEEPS = {
    "shockwave": ["canonical", "pollux_canonical", "scale", "planning_window"],
    "pollux": ["pollux_jobload", "pollux_interval", "pollux_realistic", "pollux_fairness"],
    "gavel": ["heterogeneous", "gavel_job_rate"],
    "sia": ["sia_table3", "sia_arrival_rate", "sia_policy_runtime", "sia_table4", "sia_fig8",
            "cross_family_canonical"],
}
# The cross-family figure of `reproduce sia` (analysis/cross_family_figure.py): one row per
# scenario, (label, sweep); a row whose results file is absent is left out.
CROSS_FAMILY_SCENARIOS = [
    ("Shockwave trace · 120 jobs · 32 GPUs", "cross_family_canonical"),
    ("Philly · 64 T4 (Table 4)", "sia_table4"),
    ("Helios · 64 mixed GPUs (Fig. 8)", "sia_fig8"),
]
# Sweeps beyond the paper's evaluation (`adaptsim reproduce --only NAME`): listed and drawn when
# their results file exists, otherwise left out.
OPTIONAL_SWEEPS = {
    "shockwave": ["pollux_scale"],
    "pollux": [],
    "gavel": [],
    "sia": [],
}
TITLES = {
    "shockwave": "Shockwave (NSDI'23)",
    "pollux": "Pollux (OSDI'21)",
    "gavel": "Gavel (OSDI'20): heterogeneous clusters",
    "sia": "Sia (SOSP'23)",
}
SECTION_TITLES = {
    "paper": "Claims of the paper and its artifact",
    "reference run": "Reference runs: absolute values",
    "ratio to Shockwave (reference run)": "Reference runs: ratios to Shockwave",
    "artifact run": "Artifact runs: average JCT per workload",
    "partial": "Partial: fewer tasks than the paper's number averages (not counted)",
}
CSV_COLUMNS = ["section", "id", "what", "source", "paper", "adaptsim", "ratio", "check",
               "lands", "counted", "sweep", "selection"]


def select(df, number):
    """The tasks a paper number refers to: status (`statuses`, default ok), load, interval_s,
    workloads, trace_folder and cluster filters."""
    d = df[df.status.isin(number.get("statuses", ["ok"]))]
    if "trace_folder" in number:
        d = d[d.trace_folder == number["trace_folder"]]
    if "cluster" in number:
        d = d[d.cluster == number["cluster"]]
    if "load" in number:
        d = d[d.load == float(number["load"])]
    if "interval_s" in number:
        d = d[d.interval_s == float(number["interval_s"])]
    if "workloads" in number:
        d = d[d.workload.isin(number["workloads"])]
    return d


def policy_mean(d, policy, metric, path=None):
    """Mean of `metric` over the tasks of `policy` in `d`; for "p99_jct_pooled_s" the pooled p99
    of their jobs (read from `path`)."""
    if metric == "p99_jct_pooled_s":
        return pooled_p99(path, d.task_id[d.policy == policy])
    values = d[d.policy == policy][metric]
    return float(values.mean()) if len(values) else math.nan


def adaptsim_value(df, number, path=None):
    """adaptsim's value of a [[number]] and the number of tasks it used (`path`: the results
    file, for the metrics read from its tasks)."""
    if "metric" in number and path is not None:
        df = with_metric(df, path, number["metric"])
    d = select(df, number)
    kind = number["kind"]
    if kind == "ratio_mean":
        against = policy_mean(d, number["against"], number["metric"], path)
        ratios = [policy_mean(d, p, number["metric"], path) / against
                  for p in number["policies"]]
        used = d[d.policy.isin(number["policies"] + [number["against"]])]
        return float(np.mean(ratios)), len(used)
    if kind == "ratio_max":
        # "up to": the largest over the traces (the input rates) of the mean ratio over `policies`
        best, used = math.nan, 0
        for _, w in d.groupby("workload"):
            against = policy_mean(w, number["against"], number["metric"])
            ratios = [policy_mean(w, p, number["metric"]) / against for p in number["policies"]]
            if all(math.isfinite(r) for r in ratios):
                best = max(best, float(np.mean(ratios))) if math.isfinite(best) else \
                    float(np.mean(ratios))
                used += int(w.policy.isin(number["policies"] + [number["against"]]).sum())
        return best, used
    if kind == "ratio_pooled_max":
        # worst over the workloads: the largest `metric` of the policy's tasks / of `against`'s
        def largest(p):
            values = d[d.policy == p][number["metric"]]
            return float(values.max()) if len(values) else math.nan
        ratios = [largest(p) / largest(number["against"]) for p in number["policies"]]
        used = d[d.policy.isin(number["policies"] + [number["against"]])]
        return float(np.mean(ratios)), len(used)
    if kind == "reduction":
        ours = policy_mean(d, number["policy"], "mean_jct_s")
        against = number["against"] if isinstance(number["against"], list) else [number["against"]]
        value = float(np.mean([1.0 - ours / policy_mean(d, a, "mean_jct_s") for a in against]))
        used = d[d.policy.isin([number["policy"]] + against)]
        return value, len(used)
    if kind == "mean":
        value = policy_mean(d, number["policy"], number["metric"], path)
        if number.get("unit") == "h":
            value /= 3600
        return value, int((d.policy == number["policy"]).sum())
    raise SystemExit(f"paper numbers: {number['id']}: unknown kind {kind!r}")


def lands(check, paper, ours, pivot=None, tolerance=None):
    if not math.isfinite(ours):
        return False
    if check == "direction":
        return (paper - pivot) * (ours - pivot) > 0
    if check == "within":
        return abs(ours / paper - 1) <= tolerance
    if check == "within_points":
        return abs(ours - paper) <= tolerance
    if check == "at_least":
        return ours >= paper
    if check == "at_most":
        return ours <= paper
    raise SystemExit(f"paper numbers: unknown check {check!r}")


def row(section, id_, what, source, paper, ours, check, ok, sweep, selection):
    """One report row; `counted` is False for a number computed from fewer tasks than the
    paper's (a partial or reduced run): shown in the section "partial", not counted."""
    ratio = ours / paper if paper not in (0, 0.0) and math.isfinite(ours) else math.nan
    return dict(section=section, id=id_, what=what, source=source, paper=paper, adaptsim=ours,
                ratio=ratio, check=check, lands=ok, sweep=sweep, selection=selection,
                counted=True)


def golden_rows(spec, data, results, adaptsim=None):
    """The Shockwave reference runs: absolute values (within tolerance) and the ratios to
    Shockwave (same side of 1), over the tasks of the reference runs' configuration."""
    path = os.path.join(results, spec["sweep"] + ".h5")
    folder = os.path.join(data, spec["folder"])
    if not os.path.isdir(folder):
        return [], f"reference runs: no golden runs in {folder}"
    if not os.path.exists(path):
        return [], f"reference runs: sweep {spec['sweep']} not run"
    tables = adaptsim_tables.read([path], adaptsim, golden=folder)
    df, _ = summary(path)
    same = tables.tasks[tables.tasks.scenario.isin(tables.reference_scenarios)]
    d = df[(df.status == "ok") & df.task_id.isin(same.task_id)]
    g = {run["policy"]: run["metrics"] for run in tables.reference}
    rows = []
    tol = spec["tolerance"]
    order = sorted(g, key=lambda p: st.policy_rank(st.display_name(p)))
    for policy in order:
        if not (d.policy == policy).any():
            continue
        for m in st.METRICS:
            paper, ours = float(g[policy][m]), policy_mean(d, policy, m)
            check = "within_points" if m == "unfair_fraction_1_05" else "within"
            rows.append(row("reference run", f"{policy}.{m}",
                            f"{st.display_name(policy)} {st.METRIC_NAMES[m]}",
                            spec["source"], paper, ours, check,
                            lands(check, paper, ours, tolerance=tol[m]), spec["sweep"],
                            f"{int((d.policy == policy).sum())} tasks"))
    if "shockwave" in g and (d.policy == "shockwave").any():
        for policy in order:
            if policy == "shockwave" or not (d.policy == policy).any():
                continue
            for m in st.METRICS:
                paper = float(g[policy][m] / g["shockwave"][m])
                ours = policy_mean(d, policy, m) / policy_mean(d, "shockwave", m)
                rows.append(row("ratio to Shockwave (reference run)", f"{policy}/shockwave.{m}",
                                f"{st.display_name(policy)} / Shockwave, {st.METRIC_NAMES[m]}",
                                spec["source"], paper, ours,
                                "direction", lands("direction", paper, ours, pivot=1.0),
                                spec["sweep"],
                                f"{int(d.policy.isin([policy, 'shockwave']).sum())} tasks"))
    return rows, None


def artifact_rows(spec, data, results):
    """The Pollux artifact's per-workload average JCTs (results-jobload/*-1.0/summary.json)."""
    path = os.path.join(results, spec["sweep"] + ".h5")
    folder = os.path.join(data, spec["folder"])
    if not os.path.isdir(folder) or not os.path.exists(path):
        return [], f"artifact summaries: {folder if not os.path.isdir(folder) else path} absent"
    df, _ = summary(path)
    d = df[(df.status == "ok") & (df.load == float(spec["load"]))]
    rows = []
    for name in sorted(os.listdir(folder)):
        policy, _, load = name.rpartition("-")
        if float(load) != float(spec["load"]):
            continue
        with open(os.path.join(folder, name, "summary.json")) as f:
            avgs = json.load(f)["avgs"]
        for workload, paper in sorted(avgs.items()):
            ours = policy_mean(d[d.workload == workload], policy, "mean_jct_s")
            if not math.isfinite(ours):
                continue  # workload not in the sweep (a reduced run)
            rows.append(row("artifact run", f"{policy}.{workload}",
                            f"{st.display_name(policy)} {st.METRIC_NAMES['mean_jct_s']} (s), "
                            f"{workload}, load "
                            f"{st.number(float(load))}", spec["source"], float(paper), ours,
                            "within", lands("within", float(paper), ours,
                                            tolerance=spec["tolerance"]),
                            spec["sweep"],
                            f"{int(((d.workload == workload) & (d.policy == policy)).sum())} tasks"))
    return rows, None


def number_rows(numbers, paper, results):
    rows, missing = [], []
    for n in numbers:
        if n["paper"] != paper:
            continue
        path = os.path.join(results, n["sweep"] + ".h5")
        if not os.path.exists(path):
            missing.append(f"{n['id']} (sweep {n['sweep']} not run)")
            continue
        df, _ = summary(path)
        ours, used = adaptsim_value(df, n, path)
        expected = int(n.get("tasks", 0))
        if not math.isfinite(ours):
            note = " ".join(n.get("note", "").split())
            missing.append(f"{n['id']}: no ok task of the selection in {n['sweep']}.h5"
                           + (f" ({note})" if note else ""))
            continue
        rows.append(row("paper", n["id"], n["what"], n["source"], float(n["value"]), ours,
                        n["check"], lands(n["check"], float(n["value"]), ours, n.get("pivot"),
                                          n.get("tolerance")), n["sweep"], f"{used} tasks"))
        rows[-1]["note"] = " ".join(n.get("note", "").split())
        rows[-1]["counted"] = used >= expected
        if used < expected:
            rows[-1]["section"] = "partial"
    return rows, missing


def fmt(value):
    if not isinstance(value, float) or not math.isfinite(value):
        return "–"
    return f"{value:.0f}" if abs(value) >= 1000 else f"{value:.4g}"


def write_report(paper, results, rows, notes, sweeps, written, out_md, extra_sections=()):
    counted = [r for r in rows if r["counted"]]
    landed = sum(1 for r in counted if r["lands"])
    lines = [f"# Reproduction of {TITLES[paper]} with adaptsim", ""]
    lines += [f"**{landed} of {len(counted)} numbers land on the paper's side.**", ""]
    lines += ["Each row: a number the paper, its artifact or its reference runs state, adaptsim's "
              "value from this folder's results files, adaptsim / paper, and whether adaptsim "
              "lands on the paper's side (*same side of 1* for a claim such as \"1.3× better\", "
              "*≥ x* for one such as \"more than 70 % lower\", *within ±x %* for an absolute "
              "value). docs/reproduction.md explains the checks.",
              ""]
    lines += ["## Sweeps", "", "| sweep | tasks | ok | failed / timeout | written (UTC) | git |",
              "|---|---:|---:|---:|---|---|"]
    for name, info in sweeps.items():
        if info is None:
            lines.append(f"| {name} | not run | | | | |")
        else:
            lines.append(f"| {name} | {info['tasks']} | {info['ok']} | {info['bad']} | "
                         f"{info['created']} | {info['git']} |")
    lines.append("")
    lines += list(extra_sections)
    sections = []
    for r in sorted(rows, key=lambda r: r["section"] == "partial"):
        if r["section"] not in sections:
            sections.append(r["section"])
    for section in sections:
        members = [r for r in rows if r["section"] == section]
        sources = sorted({r["source"] for r in members})
        lines += [f"## {SECTION_TITLES.get(section, section)}", ""]
        if len(sources) == 1:
            lines += [f"Source: {sources[0]}.", ""]
        head = "| number | paper | adaptsim | adaptsim / paper | check | lands | tasks |"
        rule = "|---|---:|---:|---:|---|---|---:|"
        if len(sources) > 1:
            head, rule = head + " source |", rule + "---|"
        lines += [head, rule]
        for r in members:
            mark = "yes" if r["lands"] else "**no**"
            line = (f"| {r['what']} | {fmt(r['paper'])} | {fmt(r['adaptsim'])} | "
                    f"{fmt(r['ratio'])} | {r['check_text']} | {mark} | "
                    f"{r['selection'].split(' ')[0]} |")
            lines.append(line + (f" {r['source']} |" if len(sources) > 1 else ""))
        lines.append("")
        for r in members:
            if r.get("note"):
                lines += [f"Note on *{r['what']}*: {r['note']}", ""]
    if notes:
        lines += ["## Not compared", ""] + [f"* {n}" for n in notes] + [""]
    lines += ["## Figures", ""]
    for name in written:
        lines += [f"![{name}](figures/{name}.png)", ""]
    lines += [f"Written {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC by "
              "analysis/reproduction_report.py; every adaptsim number is computed from the "
              "results files in this folder (reproduction.csv holds them at full precision)."]
    with open(out_md, "w") as f:
        f.write("\n".join(lines) + "\n")
    return landed, len(counted)


def sweep_info(results, paper):
    info = {}
    for name in SWEEPS[paper] + OPTIONAL_SWEEPS[paper]:
        path = os.path.join(results, name + ".h5")
        if not os.path.exists(path):
            if name in SWEEPS[paper]:
                info[name] = None
            continue
        df, meta = summary(path)
        info[name] = dict(tasks=len(df), ok=int((df.status == "ok").sum()),
                          bad=int((df.status != "ok").sum()),
                          created=str(meta.get("created_utc", "")),
                          git=str(meta.get("git_sha", "")))
    return info


def draw(paper, results, data, numbers_path, adaptsim=None):
    """The paper's figures into results/figures; returns the names (relative to figures/)."""
    out = os.path.join(results, "figures")
    shutil.rmtree(out, ignore_errors=True)  # drawn anew from the results files every time
    written = []

    def path(name):
        p = os.path.join(results, name + ".h5")
        return p if os.path.exists(p) else None

    if paper == "shockwave":
        golden = os.path.join(data, "golden", "shockwave_tacc32")
        groups = [("canonical", [path("canonical"), path("pollux_canonical")],
                   ("canonical", "rho_cdf")),
                  ("scale", [path("scale"), path("pollux_scale")], ("scale", "canonical")),
                  ("planning_window", [path("planning_window")], ("window",))]
        for name, files, kinds in groups:
            files = [f for f in files if f]
            if files:
                _, names = figures.draw_all(files, os.path.join(out, name), golden_dir=golden,
                                            kinds=kinds, adaptsim=adaptsim)
                written += [f"{name}/{n}" for n in names]
    elif paper == "gavel":
        if path("heterogeneous") or path("gavel_job_rate"):
            written += heterogeneous_figures.draw_all(path("heterogeneous"),
                                                      path("gavel_job_rate"), out)
    elif paper == "sia":
        written += sia_figures.draw_all(path("sia_table3"), path("sia_arrival_rate"),
                                        path("sia_policy_runtime"), out, numbers_path,
                                        path("sia_table4"), path("sia_fig8"))
        scenarios = [(label, [path(name)], []) for label, name in CROSS_FAMILY_SCENARIOS
                     if path(name)]
        if scenarios:
            cross_family_figure.draw_all(scenarios, out)
            written.append("cross_family")
    else:
        files = [p for p in (path(name) for name in SWEEPS["pollux"]) if p]
        if files:
            written += pollux_figures.draw_all(files, out, numbers_path)
    return written


def sia_cell(paper, paper_std, ours, ours_std, digits=1):
    """A table cell "paper / **adaptsim**", each "value ± std" where a std is finite."""
    left = "–" if not math.isfinite(paper) else (
        f"{paper:.{digits}f}" + (f" ± {paper_std:.{digits}f}" if math.isfinite(paper_std)
                                 else ""))
    right = "–" if not math.isfinite(ours) else (
        f"{ours:.{digits}f}" + (f" ± {ours_std:.{digits}f}" if math.isfinite(ours_std)
                                else ""))
    return f"{left} / **{right}**"


def sia_table4_section(results, numbers_path):
    """Sia's Table 4 (64 T4, Philly) in the paper's row order, each cell "paper / adaptsim"
    (adaptsim: this folder's sia_table4.h5, Table 3's definitions); a policy of the paper's table
    without tasks is "not run". [] without results."""
    path = os.path.join(results, "sia_table4.h5")
    if not os.path.exists(path):
        return []
    rows = sia_figures.table3_rows(path)
    paper = sia_figures.paper_table4(numbers_path)
    lines = ["## Table 4 (homogeneous 64-T4 cluster, Philly): paper / **adaptsim**", "",
             "The paper states each value without a spread; adaptsim: mean ± population std over "
             "the workloads, p99 pooled over the workloads' jobs. Times in hours.", "",
             "| policy | workloads | avg JCT | p99 JCT | makespan | GPU h / job |",
             "|---|---:|---|---|---|---|"]
    nan = math.nan
    shown = [policy for policy, _, _ in paper]
    listed = paper + [(p, sia_figures.name(p), {}) for p in sia_figures.ordered(rows.policy)
                      if p not in shown]
    for policy, name, values in listed:
        r = rows[rows.policy == policy]
        if len(r) == 0:
            cells = [f"{values[m] * scale:.1f} / not run" if m in values else "– / not run"
                     for m, _, scale in sia_figures.TABLE3_METRICS]
            lines.append(f"| {name} | 0 | " + " | ".join(cells) + " |")
            continue
        r = r.iloc[0]
        cells = []
        for metric, _, scale in sia_figures.TABLE3_METRICS:
            std = r.get(metric + "_std", nan)
            cells.append(sia_cell(values.get(metric, nan) * scale, nan, r[metric] * scale,
                                  std * scale if isinstance(std, float) else nan))
        lines.append(f"| {name} | {r.tasks} | " + " | ".join(cells) + " |")
    return lines + [""]


def sia_fig8_section(results, numbers_path):
    """Sia's Fig. 8 (Helios, mixed cluster): per policy the worst ρ and the unfair fraction,
    "paper / adaptsim" (adaptsim: this folder's sia_fig8.h5, every completed job's Eq. 3 ρ pooled
    over the workloads), and adaptsim's mean and median ρ; a policy of the paper without tasks
    is "not run". [] without results."""
    path = os.path.join(results, "sia_fig8.h5")
    if not os.path.exists(path):
        return []
    rhos = sia_figures.fig8_rhos(path)
    paper = sia_figures.paper_fig8(numbers_path)
    lines = ["## Fig. 8 (finish-time fairness, Helios, heterogeneous 64-GPU cluster): "
             "paper / **adaptsim**", "",
             "ρ of every job (the paper's Eq. 3: Σ_g N_g/N · JCT / T_g, T_g the job alone on "
             "type g with its fair share; docs/sia.md §12), pooled over the workloads; unfair = "
             "ρ > 1 among the jobs with ρ > 0.", "",
             "| policy | workloads | jobs | worst ρ | unfair fraction (%) | mean ρ | median ρ |",
             "|---|---:|---:|---|---|---:|---:|"]
    shown = [policy for policy, _, _ in paper]
    listed = paper + [(p, sia_figures.name(p), {}) for p in rhos if p not in shown]
    nan = math.nan
    for policy, label, values in listed:
        worst, unfair = values.get("worst_rho", nan), 100 * values.get("unfair_fraction", nan)
        if policy not in rhos:
            lines.append(f"| {label} | 0 | 0 | {worst:.1f} / not run | {unfair:.1f} / not run "
                         "| – | – |")
            continue
        tasks, r = rhos[policy]
        s = sia_figures.fig8_summary(r)
        lines.append(f"| {label} | {tasks} | {s['jobs']} | "
                     f"{sia_cell(worst, nan, s['worst_rho'], nan)} | "
                     f"{sia_cell(unfair, nan, 100 * s['unfair_fraction'], nan)} | "
                     f"{s['mean_rho']:.2f} | {s['median_rho']:.2f} |")
    return lines + [""]


def sia_table3_section(results, numbers_path):
    """Sia's Table 3 as the paper prints it, each cell "paper / adaptsim" (adaptsim: this folder's
    sia_table3.h5, the artifact's definitions; docs/reproduction.md "Sia"). [] without results."""
    path = os.path.join(results, "sia_table3.h5")
    if not os.path.exists(path):
        return []
    rows = sia_figures.table3_rows(path)
    if len(rows) == 0:
        return []
    within = sia_figures.paper_table3(numbers_path)
    reported = sia_figures.paper_reported(numbers_path)

    cell = sia_cell

    lines = ["## Table 3 (heterogeneous 64-GPU cluster): paper / **adaptsim**", "",
             "Mean ± std over the workloads (adaptsim: population std of the tasks' values); "
             "p99 pooled over the workloads' jobs; contention = jobs submitted and not finished, "
             "mean per round averaged over the workloads (max over all rounds). Times in hours.",
             "", "| trace | policy | workloads | avg JCT | p99 JCT | makespan | GPU h / job | "
             "mean (max) contention |", "|---|---|---:|---|---|---|---|---|"]
    for r in rows.itertuples():
        key = (r.family, r.policy)
        rep = reported.get(key, {})

        def pw(metric):
            return within.get((r.family, r.policy, metric), (math.nan, math.nan))
        hours = [v / 3600 for v in pw("mean_jct_s")], \
            [v / 3600 for v in pw("makespan_from_first_submission_s")]
        avg, mk, gh = hours[0], hours[1], pw("gpu_hours_per_job")
        contention = (f"{rep['mean_contention']:g} ({rep['max_contention']:g})" if rep else "–")
        cells = [sia_figures.FAMILIES[r.family], sia_figures.name(r.policy), str(r.tasks),
                 cell(avg[0], avg[1], r.mean_jct_s / 3600, r.mean_jct_s_std / 3600),
                 cell(rep.get("p99_jct_h", math.nan), math.nan, r.p99_jct_pooled_s / 3600,
                      math.nan),
                 cell(mk[0], mk[1], r.makespan_from_first_submission_s / 3600,
                      r.makespan_from_first_submission_s_std / 3600),
                 cell(gh[0], gh[1], r.gpu_hours_per_job, r.gpu_hours_per_job_std),
                 f"{contention} / **{r.mean_contention:.1f} ({r.max_contention})**"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paper", choices=sorted(SWEEPS))
    parser.add_argument("--results", required=True, help="folder of the sweeps' results files")
    parser.add_argument("--paper-numbers", default=pollux_figures.DEFAULT_NUMBERS)
    parser.add_argument("--data", default=os.environ.get("ADAPTSIM_DATA", ""),
                        help="reference data folder (golden runs, Pollux artifact summaries)")
    parser.add_argument("--adaptsim", default=None,
                        help="the adaptsim command line (default: $ADAPTSIM_BINARY, PATH, the "
                             "checkout's build/release/src/app/adaptsim)")
    args = parser.parse_args(argv)
    with open(args.paper_numbers, "rb") as f:
        spec = tomllib.load(f)
    written = draw(args.paper, args.results, args.data, args.paper_numbers, args.adaptsim)
    rows, notes = [], []
    if args.paper == "shockwave":
        extra, note = golden_rows(spec["golden"], args.data, args.results, args.adaptsim)
        tol = spec["golden"]["tolerance"]
        for r in extra:
            r["check_text"] = (f"within ±{st.number(100 * tol[r['id'].split('.')[-1]])} %"
                               if r["check"] == "within" else
                               f"within ±{st.number(tol[r['id'].split('.')[-1]])}"
                               if r["check"] == "within_points" else "same side of 1")
    elif args.paper == "pollux":
        extra, note = artifact_rows(spec["artifact"], args.data, args.results)
        for r in extra:
            r["check_text"] = f"within ±{st.number(100 * spec['artifact']['tolerance'])} %"
    else:  # gavel, sia: their papers' claims only (no reference runs of these policies exist)
        extra, note = [], None
    if note:
        notes.append(note)
    paper_rows, missing = number_rows(spec.get("number", []), args.paper, args.results)
    by_id = {n["id"]: n for n in spec.get("number", [])}
    for r in paper_rows:
        n = by_id[r["id"]]
        r["check_text"] = ("same side of " + st.number(n["pivot"]) if n["check"] == "direction"
                           else f"within ±{st.number(100 * n['tolerance'])} %"
                           if n["check"] == "within" else f"≥ {st.number(n['value'])}"
                           if n["check"] == "at_least" else f"≤ {st.number(n['value'])}"
                           if n["check"] == "at_most" else f"within ±{st.number(n['tolerance'])}")
    rows = paper_rows + extra
    notes += missing
    if args.paper == "gavel":
        notes.append("heterogeneous study: aware / agnostic ratios per family, scenario and metric "
                     "are in figures/heterogeneous_ratios.csv")
    if args.paper == "shockwave":
        notes.append("scale study and planning window: the paper states no numbers for them in "
                     "the artifact; compare the figures with the paper's Fig. 9 and its "
                     "planning-window discussion")
    if args.paper == "sia":
        notes.append("policy runtime (Fig. 9): measured thread CPU time per optimisation over "
                     "each task's first rounds (the tasks stop at the sweep's round budget, "
                     "status timeout); figures/sia_policy_runtime.csv holds every value")
    sweeps = sweep_info(args.results, args.paper)
    sections = (sia_table3_section(args.results, args.paper_numbers)
                + sia_table4_section(args.results, args.paper_numbers)
                + sia_fig8_section(args.results, args.paper_numbers)
                if args.paper == "sia" else [])
    landed, total = write_report(args.paper, args.results, rows, notes, sweeps, written,
                                 os.path.join(args.results, "reproduction.md"), sections)
    pd.DataFrame(rows, columns=CSV_COLUMNS + ["check_text"])[CSV_COLUMNS].to_csv(
        os.path.join(args.results, "reproduction.csv"), index=False, float_format="%.17g")
    print(f"{args.results}/reproduction.md: {landed} of {total} numbers land on the paper's side; "
          f"figures: {len(written)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
