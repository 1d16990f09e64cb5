"""Checks of the sweep options for large sweeps (docs/sweeps.md §2-3), run by CTest:

  sweep_scale_check.py detail   DATA MPIEXEC ADAPTSIM COMPARE WORKDIR
      --detail summary / per_job / full store the datasets docs/results-format.md lists for each
      level, /meta@detail and /tasks/<id>@detail say the level, the /summary tables are identical
      across levels; the shards are removed after the verified merge and kept with
      --keep-shards; a resume at a higher level reruns the tasks stored at a lower one.
  sweep_scale_check.py batching DATA MPIEXEC ADAPTSIM COMPARE WORKDIR
      sub-second tasks go out in batches (/meta@run_batches < run_tasks) and the results are the
      same with 1, 2 and 3 ranks (adaptsim_compare_results).
  sweep_scale_check.py signal   DATA MPIEXEC ADAPTSIM COMPARE WORKDIR
      SIGUSR1 to mpirun while workers hold batches: exit 0, part of the tasks stored; the rerun
      runs only the others (each task completed exactly once in the manifest).
  sweep_scale_check.py local_disks DATA MPIEXEC ADAPTSIM COMPARE WORKDIR
      workers that cannot see rank 0's folder (nodes with local disks, docs/sweeps.md §3):
      worker ranks start in their own mount namespace (unshare --mount) in which the folder of
      --out (and of the spec) is a private, empty tmpfs; they send their shard images to rank 0,
      which writes every shard, and the merged file equals that of a run whose workers share the
      folder and write their shards themselves.

Exit 77 (CTest SKIP_RETURN_CODE) when the reference data folder is absent, and in local_disks
when this machine does not permit a tmpfs in a private mount namespace (not root, or no
CAP_SYS_ADMIN).
"""
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import h5py

mode, default_data, mpiexec, adaptsim, compare, workdir = sys.argv[1:7]
data = os.environ.get("ADAPTSIM_DATA", default_data)
if not os.path.isdir(data):
    print(f"reference data not found ({data}): set ADAPTSIM_DATA; skipping")
    sys.exit(77)
os.environ["ADAPTSIM_DATA"] = data
TRACE = (f"{data}/shockwave/traces/120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_"
         "multigpu_dynamic.trace")
THROUGHPUTS = f"{data}/shockwave/throughputs/tacc_throughputs.json"
shutil.rmtree(workdir, ignore_errors=True)
os.makedirs(workdir)
LOG = os.path.join(workdir, "log.txt")


def fail(message):
    with open(LOG) as log:
        sys.stdout.write(log.read()[-4000:])
    print("FAIL:", message)
    sys.exit(1)


def spec(name, body, folder=workdir):
    path = os.path.join(folder, name + ".toml")
    with open(path, "w") as f:
        f.write(f'name = "{name}"\ntraces = "{TRACE}"\nthroughputs = "{THROUGHPUTS}"\n'
                f"num_gpus = 32\n{body}")
    return path


def command(ranks, spec_path, out, *extra):
    cmd = [adaptsim, "sweep", spec_path, "--out", out, *extra]
    return ([mpiexec, "--oversubscribe", "-n", str(ranks)] + cmd) if ranks > 1 else cmd


def sweep(ranks, spec_path, out, *extra):
    with open(LOG, "a") as log:
        code = subprocess.call(command(ranks, spec_path, out, *extra), stdout=log, stderr=log)
    if code != 0:
        fail(f"sweep exited {code}")


def summary(path):
    """/summary rows by task id, without the measured wall time and the rank."""
    with h5py.File(path, "r") as f:
        g = f["summary"]
        columns = [c for c in g if c not in ("wall_time_s", "rank")]
        ids = g["task_id"].asstr()[:]
        return {tid: tuple(repr(g[c][i]) for c in columns) for i, tid in enumerate(ids)}


def manifest_ids(out):
    with open(out + ".shards/manifest.jsonl") as f:
        return [json.loads(line)["id"] for line in f if line.strip()]


EXPECTED = {  # datasets under /tasks/<id> per level (docs/results-format.md; gpu_types at every level)
    "summary": {"gpu_types"},
    "per_job": {"gpu_types", "jobs"},
    "full": {"gpu_types", "jobs", "rounds", "throughput_timeline", "gpu_busy_time_s"},
}

