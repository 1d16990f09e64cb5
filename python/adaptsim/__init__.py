"""adaptsim: simulate GPU-cluster scheduling policies from Python (docs/python.md).

    import adaptsim
    result = adaptsim.run(trace="jobs.trace", throughputs="tacc_throughputs.json",
                          policy="max_min_fairness", gpus=32)
    result.summary["mean_jct_s"], result.jobs, result.rounds

A policy may be a registered name (adaptsim.policies()), "py:MODULE:CLASS", or a Python class
with compute_allocation(state) -> {job id: time fraction in [0, 1]} (run by the Gavel mechanism,
as the C++ baselines), plan_round(state) -> [job ids] (the jobs to run this round), or
optimize(cluster) -> {job id: [node id per replica]} (the interval engine of the Pollux family).
On a cluster of several GPU types (cluster="v100=2,p100=2") a round policy names each job's type:
{job id: {GPU type: time fraction}}, [(job id, GPU type), ...] (docs/python.md §3).
"""

import json
import os

from .errors import InputError, PolicyError, StoreError
from . import _core

__all__ = ["run", "read", "policies", "config_fields", "generate_trace", "Result", "InputError",
           "PolicyError", "StoreError", "policy_name", "labels", "display_name"]

ClusterState = _core.ClusterState
ActiveJobView = _core.ActiveJobView
JobSpec = _core.JobSpec
IntervalClusterView = _core.IntervalClusterView
IntervalJobView = _core.IntervalJobView
PolluxJobSpec = _core.PolluxJobSpec
PolluxApplication = _core.PolluxApplication
StepObservation = _core.StepObservation


def _frame(columns):
    import pandas
    return pandas.DataFrame(columns)


class Result:
    """One task's result.

    Attributes:
        task_id: content hash of the configuration (32 hex digits), as in results files.
        config: the task's whole configuration (dict).
        status: "ok" | "failed" | "timeout".
        message: the failure message (a Python policy's traceback), "" when ok.
        wall_time_s: wall-clock time of the simulation, s.
        summary: summary metrics (dict; names and units as /summary in docs/results-format.md:
            makespan_s, mean_jct_s, ... in simulated seconds, fractions in [0, 1]).
        policy_statistics: solver/policy counters (dict name -> float).
        jobs: pandas.DataFrame, one row per job (id, workload, arrival_time_s, jct_s, ...,
            engine, then the engine's fields), columns of the result field lists.
        rounds: pandas.DataFrame, one row per round (round_index, start_s, end_s, busy_gpus,
            active_jobs, running_job_ids: list of job ids in placement order, worker_ids: per
            running job the list of its GPUs, worker id = node · GPUs per node + slot on the
            interval engine).
        gpu_types: pandas.DataFrame, one row per GPU type of the cluster in worker-id order
            (gpu_type, gpus, utilization, busy_gpu_hours, mean_ftf_rho; docs/results-format.md);
            empty for the interval engine and for results files older than schema version 4.
        units: column -> units ("s", "count", "steps/s", "GPU-h", ...).
    """

    def __init__(self, raw):
        self.task_id = raw["task_id"]
        self.config = json.loads(raw["config"]) if raw["config"] else {}
        self.status = raw["status"]
        self.message = raw["message"]
        self.wall_time_s = raw["wall_time_s"]
        self.summary = dict(raw["summary"])
        self.policy_statistics = dict(raw["policy_statistics"])
        self.jobs = _frame(raw["jobs"])
        self.rounds = _frame(raw["rounds"])
        self.gpu_types = _frame(raw["gpu_types"])
        self.units = dict(_core.units())

    def __repr__(self):
        return (f"<adaptsim.Result {self.task_id[:8]} status={self.status} "
                f"jobs={len(self.jobs)} rounds={len(self.rounds)}>")


