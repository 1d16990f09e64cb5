"""The per-task quantities the reproduction report and the figures read from a results file
(docs/reproduction.md): /summary as a DataFrame with the columns the paper numbers filter on,
and the metrics derived from the tasks' tables (Sia's makespan and pooled p99, the measured
policy statistics).
"""
import math
import os

import h5py
import pandas as pd

import pollux_figures


def summary(path):
    """/summary of a results file (every status) with load and interval columns."""
    with h5py.File(path, "r") as f:
        g = f["summary"]
        df = pd.DataFrame({k: (g[k].asstr()[:] if g[k].dtype.kind == "O" else g[k][:])
                           for k in g})
        meta = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f["meta"].attrs.items()}
    df["load"] = df.trace.map(pollux_figures.load_of)
    df["interval_s"] = df.policy_options.map(pollux_figures.interval_of)
    df["workload"] = df.trace.map(lambda t: os.path.splitext(os.path.basename(t))[0])
    df["trace_folder"] = df.trace.map(lambda t: os.path.basename(os.path.dirname(t)))
    return df, meta


def task_values(path, task_ids, value):
    """{task_id: value(task group)} for the tasks `task_ids` of the results file `path`."""
    with h5py.File(path, "r") as f:
        return {t: value(f["tasks"][t]) for t in task_ids}


def jobs_of(task):
    """The jobs table of a task group as a DataFrame (arrival_s, completion_s, jct_s, outcome)."""
    jobs = task["jobs"]
    return pd.DataFrame({k: jobs[k].asstr()[:] if jobs[k].dtype.kind in "OS" else jobs[k][:]
                         for k in ("arrival_s", "completion_s", "jct_s", "outcome")})


def makespan_from_first_submission(task):
    """Last completion - first submission of a task's jobs, s (Sia's makespan,
    sia-simulator/utils/print_run_stats.py:86-98); NaN when a job did not complete."""
    jobs = jobs_of(task)
    if len(jobs) == 0 or (jobs.outcome != "completed").any():
        return math.nan
    return float(jobs.completion_s.max() - jobs.arrival_s.min())


def with_metric(df, path, metric):
    """`df` with the column `metric` where the report derives it (paper numbers file: metric)."""
    if metric in df or metric == "p99_jct_pooled_s":
        return df
    df = df.copy()
    if metric == "makespan_from_first_submission_s":
        values = task_values(path, df.task_id[df.status == "ok"], makespan_from_first_submission)
    elif metric.startswith("statistic."):
        name = metric.split(".", 1)[1]

        def statistic(task):
            attrs = task["policy_statistics"].attrs
            return float(attrs[name]) if name in attrs else math.nan
        values = task_values(path, df.task_id[df.status.isin(["ok", "timeout"])], statistic)
    else:
        raise SystemExit(f"paper numbers: unknown metric {metric!r}")
    df[metric] = df.task_id.map(values).astype(float)
    return df


def pooled_p99(path, task_ids):
    """The JCTs of the completed jobs of `task_ids` pooled and sorted, element int(0.99 n) (no
    interpolation; sia-simulator/utils/print_run_stats.py:110-116), s."""
    jcts = []
    for jobs in task_values(path, task_ids, jobs_of).values():
        jcts += list(jobs.jct_s[jobs.outcome == "completed"])
    jcts.sort()
    return float(jcts[int(0.99 * len(jcts))]) if jcts else math.nan