if mode == "detail":
    s = spec("detail", 'policies = ["fifo", "gandiva_fair"]\nseeds = [0, 1]\n')
    summaries = {}
    for level in ("summary", "per_job", "full"):
        out = os.path.join(workdir, f"{level}.h5")
        sweep(1, s, out, "--detail", level, "--quiet")
        if os.path.exists(out + ".shards"):
            fail(f"{level}: shards not removed after the verified merge")
        with h5py.File(out, "r") as f:
            if f["meta"].attrs["detail"] != level:
                fail(f"/meta@detail is {f['meta'].attrs['detail']}, expected {level}")
            if len(f["tasks"]) != 4:
                fail(f"{level}: {len(f['tasks'])} tasks, expected 4")
            for tid, task in f["tasks"].items():
                tables = set(task) - {"summary", "policy_statistics"}
                if tables != EXPECTED[level] or task.attrs["detail"] != level:
                    fail(f"{level}: task {tid} holds {sorted(tables)} ({task.attrs['detail']})")
                if level != "summary" and len(task["jobs"]["jct_s"]) != 120:
                    fail(f"{level}: task {tid} has {len(task['jobs']['jct_s'])} job rows")
        summaries[level] = summary(out)
    if not summaries["summary"] == summaries["per_job"] == summaries["full"]:
        fail("the /summary tables differ between detail levels")
    # The spec's `detail` key; --keep-shards keeps the shards (one per batch of results) and the
    # manifest.
    s2 = spec("detail_key", 'policies = ["fifo", "gandiva_fair"]\nseeds = [0, 1]\n'
              'detail = "summary"\n')
    out = os.path.join(workdir, "resume.h5")
    sweep(1, s2, out, "--quiet", "--keep-shards")
    if not [n for n in os.listdir(out + ".shards") if n.endswith(".h5")] or \
            len(set(manifest_ids(out))) != 4:
        fail("--keep-shards: expected the shards of 4 tasks")
    with h5py.File(out, "r") as f:
        if f["meta"].attrs["detail"] != "summary":
            fail("the spec's detail key was not used")
    # Resume asking for more detail: the 4 tasks stored at summary level rerun...
    sweep(1, s2, out, "--quiet", "--keep-shards", "--detail", "per_job")
    if len(manifest_ids(out)) != 8:
        fail(f"resume at per_job: {len(manifest_ids(out))} manifest lines, expected 8")
    # ...asking for less does not rerun them: the merge stores them at the lower level.
    sweep(1, s2, out, "--quiet", "--keep-shards", "--detail", "summary")
    if len(manifest_ids(out)) != 8:
        fail("resume at summary reran tasks stored at per_job")
    with h5py.File(out, "r") as f:
        if any(set(t) != {"summary", "policy_statistics"} | EXPECTED["summary"]
               for t in f["tasks"].values()):
            fail("the merge at summary level kept job tables")
    if summary(out) != summaries["full"]:
        fail("resumed /summary differs")
    # A shard the merged file does not hold (a task no longer in the spec) keeps the folder.
    s3 = spec("detail_one", 'policies = "fifo"\nseeds = 0\n')
    sweep(1, s3, out, "--quiet")
    if not os.path.isdir(out + ".shards"):
        fail("shards of tasks not in the spec were removed")
    with open(LOG) as log:
        if "not verified" not in log.read():
            fail("no warning that the shards were kept")
elif mode == "batching":
    # 24 tasks of well under a second each (FIFO, the seed only changes the task id).
    s = spec("batching", 'policies = "fifo"\nseeds = [' +
             ", ".join(str(i) for i in range(24)) + ']\ndetail = "full"\n')
    outs = []
    for ranks in (1, 2, 3):
        out = os.path.join(workdir, f"n{ranks}.h5")
        sweep(ranks, s, out, "--quiet")
        outs.append(out)
        with h5py.File(out, "r") as f:
            meta = f["meta"].attrs
            if ranks > 1 and not meta["run_batches"] < meta["run_tasks"]:
                fail(f"-n {ranks}: {meta['run_batches']} batches for {meta['run_tasks']} tasks")
            # The workers share the folder here, so they write every shard themselves.
            shards = meta["run_shards"]
            by_workers = meta["run_worker_shards"]
            if not 1 <= shards <= 24 or by_workers != (shards if ranks > 1 else 0):
                fail(f"-n {ranks}: {by_workers} of {shards} shards written by workers")
    code = subprocess.call([compare] + outs)
    if code != 0:
        fail("results differ between 1, 2 and 3 ranks")
