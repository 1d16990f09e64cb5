#!/usr/bin/env python3
"""The sbatch scripts of slurm/ on a real Slurm (the one-node Slurm of scripts/slurm-local).

Usage: slurm_checks.py MODE --source CHECKOUT --adaptsim BINARY --workdir DIR [--data DIR]

  test-only  `sbatch --test-only` accepts every slurm/*.sbatch, and each asks for a numeric
             --ntasks, a --time, the warning signal --signal=B:USR1@..., --requeue,
             --open-mode=append and an --output file.
  smoke      submits slurm/smoke.sbatch twice (ranks started by the default `srun --mpi=pmix` and
             by ADAPTSIM_LAUNCHER=mpirun), waits for the jobs and checks that each results file
             holds every task of the spec exactly once, all `ok`, and that /meta rank_count equals
             the job's task count (the ranks formed one MPI communicator).
  requeue    the time-limit path: slurm/smoke.sbatch with a 1-minute limit and
             --signal=B:USR1@50 on a sweep of 40 tasks of ~3 s (2 worker ranks: ~55 s of work).
             Slurm's warning signal stops the dispatching, the running tasks finish, the job
             requeues itself and the requeued run resumes: every task exactly once (results
             file and shard manifest), none lost, at least one restart.

The local node has nproc cores; the scripts ask for more ranks than that, so every submission adds
`--overcommit` (Slurm then places all tasks of the job on the node's cores). Jobs run in the
checkout (--chdir) with ADAPTSIM set to the binary under test; results and job output go to
WORKDIR. Exits 77 (CTest SKIP_RETURN_CODE) when not root: the daemons need root.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

SKIP = 77
TERMINAL_STATES = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
                   "BOOT_FAIL", "DEADLINE", "PREEMPTED"}
REQUIRED_HEADERS = ["--ntasks", "--time", "--signal", "--requeue", "--open-mode", "--output"]


class Failure(Exception):
    pass


def run(cmd, **kwargs):
    return subprocess.run(cmd, check=False, text=True, capture_output=True, **kwargs)


def job_fields(job_id):
    """`scontrol show job -o` as a dict (kept MinJobAge = 300 s after the end)."""
    out = run(["scontrol", "show", "job", "-o", job_id])
    if out.returncode != 0:
        raise Failure(f"scontrol show job {job_id}: {out.stderr.strip()}")
    return dict(re.findall(r"(\w+)=(\S*)", out.stdout))


def wait_for_job(job_id, timeout_s, log):
    """Polls the job until it ends; returns its final fields. Prints each state change."""
    start = time.monotonic()
    last = None
    while True:
        fields = job_fields(job_id)
        state = (fields.get("JobState"), fields.get("Reason"), fields.get("Restarts"))
        if state != last:
            print(f"  {time.monotonic() - start:6.1f} s  job {job_id}: {state[0]} "
                  f"(reason {state[1]}, restarts {state[2]})", flush=True)
            last = state
        if state[0] in TERMINAL_STATES:
            return fields
        if time.monotonic() - start > timeout_s:
            run(["scancel", job_id])
            raise Failure(f"job {job_id} did not end within {timeout_s} s; log:\n{read(log)}")
        time.sleep(1)


def read(path):
    return Path(path).read_text(errors="replace") if Path(path).exists() else "(no file)"


def expected_task_ids(adaptsim, spec, workdir):
    """Task ids of the spec, from `adaptsim sweep SPEC --dry-run` (nothing run yet)."""
    out = run([adaptsim, "sweep", str(spec), "--out", str(workdir / "dry-run.h5"), "--dry-run"])
    if out.returncode != 0:
        raise Failure(f"dry run failed: {out.stderr}")
    ids = re.findall(r"\b[0-9a-f]{32}\b", out.stdout)
    if not ids or len(ids) != len(set(ids)):
        raise Failure(f"dry run listed no or duplicate task ids:\n{out.stdout}")
    return ids


def check_results(results, expected_ids, ntasks):
    """Every expected task exactly once and ok; /meta rank_count == the job's task count."""
    import h5py  # only here: test-only mode runs without it
    with h5py.File(results, "r") as f:
        ids = list(f["summary/task_id"].asstr()[:])
        status = list(f["summary/status"].asstr()[:])
        ranks = list(f["summary/rank"][:])
        rank_count = int(f["meta"].attrs["rank_count"])
    if len(ids) != len(set(ids)):
        raise Failure(f"a task appears more than once in {results}: {sorted(ids)}")
    if sorted(ids) != sorted(expected_ids):
        raise Failure(f"results hold {len(ids)} tasks, expected {len(expected_ids)}: "
                      f"missing {sorted(set(expected_ids) - set(ids))}, "
                      f"unexpected {sorted(set(ids) - set(expected_ids))}")
    if any(s != "ok" for s in status):
        raise Failure(f"task status not all ok: {status}")
    if rank_count != ntasks:
        raise Failure(f"/meta rank_count = {rank_count}, but the job has {ntasks} tasks: the "
                      "ranks did not form one MPI communicator")
    if not all(1 <= r < rank_count for r in ranks):
        raise Failure(f"tasks ran on ranks {sorted(set(ranks))}, expected workers 1.."
                      f"{rank_count - 1}")
    print(f"  results: {len(ids)} of {len(expected_ids)} tasks, each once, all ok; "
          f"rank_count {rank_count} = job tasks; worker ranks used {sorted(set(ranks))}")


