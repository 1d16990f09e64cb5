#!/usr/bin/python3
"""Checks the output of `adaptsim reproduce PAPER --out OUT` (tests/mpi/reproduce_quick.sh):
  * reproduction.md states "N of M numbers land on the paper's side" and reproduction.csv has
    those M rows; every adaptsim value in it is recomputed here from the results files (h5py,
    independently of analysis/), every paper value from the paper numbers file, the golden runs
    or the artifact summaries;
  * every figure exists as PNG (>= 150 dpi), PDF and CSV, and each CSV equals the numbers
    recomputed here from the results files;
  * no text element of any figure contains '{' or exceeds 40 characters, read back from the
    matplotlib Figure objects while the figures are drawn again;
  * the second run resumed: it ran no task.
Usage: reproduce_check.py PAPER OUT SOURCE_DIR DATA_DIR"""
import csv
import glob
import json
import math
import os
import re
import struct
import sys
import tempfile
import tomllib

import h5py
import numpy as np

paper, out, src, data = sys.argv[1:5]
sys.path.insert(0, os.path.join(src, "analysis"))
from declared_labels import DISPLAY, policy_of  # noqa: E402
checked = 0


def same(a, b):
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def expect(a, b, what):
    global checked
    assert same(a, b), f"{what}: {a} != {b}"
    checked += 1


def tasks(name, statuses=("ok",)):
    """Every task of OUT/name.h5 of `statuses` as dicts (summary columns, options parsed, load,
    the workload's folder, Sia's makespan from the first submission, policy statistics)."""
    with h5py.File(os.path.join(out, name + ".h5"), "r") as f:
        s = f["summary"]
        cols = {k: (s[k].asstr()[:] if s[k].dtype.kind == "O" else s[k][:]) for k in s}
        rows = []
        for i in range(len(cols["task_id"])):
            r = {k: v[i] for k, v in cols.items()}
            if r["status"] not in statuses:
                continue
            task = f["tasks"][r["task_id"]]
            for k, v in task["policy_statistics"].attrs.items():
                r["statistic." + k] = float(v)
            r["trace_folder"] = os.path.basename(os.path.dirname(r["trace"]))
            r["options"] = json.loads(r["policy_options"] or "{}")
            m = re.search(r"workloads-([0-9.]+)/", r["trace"])
            r["load"] = float(m.group(1)) if m else 1.0
            r["workload"] = os.path.splitext(os.path.basename(r["trace"]))[0]
            r["config"] = "Realistic" if "workloads-realistic/" in r["trace"] else "TunedJobs"
            r["p"] = float(r["options"].get("p", -1.0))
            r["interval_s"] = float(r["options"].get("interval_s", 60.0))
            if "jobs" not in task:  # detail "summary"
                rows.append(r)
                continue
            jobs = task["jobs"]
            r["rho"] = jobs["ftf_rho"][:]
            r["rho_eq3"] = jobs["ftf_rho_type_weighted"][:]
            done = jobs["outcome"].asstr()[:] == "completed"
            r["jct"] = jobs["jct_s"][:][done]
            r["makespan_from_first_submission_s"] = (
                float(jobs["completion_s"][:].max() - jobs["arrival_s"][:].min()) if done.all()
                else math.nan)
            rows.append(r)
    return rows


def mean_of(rows, policy, metric):
    if metric == "p99_jct_pooled_s":  # Sia's p99: pooled JCTs, element int(0.99 n), no interpolation
        jcts = sorted(np.concatenate([r["jct"] for r in rows if r["policy"] == policy] or [[]]))
        return float(jcts[int(0.99 * len(jcts))]) if jcts else math.nan
    values = [r.get(metric, math.nan) for r in rows if r["policy"] == policy]
    return float(np.mean(values)) if values else math.nan


# ---- the report -----------------------------------------------------------------------------
numbers = {n["id"]: n for n in tomllib.load(open(os.path.join(src, "experiments",
                                                               "paper_numbers.toml"), "rb"))
           ["number"]}