def policy_name(policy):
    """The registry name of `policy`: a string as it is, a class as "py:MODULE:QUALNAME"."""
    if isinstance(policy, str):
        return policy
    if isinstance(policy, type):
        return _core.policy_name(policy)
    raise TypeError("policy must be a registered name, 'py:MODULE:CLASS' or a class, "
                    f"not {type(policy).__name__}")


def run(trace, throughputs, policy, gpus=None, out=None, **options):
    """Runs one simulation and returns its Result.

    Args:
        trace: path of a `.trace` file (or a Pollux workload CSV for the interval policies).
        throughputs: path of a throughputs JSON (steps/s per model, batch size, GPUs), a
            catalogue TOML or a Pollux profile folder.
        policy: a registered name (see policies()), "py:MODULE:CLASS", or a Python policy class.
        gpus: GPUs in the cluster (int > 0), all of one type (v100); None when `cluster` gives
            the GPU types instead (e.g. cluster="v100=16,p100=8,k80=8").
        out: when given, the result is also written there as an HDF5 results file, as
            `adaptsim run --out` writes it (replaced atomically; its SHA-256 in OUT.sha256).
        **options: the task configuration's other fields, listed below (None = the default), and
            the policy's options (e.g. face_position=0.5, or a Python policy's keyword
            arguments): a keyword that names no field is a policy option. Values are JSON values.

    Task configuration keywords (the field list of the C++ core, as `adaptsim run`'s flags and a
    sweep spec's keys; config_fields() lists them):
{config_keywords}
    Raises:
        InputError: bad input (file, line and field in its attributes).
        PolicyError: a decision the engine cannot honour (named: the policy, the method, the
            round and the numbers), a Python policy's exception (with its traceback) or a
            class it cannot run (docs/python.md §4).
    """
    arguments = dict(options, trace=os.fspath(trace), throughputs=os.fspath(throughputs),
                     policy=policy_name(policy), gpus=None if gpus is None else int(gpus))
    return Result(_core.run(json.dumps(arguments, default=_plain), out or ""))


def _plain(value):
    """A NumPy scalar (or anything with .item()) as a plain Python value, for json.dumps."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def config_fields():
    """The task configuration's fields that run() takes as keywords, in declaration order: a list of

        {"name": keyword, "key": key in the task's JSON, "unit": str, "doc": str,
         "default": JSON value (None for a required field or one without a default of its own),
         "default_doc": str, "range": accepted values ("> 0", "in [0, 1)", "" = any),
         "required": bool, "interval_engine_only": bool}

    The same declarations make `adaptsim run`'s flags and a sweep spec's keys (docs/sweeps.md)."""
    fields = []
    for entry in _core.config_fields():
        entry = dict(entry)
        entry["default"] = json.loads(entry["default"])
        fields.append(entry)
    return fields


def _config_keywords_doc():
    """run()'s docstring lines of the configuration keywords (all but its positional ones)."""
    lines = []
    for field in config_fields():
        if field["required"]:
            continue
        notes = []
        default = field["default"]
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            seconds = " s" if field["unit"] == "s" else ""
            default = f"default {default:g}{seconds}"
            if field["default_doc"]:
                default += f"; {field['default_doc']}"
            notes.append(default)
        elif isinstance(default, str) and default:
            notes.append(f"default {default}")
        if field["range"]:
            notes.append(field["range"])
        if field["interval_engine_only"]:
            notes.append("interval engine only")
        text = field["doc"] + (f" [{'; '.join(notes)}]" if notes else "")
        lines.append(f"        {field['name']}: {text}")
    return "\n".join(lines) + "\n"


if run.__doc__:  # None under python -OO
    run.__doc__ = run.__doc__.replace("{config_keywords}\n", _config_keywords_doc())