def manifest_ids(results):
    manifest = Path(str(results) + ".shards") / "manifest.jsonl"
    return [json.loads(line)["id"] for line in manifest.read_text().splitlines() if line.strip()]


def submit(args, source, workdir, script, script_args, extra_env):
    """sbatch from the checkout; returns (job id, job output file)."""
    log = workdir / "job-%j.out"
    env = dict(os.environ, **extra_env)
    cmd = ["sbatch", "--parsable", "--overcommit", f"--chdir={source}", f"--output={log}",
           f"--job-name=adaptsim-test-{workdir.name}"] + args + [script] + script_args
    out = run(cmd, cwd=source, env=env)
    if out.returncode != 0:
        raise Failure(f"{' '.join(cmd)}: {out.stderr.strip()}")
    job_id = out.stdout.strip().split(";")[0]
    print(f"  submitted job {job_id}: {' '.join(cmd)}", flush=True)
    return job_id, Path(str(log).replace("%j", job_id))


def generated_spec(opts, workdir, name, num_jobs, policies, extra):
    """A sweep spec on a trace generated from the built-in catalogue (no reference data)."""
    trace = workdir / f"{name}.trace"
    catalog = opts.source / "data" / "catalog" / "v100.toml"
    out = run([opts.adaptsim, "generate-trace", "--catalog", str(catalog), "--num-jobs",
               str(num_jobs), "--lam", "40", "--seed", "0", "--out", str(trace), "--force"])
    if out.returncode != 0:
        raise Failure(f"generate-trace failed: {out.stderr}")
    spec = workdir / f"{name}.toml"
    spec.write_text(f'name = "{name}"\ntraces = ["{trace}"]\nthroughputs = "{catalog}"\n'
                    f"policies = {json.dumps(policies)}\nnum_gpus = [32]\nround_duration_s = 120\n"
                    f"deadline_factor = 1.5\n{extra}")
    return spec


def check_test_only(opts):
    scripts = sorted((opts.source / "slurm").glob("*.sbatch"))
    if not scripts:
        raise Failure("no slurm/*.sbatch")
    # Control: this Slurm's --test-only does reject a header that is not a number or a time.
    for bad in ["--ntasks=all policies", "--time=8:04:00:00"]:
        probe = opts.workdir / "bad.sbatch"
        probe.write_text(f"#!/bin/bash\n#SBATCH {bad}\ntrue\n")
        out = run(["sbatch", "--test-only", "--overcommit", str(probe)], cwd=opts.workdir)
        if out.returncode == 0:
            raise Failure(f"sbatch --test-only accepted #SBATCH {bad}: the check proves nothing")
        print(f"  control: #SBATCH {bad} rejected: {out.stderr.strip()}")
    for script in scripts:
        headers = [line.split()[1] for line in script.read_text().splitlines()
                   if line.startswith("#SBATCH ")]
        names = {h.split("=")[0] for h in headers}
        missing = [h for h in REQUIRED_HEADERS if h not in names]
        if missing:
            raise Failure(f"{script.name}: no {', '.join(missing)} header")
        values = dict(h.split("=", 1) for h in headers if "=" in h)
        if not values["--ntasks"].isdigit():
            raise Failure(f"{script.name}: --ntasks={values['--ntasks']} is not a number")
        if not values["--signal"].startswith("B:USR1@"):
            raise Failure(f"{script.name}: --signal={values['--signal']}: expected B:USR1@SECONDS")
        if values["--open-mode"] != "append":
            raise Failure(f"{script.name}: --open-mode={values['--open-mode']}")
        syntax = run(["bash", "-n", str(script)])
        if syntax.returncode != 0:
            raise Failure(f"{script.name}: bash -n: {syntax.stderr}")
        out = run(["sbatch", "--test-only", "--overcommit", str(script)], cwd=opts.source)
        if out.returncode != 0 or "to start at" not in out.stderr:
            raise Failure(f"sbatch --test-only {script.name} (exit {out.returncode}): "
                          f"{out.stderr.strip()}")
        print(f"  {script.name}: --ntasks={values['--ntasks']} --time={values['--time']} "
              f"--signal={values['--signal']}: {out.stderr.strip()}")