md = open(os.path.join(out, "reproduction.md")).read()
m = re.search(r"(\d+) of (\d+) numbers land on the paper's side", md)
assert m, "summary line missing"
landed, total = int(m.group(1)), int(m.group(2))
report = list(csv.DictReader(open(os.path.join(out, "reproduction.csv"))))
assert report, "no number compared"
counted = [r for r in report if r["counted"] == "True"]
assert len(counted) == total, (len(counted), total)
assert sum(r["lands"] == "True" for r in counted) == landed
# A number is partial (not counted) exactly when it averages fewer tasks than the paper's.
for r in report:
    if r["section"] in ("paper", "partial"):
        expected = numbers[r["id"]]["tasks"]
        used = int(r["selection"].split()[0])
        assert (r["counted"] == "True") == (used >= expected), r
golden_dir = os.path.join(data, "golden", "shockwave_tacc32")
for r in report:
    if r["section"] in ("paper", "partial"):
        n = numbers[r["id"]]
        expect(r["paper"], n["value"], r["id"])
        rows = [t for t in tasks(n["sweep"], tuple(n.get("statuses", ["ok"])))
                if ("load" not in n or t["load"] == n["load"])
                and ("trace_folder" not in n or t["trace_folder"] == n["trace_folder"])
                and ("cluster" not in n or t["cluster"] == n["cluster"])
                and ("interval_s" not in n or t["options"].get("interval_s", 60.0) == n["interval_s"])
                and ("workloads" not in n or t["workload"] in n["workloads"])]
        if n["kind"] == "reduction" and isinstance(n["against"], list):
            value = np.mean([1 - mean_of(rows, n["policy"], "mean_jct_s") / mean_of(
                rows, a, "mean_jct_s") for a in n["against"]])
        elif n["kind"] == "ratio_mean":
            value = np.mean([mean_of(rows, p, n["metric"]) / mean_of(rows, n["against"], n["metric"])
                             for p in n["policies"]])
        elif n["kind"] == "ratio_max":  # the largest over the traces of the per-trace ratio
            value = max(np.mean([mean_of([t for t in rows if t["workload"] == w], p, n["metric"])
                                 / mean_of([t for t in rows if t["workload"] == w], n["against"],
                                           n["metric"]) for p in n["policies"]])
                        for w in {t["workload"] for t in rows})
        elif n["kind"] == "ratio_pooled_max":  # worst over the workloads, policy / against
            def largest(p):
                return max([t[n["metric"]] for t in rows if t["policy"] == p] or [math.nan])
            value = np.mean([largest(p) / largest(n["against"]) for p in n["policies"]])
        elif n["kind"] == "reduction":
            value = 1 - mean_of(rows, n["policy"], "mean_jct_s") / mean_of(rows, n["against"],
                                                                          "mean_jct_s")
        else:
            value = mean_of(rows, n["policy"], n["metric"]) / (3600 if n.get("unit") == "h" else 1)
        expect(r["adaptsim"], value, r["id"])
    elif r["section"] in ("reference run", "ratio to Shockwave (reference run)"):
        rows = [t for t in tasks("canonical") if t["num_gpus"] == 32]
        left, metric = r["id"].rsplit(".", 1)
        policy = left.split("/")[0]
        g = json.load(open(os.path.join(golden_dir, f"tacc_32gpus__{policy}__simulation.json")))
        gs = json.load(open(os.path.join(golden_dir, "tacc_32gpus__shockwave__simulation.json")))

        def golden(d):
            rho = d["finish_time_fairness_list"]
            return {"makespan_s": d["makespan"], "mean_jct_s": d["avg_jct"],
                    "worst_ftf_rho": max(rho),
                    "unfair_fraction_1_05": sum(x > 1.05 for x in rho) / len(rho)}[metric]
        if "/" in left:
            expect(r["paper"], golden(g) / golden(gs), r["id"])
            expect(r["adaptsim"], mean_of(rows, policy, metric) / mean_of(rows, "shockwave",
                                                                           metric), r["id"])
        else:
            expect(r["paper"], golden(g), r["id"])
            expect(r["adaptsim"], mean_of(rows, policy, metric), r["id"])
    elif r["section"] == "artifact run":
        policy, workload = r["id"].split(".")
        avgs = json.load(open(os.path.join(data, "pollux", "results-jobload", f"{policy}-1.0",
                                           "summary.json")))["avgs"]
        expect(r["paper"], avgs[workload], r["id"])
        rows = [t for t in tasks("pollux_jobload") if t["load"] == 1.0 and t["workload"] == workload]
        expect(r["adaptsim"], mean_of(rows, policy, "mean_jct_s"), r["id"])
    else:
        raise AssertionError(f"unknown section {r['section']}")
    paper_value, ours = float(r["paper"]), float(r["adaptsim"])
    if r["check"] == "direction":
        pivot = numbers[r["id"]]["pivot"] if r["id"] in numbers else 1.0
        assert (r["lands"] == "True") == ((paper_value - pivot) * (ours - pivot) > 0), r
    if r["check"] == "at_least":
        assert (r["lands"] == "True") == (ours >= paper_value), r
    if r["check"] == "at_most":
        assert (r["lands"] == "True") == (ours <= paper_value), r
    if r["check"] == "within":
        tolerance = numbers[r["id"]]["tolerance"] if r["id"] in numbers else None
        if tolerance is not None:
            assert (r["lands"] == "True") == (abs(ours / paper_value - 1) <= tolerance), r