def read(path, task=None):
    """Reads an HDF5 results file (written by `adaptsim run --out`, `adaptsim sweep` or run(out=)).

    Returns (summary, result): summary is a pandas.DataFrame of /summary (one row per task, the
    configuration keys and summary metrics); result is the Result of `task` (a task id, or an
    index into the summary rows), or of the first task when task is None, or None when the file
    holds no task.
    A file with a checksum file next to it (PATH.sha256, written with every results file) is
    checked against it first.
    Raises StoreError for an unreadable file, a file that does not match its PATH.sha256, or an
    unknown task id.
    """
    import pandas
    rows = _core.summary(path)
    summary = pandas.DataFrame(rows)
    if not rows:
        return summary, None
    if task is None:
        task = 0
    if isinstance(task, int):
        task = rows[task]["task_id"]
    return summary, Result(_core.task(path, task))


def policies():
    """The registered policies, in table order: a list of dicts

        {"name": str, "engine": "round" | "interval", "description": str,
         "options": [{"name": str, "default": JSON value, "doc": str}, ...]}

    `options` lists every key the policy accepts (run(**options), `--policy-option`, a sweep's
    [policy_options]) with the value used when it is absent and its meaning and units. The
    interval engine's options (interval_s, restart_delay_s, interference, gpus_per_node) are
    the task's, not a policy's: config_fields(). The same table prints `adaptsim run --policy
    help`. Python policies are not listed; they are named "py:MODULE:CLASS"."""
    table = []
    for entry in _core.policies():
        entry = dict(entry)
        entry["options"] = [dict(o, default=json.loads(o["default"])) for o in entry["options"]]
        table.append(entry)
    return table


def labels():
    """How adaptsim's tables and figures name and draw policies, options, scenarios and metrics:
    analysis/labels.toml as compiled into this module (a dict; its comments document the keys,
    docs/analysis.md). `adaptsim report` and analysis/*.py use the same file, so a plot made
    from adaptsim.read() can carry the same names, colours and markers."""
    import tomllib
    return tomllib.loads(_core.labels_text())


def display_name(policy):
    """The name the papers use for a registry policy name ("min_total_duration" -> "OSSP"), as
    in adaptsim's tables and figures; a name listed nowhere unchanged."""
    for entry in labels()["policy"]:
        if policy in entry["names"]:
            return entry["display"]
    return policy


def generate_trace(out, throughputs, num_jobs=120, lam_s=40.0, seed=0, min_duration_h=0.2,
                   max_duration_h=5.0, num_durations=100, duration_mix=None, mode_mix=None,
                   scale_factor_mix=None, accordion_min_duration_s=1000.0):
    """Writes a synthetic Shockwave-style trace to `out` (as `adaptsim generate-trace`) and
    returns `out`.

    Args:
        out: path of the `.trace` file to write (overwritten).
        throughputs: throughputs JSON or catalogue TOML giving the total steps.
        num_jobs: jobs to draw (>= 1).
        lam_s: mean inter-arrival time, seconds.
        seed: keys every random stream.
        min_duration_h, max_duration_h, num_durations: the duration grid, hours.
        duration_mix: P(small), P(medium), P(large), P(xl) (default Shockwave's .72/.20/.05/.03).
        mode_mix: P(static), P(accordion), P(gns) (default 0/.5/.5).
        scale_factor_mix: P(1), P(2), P(4), P(8) GPUs (default .6/.3/.09/.01).
        accordion_min_duration_s: shorter accordion jobs become static, seconds.
    Raises InputError for out-of-range options (field named).
    """
    options = _core.TraceGeneratorOptions()
    options.num_jobs = num_jobs
    options.lam_s = lam_s
    options.seed = seed
    options.min_duration_h = min_duration_h
    options.max_duration_h = max_duration_h
    options.num_durations = num_durations
    if duration_mix is not None:
        options.duration_mix = list(duration_mix)
    if mode_mix is not None:
        options.mode_mix = list(mode_mix)
    if scale_factor_mix is not None:
        options.scale_factor_mix = list(scale_factor_mix)
    options.accordion_min_duration_s = accordion_min_duration_s
    _core.generate_trace(options, os.path.abspath(throughputs), os.path.abspath(out))
    return out