def check_smoke(opts, env):
    if opts.data.is_dir():
        spec = opts.source / "experiments" / "smoke.toml"
        print(f"  spec: experiments/smoke.toml (reference data {opts.data})")
    else:
        spec = generated_spec(opts, opts.workdir, "slurm_smoke", 60,
                              ["fifo", "gandiva_fair", "max_min_fairness"], "seeds = [0]\n")
        print(f"  reference data not found ({opts.data}): the same three policies on a generated "
              "60-job trace")
    expected = expected_task_ids(opts.adaptsim, spec, opts.workdir)
    # Both launchers that give one communicator with Debian's Open MPI: the default
    # `srun --mpi=pmix` and `mpirun` inside the allocation (ADAPTSIM_LAUNCHER).
    jobs = []
    for launcher in ["", "mpirun"]:
        # results/ does not exist yet: the script makes it, as in a fresh checkout.
        results = opts.workdir / "results" / f"smoke-{launcher or 'srun'}.h5"
        job_env = dict(env, ADAPTSIM_LAUNCHER=launcher) if launcher else env
        job_id, log = submit([], opts.source, opts.workdir, "slurm/smoke.sbatch",
                             [str(spec), str(results)], job_env)
        jobs.append((launcher or "srun --mpi=pmix", job_id, log, results))
    for launcher, job_id, log, results in jobs:
        fields = wait_for_job(job_id, 300, log)
        print(read(log))
        if fields["JobState"] != "COMPLETED" or fields.get("ExitCode") != "0:0":
            raise Failure(f"job {job_id} ({launcher}) ended {fields['JobState']}, exit "
                          f"{fields.get('ExitCode')}")
        print(f"  launcher {launcher}:")
        check_results(results, expected, int(fields["NumTasks"]))


def check_requeue(opts, env):
    tasks = 40
    spec = generated_spec(opts, opts.workdir, "slurm_requeue", 20, ["fail_after"],
                          f"seeds = {list(range(tasks))}\nfail_after.after = -1\n"
                          "fail_after.sleep_ms = 300\n")
    results = opts.workdir / "requeue.h5"
    expected = expected_task_ids(opts.adaptsim, spec, opts.workdir)
    # 3 ranks = 2 workers; the script's header asks for 4 ranks, 15 min and USR1 120 s before
    # the end: here 1 min and 50 s. slurmctld sends the warning at one of its time-limit checks
    # (every 30 s), up to 30 s late or early: 10-40 s after each run's start (14-27 s seen),
    # while the whole sweep needs ~55 s; so it is interrupted at least once.
    job_id, log = submit(["--ntasks=3", "--time=0-00:01:00", "--signal=B:USR1@50"], opts.source,
                         opts.workdir, "slurm/smoke.sbatch",
                         [str(spec), str(results), "--keep-shards"], env)  # the manifest is read
    fields = wait_for_job(job_id, 400, log)
    text = read(log)
    print(text)
    if fields["JobState"] != "COMPLETED" or fields.get("ExitCode") != "0:0":
        raise Failure(f"job {job_id} ended {fields['JobState']}, exit {fields.get('ExitCode')}")
    restarts = int(fields.get("Restarts", "0"))
    if restarts < 1:
        raise Failure("the job was never requeued: the sweep ended before the warning signal")
    if "requeueing job" not in text or "signal 10: no new tasks" not in text:
        raise Failure("no forwarded USR1 / requeue in the job output")
    held = [(int(a), int(b)) for a, b in re.findall(r"holds (\d+) of (\d+) tasks", text)]
    # The first run stopped with part of the tasks stored; each run stored more (a run whose
    # ranks the signal caught while starting stores nothing and prints no line); the last has all.
    done = [d for d, _ in held]
    if (len(held) < 2 or done[0] >= tasks or held[-1] != (tasks, tasks)
            or done != sorted(done)):
        raise Failure(f"tasks stored after each run {held}: expected part of {tasks} after the "
                      f"first, more after each, all {tasks} after the last")
    stored = manifest_ids(results)
    if len(stored) != tasks or len(set(stored)) != tasks:
        raise Failure(f"manifest lists {len(stored)} shards ({len(set(stored))} distinct): a task "
                      "ran twice or was lost")
    check_results(results, expected, int(fields["NumTasks"]))
    print(f"  {restarts} requeue(s); tasks stored per run: {held}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["test-only", "smoke", "requeue"])
    parser.add_argument("--source", type=Path, required=True)
    parser.add_argument("--adaptsim", required=True)
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=None)
    opts = parser.parse_args()
    if os.geteuid() != 0:
        print("skipping: the local Slurm (scripts/slurm-local) needs root to start its daemons")
        return SKIP
    status = run([str(opts.source / "scripts" / "slurm-local"), "status"])
    if status.returncode != 0:
        print(f"FAIL: the local Slurm is not running (fixture slurm_start): {status.stdout}")
        return 1
    opts.data = Path(os.environ.get("ADAPTSIM_DATA") or opts.data or "/nonexistent").resolve()
    shutil.rmtree(opts.workdir, ignore_errors=True)
    opts.workdir.mkdir(parents=True)
    env = {"ADAPTSIM": opts.adaptsim}
    if opts.data.is_dir():
        env["ADAPTSIM_DATA"] = str(opts.data)
    start = time.monotonic()
    try:
        {"test-only": lambda: check_test_only(opts), "smoke": lambda: check_smoke(opts, env),
         "requeue": lambda: check_requeue(opts, env)}[opts.mode]()
    except Failure as error:
        print(f"FAIL: {error}")
        return 1
    print(f"PASS ({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