# ---- the figures: files, resolution, data -----------------------------------------------------
figdir = os.path.join(out, "figures")
pngs = sorted(glob.glob(os.path.join(figdir, "**", "*.png"), recursive=True))
assert pngs, "no figure"


def png_dpi(path):
    """Horizontal resolution from the PNG's pHYs chunk (pixels per metre -> dpi)."""
    blob = open(path, "rb").read()
    at = blob.find(b"pHYs")
    assert at > 0, f"{path}: no pHYs chunk"
    ppm_x, _, unit = struct.unpack(">IIB", blob[at + 4:at + 13])
    assert unit == 1, path
    return ppm_x * 0.0254


for png in pngs:
    stem = png[:-4]
    assert os.path.getsize(stem + ".pdf") > 1000, f"{stem}.pdf missing"
    assert os.path.exists(stem + ".csv"), f"{stem}.csv missing"
    assert png_dpi(png) >= 150, f"{png}: {png_dpi(png):.0f} dpi"


def scenario(t):
    return f"{t['num_jobs']} jobs · {t['num_gpus']} GPUs"


def figure_rows(name):
    return list(csv.DictReader(open(os.path.join(figdir, name + ".csv"))))


def check_canonical(rows, name):
    for r in figure_rows(name):
        ts = [t for t in rows if scenario(t) == r["scenario"]]
        policy = policy_of(r["policy"])
        expect(r["normalised"], mean_of(ts, policy, r["metric"]) / mean_of(ts, "shockwave",
                                                                          r["metric"]), name)


if paper == "shockwave":
    canonical = tasks("canonical") + tasks("pollux_canonical")
    names = [os.path.relpath(p, figdir)[:-4] for p in pngs]
    for name in names:
        group, fig = name.split("/")
        rows = {"canonical": canonical, "scale": tasks("scale"),
                "planning_window": tasks("planning_window")}[group]
        if fig.startswith("canonical_"):
            check_canonical(rows, name)
        elif fig == "scale":
            # Per-scale options (a zip of GPUs and Shockwave's k) do not split a policy's line.
            assert {r["policy"] for r in figure_rows(name)} <= set(DISPLAY.values()), name
            for r in figure_rows(name):
                policy = policy_of(r["policy"])
                ts = [t for t in rows if t["num_gpus"] == int(r["num_gpus"])]
                expect(r["mean"], mean_of(ts, policy, r["metric"]), name)
        elif fig == "window":
            for r in figure_rows(name):
                ts = [t for t in rows if r["row"].startswith(scenario(t)) and same(
                    t["options"]["future_rounds"] * t["round_duration_s"] / 60, r["window_min"])]
                values = [t[r["metric"]] for t in ts]
                expect(r["mean"], np.mean(values), name)
                expect(r["min"], np.min(values), name)
                expect(r["max"], np.max(values), name)
                expect(r["n"], len(values), name)
        elif fig.startswith("rho_cdf_"):
            fr = figure_rows(name)
            for label in {r["policy"] for r in fr}:
                policy = policy_of(label)
                rho = np.sort(np.concatenate([t["rho"] for t in rows if t["policy"] == policy]))
                rho = rho[np.isfinite(rho)]
                plotted = [float(r["ftf_rho"]) for r in fr if r["policy"] == label]
                assert len(plotted) == len(rho), (name, label)
                for a, b in zip(plotted, rho):
                    expect(a, b, name)
        else:
            raise AssertionError(f"unexpected figure {name}")
    assert any(n.endswith("/window") for n in names) and any("canonical/canonical_" in n
                                                             for n in names), names