elif mode == "signal":
    tasks = 60
    s = spec("signal", 'policies = "fail_after"\nfail_after.after = -1\nfail_after.sleep_ms = 1\n'
             "seeds = [" + ", ".join(str(i) for i in range(tasks)) + "]\n")
    out = os.path.join(workdir, "out.h5")
    manifest = out + ".shards/manifest.jsonl"
    with open(LOG, "a") as log:
        proc = subprocess.Popen(command(3, s, out, "--keep-shards"), stdout=log, stderr=log)
        deadline = time.time() + 120
        while time.time() < deadline and not (
                os.path.exists(manifest) and len(manifest_ids(out)) >= 4):
            time.sleep(0.05)
        proc.send_signal(signal.SIGUSR1)
        if proc.wait() != 0:
            fail("signalled sweep failed")
    stored = len(manifest_ids(out))
    if not 4 <= stored < tasks:
        fail(f"{stored} of {tasks} tasks stored after the signal")
    with open(LOG) as log:
        if "rerun the same command to resume" not in log.read():
            fail("no resume note")
    sweep(3, s, out, "--keep-shards")
    ids = manifest_ids(out)
    if len(ids) != tasks or len(set(ids)) != tasks:
        fail(f"{len(ids)} completions of {len(set(ids))} tasks: a task ran twice or never")
    if len(summary(out)) != tasks:
        fail("resumed results file incomplete")
elif mode == "local_disks":
    # Each worker's view of `local` is its own empty tmpfs: rank 0's spec, lock, shard folder
    # and probe file are invisible to it, as on a node whose disk rank 0 does not share.
    local = os.path.join(workdir, "local")
    os.makedirs(local)
    if shutil.which("unshare") is None:
        print("unshare(1) is not installed; skipping")
        sys.exit(77)
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                            'mount -t tmpfs tmpfs "$0" && touch "$0/probe"', local],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        print("a tmpfs in a private mount namespace is not permitted here (unshare --mount, "
              f"then mount -t tmpfs: {probe.stderr.strip()}); skipping")
        sys.exit(77)
    if os.listdir(local):
        fail("the probe's tmpfs was visible outside its mount namespace")
    body = 'policies = ["fifo", "gandiva_fair"]\nseeds = [0, 1, 2, 3, 4, 5]\ndetail = "full"\n'
    shared_out = os.path.join(workdir, "shared.h5")
    sweep(3, spec("shared", body), shared_out, "--quiet")
    local_spec = spec("local_disks", body, local)
    local_out = os.path.join(local, "out.h5")
    # sh -c SCRIPT FOLDER ADAPTSIM ARGS...: ranks other than 0 (OMPI_COMM_WORLD_RANK, set by
    # Open MPI's mpirun) mount the tmpfs over FOLDER in a new mount namespace, leave a marker
    # there that the host must not see, then exec the same command line as rank 0.
    wrapper = ('if [ "$OMPI_COMM_WORLD_RANK" != 0 ]; then '
               'exec unshare --mount --propagation private sh -c '
               '\'mount -t tmpfs tmpfs "$0" && touch "$0/worker-$OMPI_COMM_WORLD_RANK" && '
               'exec "$@"\' "$0" "$@"; fi; exec "$@"')
    with open(LOG, "a") as log:
        code = subprocess.call([mpiexec, "--oversubscribe", "-n", "3", "sh", "-c", wrapper, local,
                                adaptsim, "sweep", local_spec, "--out", local_out, "--quiet"],
                               stdout=log, stderr=log)
    if code != 0:
        fail(f"sweep with private worker folders exited {code}")
    if sorted(os.listdir(local)) != ["local_disks.toml", "out.h5", "out.h5.sha256"]:
        fail(f"rank 0's folder holds {sorted(os.listdir(local))}: a worker's tmpfs was not "
             "private, or the shards were not removed after the merge")
    with h5py.File(shared_out, "r") as f:
        meta = f["meta"].attrs
        if not meta["run_shards"] >= 1 or meta["run_worker_shards"] != meta["run_shards"]:
            fail(f"shared folder: {meta['run_worker_shards']} of {meta['run_shards']} shards "
                 "written by workers, expected all")
    with h5py.File(local_out, "r") as f:
        meta = f["meta"].attrs
        ranks = set(int(r) for r in f["summary"]["rank"][:])
        if not meta["run_shards"] >= 1 or meta["run_worker_shards"] != 0:
            fail(f"private folders: {meta['run_worker_shards']} of {meta['run_shards']} shards "
                 "written by workers, expected none (rank 0 writes the images they send)")
        if ranks != {1, 2}:
            fail(f"tasks ran on ranks {sorted(ranks)}, expected both workers (1 and 2)")
    with open(local_out + ".sha256") as f:
        if f.read().split()[0] != hashlib.sha256(open(local_out, "rb").read()).hexdigest():
            fail("out.h5.sha256 does not match the merged file")
    if subprocess.call([compare, shared_out, local_out]) != 0:
        fail("the merged file differs from that of a shared-folder run")
else:
    fail(f"unknown mode {mode}")
print(f"{mode}: ok")