elif paper == "pollux":
    # Every task once (a task id in two files is one run), then the paper's configuration:
    # TunedJobs workloads, Pollux with p = -1 (explicit or the default), and the baselines.
    unique = {}
    for name in ("pollux_jobload", "pollux_interval", "pollux_realistic", "pollux_fairness"):
        for t in tasks(name):
            unique.setdefault(t["task_id"], t)
    every = list(unique.values())
    paper_config = [t for t in every if t["config"] == "TunedJobs" and t["p"] == -1.0]
    load = [t for t in paper_config if t["interval_s"] == 60.0]
    for r in figure_rows("pollux_mean_jct_vs_load"):
        ts = [t for t in load if t["load"] == float(r["load"])]
        expect(r["mean"], mean_of(ts, r["policy"], "mean_jct_s"), "jobload")
        expect(r["count"], len([t for t in ts if t["policy"] == r["policy"]]), "jobload")
    cdf = figure_rows("pollux_jct_cdf")
    loads = {t["load"] for t in load}
    at = 1.0 if 1.0 in loads else min(loads)  # the CDF's load: 1.0, else the lowest
    assert len(cdf) == sum(len(t["jct"]) for t in load if t["load"] == at), len(cdf)
    for policy in {r["policy"] for r in cdf}:
        ours = sorted(float(r["jct_s"]) for r in cdf if r["policy"] == policy)
        theirs = sorted(np.concatenate([t["jct"] for t in load if t["load"] == at
                                        and t["policy"] == policy]))
        for a, b in zip(ours, theirs):
            expect(a, b, "jct cdf")
    for r in figure_rows("pollux_interval"):
        ts = [t for t in paper_config if t["policy"] == "pollux" and t["load"] == at
              and t["interval_s"] == float(r["interval_s"])]
        expect(r["mean"], np.mean([t["mean_jct_s"] for t in ts]), "interval")
    # Job configurations (load 1, 60 s interval, Pollux with p = -1): bars and reductions.
    configs = [t for t in every if t["load"] == 1.0 and t["interval_s"] == 60.0
               and t["p"] == -1.0]
    assert any(t["config"] == "Realistic" for t in configs), "no realistic task"
    bars = figure_rows("pollux_realistic_mean_jct")
    assert {(r["policy"], r["config"]) for r in bars} == {(t["policy"], t["config"])
                                                          for t in configs}, bars
    realistic = [t for t in configs if t["config"] == "Realistic"]
    for r in bars:
        ts = [t for t in configs if t["policy"] == r["policy"] and t["config"] == r["config"]]
        expect(r["mean"], np.mean([t["mean_jct_s"] for t in ts]), "realistic bars")
        expect(r["count"], len(ts), "realistic bars")
        if r["config"] == "Realistic" and r["policy"] != "pollux":
            expect(r["pollux_reduction"], 1 - mean_of(realistic, "pollux", "mean_jct_s")
                   / mean_of(realistic, r["policy"], "mean_jct_s"), "realistic reduction")
    cdf = figure_rows("pollux_realistic_jct_cdf")
    assert len(cdf) == sum(len(t["jct"]) for t in configs), len(cdf)
    for key in {(r["policy"], r["config"]) for r in cdf}:
        ours = sorted(float(r["jct_s"]) for r in cdf if (r["policy"], r["config"]) == key)
        theirs = sorted(np.concatenate([t["jct"] for t in configs
                                        if (t["policy"], t["config"]) == key]))
        assert len(ours) == len(theirs), key
        for a, b in zip(ours, theirs):
            expect(a, b, "realistic jct cdf")
    # The fairness knob: Pollux on TunedJobs at a 60 s interval, per load and p, over workloads.
    knob = [t for t in every if t["policy"] == "pollux" and t["config"] == "TunedJobs"
            and t["interval_s"] == 60.0]
    fairness = figure_rows("pollux_fairness")
    assert {(float(r["load"]), float(r["p"])) for r in fairness} == {(t["load"], t["p"])
                                                                     for t in knob}, fairness
    assert len({float(r["p"]) for r in fairness}) >= 3, "fewer than three values of p"
    for r in fairness:
        ts = [t for t in knob if t["load"] == float(r["load"]) and t["p"] == float(r["p"])]
        values = [t[r["metric"]] for t in ts]  # gpu_hours_per_job: a summary column
        expect(r["mean"], np.mean(values), "fairness")
        expect(r["min"], np.min(values), "fairness")
        expect(r["max"], np.max(values), "fairness")
        expect(r["n"], len(values), "fairness")
    assert {r["metric"] for r in fairness} == {"mean_jct_s", "p99_jct_s", "makespan_s",
                                               "worst_ftf_rho", "unfair_fraction_1_05",
                                               "gpu_hours_per_job"}, fairness

if paper == "gavel":
    het = tasks("heterogeneous")
    comparison = figure_rows("heterogeneous")
    assert comparison, "empty heterogeneous figure"
    with h5py.File(os.path.join(out, "heterogeneous.h5"), "r") as f:
        s = f["summary"]
        failed = [(p, c, m) for p, c, st, m in zip(s["policy"].asstr()[:], s["cluster"].asstr()[:],
                                                    s["status"].asstr()[:], s["message"].asstr()[:])
                  if st != "ok"]
    # A cell whose every task failed is a row with status "failed" and its error (the figure marks
    # it instead of drawing a bar); every failed task of a cell without ok tasks has such a row.
    marked = [r for r in comparison if r["status"] != "ok"]
    for r in marked:
        assert r["message"] and (r["policy"], r["cluster"], r["message"]) in failed, r
        assert not any(t["policy"] == r["policy"] and t["cluster"] == r["cluster"] for t in het), r
    for p, c, m in failed:
        if not any(t["policy"] == p and t["cluster"] == c for t in het):
            assert any(r["policy"] == p and r["cluster"] == c for r in marked), (p, c, m)
    comparison = [r for r in comparison if r["status"] == "ok"]
    for r in comparison:
        ts = [t for t in het if scenario(t) == r["scenario"] and t["policy"] == r["policy"]]
        for metric in ("mean_jct_s", "makespan_s", "worst_ftf_rho", "utilization",
                       "worst_ftf_rho_type_weighted"):
            expect(r[metric], np.mean([t[metric] for t in ts]), "heterogeneous " + metric)
        assert r["cluster"] == ts[0]["cluster"], r
    assert {(scenario(t), t["policy"]) for t in het} == {(r["scenario"], r["policy"])
                                                          for r in comparison}
    for r in figure_rows("heterogeneous_ratios"):
        expect(r["ratio"], float(r["agnostic"]) / float(r["aware"]), "ratio")
    rate = tasks("gavel_job_rate")
    with h5py.File(os.path.join(out, "gavel_job_rate.h5"), "r") as f:
        for t in rate:
            jobs = f["tasks"][t["task_id"]]["jobs"]
            ids, jct = jobs["job_id"][:], jobs["jct_s"][:]
            middle = (ids >= len(ids) // 4) & (ids < len(ids) - len(ids) // 4)
            t["steady"] = float(np.mean(jct[middle]))
            t["rate"] = float(re.search(r"rate_([0-9.]+)", t["trace"]).group(1))
    for r in figure_rows("gavel_job_rate"):
        ts = [t for t in rate if t["policy"] == r["policy"]
              and t["rate"] == float(r["jobs_per_hour"])]
        expect(r["steady_jct_s"], np.mean([t["steady"] for t in ts]), "steady-state JCT")

if paper == "sia":
    labels = tomllib.load(open(os.path.join(src, "analysis", "labels.toml"), "rb"))
    sia_name = {p: labels.get("paper_names", {}).get("sia", {}).get(p, DISPLAY.get(p, p))
                for p in ("sia", "pollux_unaware", "gavel_tj", "themis_tj", "shockwave_tj")}
    registry = {shown: policy for policy, shown in sia_name.items()}
    table3 = tasks("sia_table3")
    families = {"philly": "Philly", "saturn": "Helios", "newtrace": "newTrace"}
    cells = figure_rows("sia_table3")
    assert cells, "empty Table 3 figure"
    for r in cells:
        ts = [t for t in table3 if t["trace_folder"] == r["family"]]  # the workloads' folder
        scale = 1.0 if r["metric"] == "gpu_hours_per_job" else 1 / 3600
        expect(r["adaptsim"], mean_of(ts, registry[r["policy"]], r["metric"]) * scale, "table 3")
    # The report's Table 3 section: a row per (trace family, policy) of the sweep.
    assert "## Table 3 (heterogeneous 64-GPU cluster)" in md, "no Table 3 section"
    for family, policy in {(t["trace_folder"], t["policy"]) for t in table3}:
        assert f"| {families[family]} | {sia_name[policy]} |" in md, (family, policy)
    # Table 4 (64 T4): each bar the tasks' mean (p99 pooled), each mark the paper's [[reported]]
    # value; the report's section lists the paper's rows, a policy without tasks "not run".
    def reported(sweep):
        """The paper's [[reported]] rows of `sweep` by policy."""
        return {r["policy"]: r for r in tomllib.load(open(os.path.join(
            src, "experiments", "paper_numbers.toml"), "rb"))["reported"]
            if r.get("sweep") == sweep}

    def check_paper_rows(stated, ran_tasks, first_value):
        """The report's section has a row per policy of the paper, "| name | tasks | ", whose
        first cell is "<paper value> / not run" exactly when the policy has no task."""
        ran = {t["policy"] for t in ran_tasks}
        for policy, r in stated.items():
            shown = r.get("paper_name", sia_name.get(policy))
            row = f"| {shown} | {sum(t['policy'] == policy for t in ran_tasks)} | "
            assert row in md, (policy, row)
            assert (f"{r[first_value]:.1f} / not run" in md.split(row)[1].split("\n")[0]) == (
                policy not in ran), policy

    table4 = tasks("sia_table4")
    assert table4 and {t["cluster"] for t in table4} == {"aws=16"}, "no 64-T4 tasks"
    stated = reported("sia_table4")
    keys = {"mean_jct_s": "avg_jct_h", "p99_jct_pooled_s": "p99_jct_h",
            "makespan_from_first_submission_s": "makespan_h",
            "gpu_hours_per_job": "gpu_hours_per_job"}
    bars = figure_rows("sia_table4")
    assert {(registry[r["policy"]], r["metric"]) for r in bars} == {
        (t["policy"], m) for t in table4 for m in keys}, bars
    for r in bars:
        scale = 1.0 if r["metric"] == "gpu_hours_per_job" else 1 / 3600
        expect(r["adaptsim"], mean_of(table4, registry[r["policy"]], r["metric"]) * scale,
               "table 4")
        expect(r["paper"], stated[registry[r["policy"]]][keys[r["metric"]]], "table 4 paper")
    assert "## Table 4 (homogeneous 64-T4 cluster, Philly)" in md, "no Table 4 section"
    check_paper_rows(stated, table4, "avg_jct_h")
    # Fig. 8 (mixed cluster, Helios): per policy the worst Eq. 3 rho and the unfair fraction of
    # every completed job of its tasks, pooled; the paper's [[reported]] value beside it; the
    # report's section lists the paper's rows, a policy without tasks "not run".
    fig8 = tasks("sia_fig8")
    assert fig8 and {t["cluster"] for t in fig8} == {"aws=6,dgx-ext=2,rtx=3"}, "no Fig. 8 tasks"
    for t in fig8:
        assert t["statistic.isolated_runs"] > 0, t["policy"]
    stated8 = reported("sia_fig8")
    plotted8 = figure_rows("sia_fig8")
    assert {registry[r["policy"]] for r in plotted8} == {t["policy"] for t in fig8}, plotted8
    for r in plotted8:
        policy = registry[r["policy"]]
        rho = np.concatenate([t["rho_eq3"][t["rho_eq3"] != 0] for t in fig8
                              if t["policy"] == policy])
        expect(r["worst_rho"], float(rho.max()), "fig 8 worst rho")
        expect(r["unfair_fraction"], float((rho > 1).sum() / (rho > 0).sum()), "fig 8 unfair")
        expect(r["worst_rho"], max(t["worst_ftf_rho_type_weighted"] for t in fig8
                                   if t["policy"] == policy), "fig 8 worst rho (summary)")
        if policy in stated8:
            expect(r["paper_worst_rho"], stated8[policy]["worst_rho"], "fig 8 paper")
        else:  # a policy the paper's Fig. 8 does not have (Themis+TJ): no mark
            assert r["paper_worst_rho"] == "", (policy, r["paper_worst_rho"])
    assert "## Fig. 8 (finish-time fairness" in md, "no Fig. 8 section"
    check_paper_rows(stated8, fig8, "worst_rho")
    # The cross-family figure: a row per scenario whose sweep ran, a bar per policy, each number
    # recomputed from that sweep's tasks; on the mixed cluster (Fig. 8) rho is Eq. 3's.
    import reproduction_report  # noqa: E402
    sweep_of = dict(reproduction_report.CROSS_FAMILY_SCENARIOS)
    cross = figure_rows("cross_family")
    assert {r["scenario"] for r in cross} == {
        label for label, name in sweep_of.items() if os.path.exists(os.path.join(out, name + ".h5"))
    }, cross
    for r in cross:
        ts = [t for t in tasks(sweep_of[r["scenario"]]) if t["policy"] in r["policies"].split()]
        assert len(ts) == int(r["tasks"]) > 0, r
        expect(r["mean_jct_h"], np.mean([t["mean_jct_s"] for t in ts]) / 3600, "cross mean JCT")
        expect(r["makespan_h"], np.mean([t["makespan_s"] for t in ts]) / 3600, "cross makespan")
        eq3 = sweep_of[r["scenario"]] == "sia_fig8"
        assert r["rho_column"] == ("ftf_rho_type_weighted" if eq3 else "ftf_rho"), r
        rho = np.concatenate([(t["rho_eq3"] if eq3 else t["rho"])[np.isfinite(t["rho"]) &
                                                                  (t["rho"] > 0)] for t in ts])
        expect(r["worst_rho"], rho.max(), "cross worst rho")
        expect(r["unfair_percent"], 100 * np.mean(rho > 1), "cross unfair")
    rate = tasks("sia_arrival_rate")
    for r in figure_rows("sia_arrival_rate"):
        if r["panel"] != "mean_jct_h":
            continue
        ts = [t for t in rate if t["trace_folder"] == f"rate_{float(r['rate']):g}"]
        expect(r["value"], mean_of(ts, registry[r["policy"]], "mean_jct_s") / 3600, "fig 7")
    runtime = tasks("sia_policy_runtime", ("ok", "timeout"))
    plotted = figure_rows("sia_policy_runtime")
    assert len(plotted) == len(runtime), (len(plotted), len(runtime))
    for r in plotted:
        ts = [t for t in runtime if t["cluster"] == r["cluster"]]
        expect(r["median_s"], mean_of(ts, registry[r["policy"]],
                                      "statistic.optimize_cpu_time_median_s"), "fig 9")
        expect(r["p95_s"], mean_of(ts, registry[r["policy"]],
                                   "statistic.optimize_cpu_time_p95_s"), "fig 9")

# ---- text elements, read back from the Figure objects (the figures are drawn again) -----------
import reproduction_report  # noqa: E402
import figure_texts  # noqa: E402

seen = figure_texts.check_saved_figures()
with tempfile.TemporaryDirectory() as tmp:
    for h5 in glob.glob(os.path.join(out, "*.h5")):
        os.symlink(h5, os.path.join(tmp, os.path.basename(h5)))
    drawn = reproduction_report.draw(paper, tmp, data, os.path.join(src, "experiments",
                                                                    "paper_numbers.toml"))
assert len(drawn) == len(pngs), (drawn, pngs)
assert any("GPUs" in t for t in seen), "no title names the scenario"
if paper == "gavel":
    # The job-rate figure names its lines as Gavel's own figures do (labels.toml
    # [paper_names.gavel]): LAS and FIFO against "Gavel", never the *-Perf display names.
    assert {"LAS", "Gavel", "FIFO"} <= set(seen), seen
    assert not {"Gavel-Perf", "FIFO-Perf"} & set(seen), seen

# ---- the second run resumed --------------------------------------------------------------------
err = open(os.path.join(out, "second_run.err")).read()
runs = re.findall(r"adaptsim: (\d+) tasks run in", err)
assert runs and all(n == "0" for n in runs), runs
print(f"reproduce {paper} ok: {total} report numbers ({landed} land), {len(pngs)} figures, "
      f"{checked} values equal the results files, {len(seen)} figure texts checked")
