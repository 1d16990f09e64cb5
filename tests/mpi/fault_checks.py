"""Fault injection into real sweeps (docs/reliability.md, "Faults"), run by CTest (label faults):

  fault_checks.py MODE DATA MPIEXEC ADAPTSIM COMPARE WORKDIR

  checksum        shards truncated, with flipped bytes, or unreadable without a manifest line are
                  found on resume (named with their task), only their tasks rerun, and the merged
                  file equals an uninjected run's (adaptsim_compare_results).
  enospc_tmpfs    a full file system (a small tmpfs, in a private mount namespace: needs root and
                  mount) while writing a shard, then while writing the merged file, then a shard
                  under mpirun with 3 ranks: clear error naming the path and "No space left on
                  device", non-zero exit, earlier shards intact (SHA-256 as in the manifest), no
                  half-written file; the rerun with space runs only what is missing and equals
                  the uninjected run.
  enospc_fsize    the same with a file-size limit (RLIMIT_FSIZE: write(2) fails with EFBIG).
  lock            a second sweep on the same --out while the first runs is refused (also with
                  --force, which then deletes nothing) naming host, pid and start time; after the
                  first is killed with SIGKILL a new sweep runs at once.
  worker_kill     a worker rank killed with SIGKILL mid-task under mpirun: the job ends with a
                  non-zero code; the resumed run reruns exactly the tasks not stored.
  unwritable      --out in a read-only folder (read-only bind mount), under a regular file, in a
                  chmod 555 folder (unless root), or naming a folder: clear error, exit 2, no task
                  run, with 1 and 2 ranks.
  hostile         hostile text in spec name, trace file name, policy options and a trace's job
                  type (../, ;rm -rf, $(...), quotes, newlines, escape sequences, 64 KiB strings)
                  stays data: no shell runs it, every file written is under --out's shard
                  folder with a hex name, stored strings come back byte for byte, and errors quote
                  it with control characters escaped.

Exit 77 (CTest SKIP_RETURN_CODE) when the reference data folder is absent, or for a mode whose
mechanism the machine lacks (the message says which).
"""
import hashlib
import json
import os
import re
import resource
import shutil
import signal
import socket
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
INNER = mode.endswith("_inner")  # the part of a mode that runs inside its mount namespace
if not INNER:
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
LOG = os.path.join(workdir, "log.txt")
PAGE = 4096


def fail(message):
    with open(LOG) as log:
        sys.stdout.write(log.read()[-6000:])
    print("FAIL:", message)
    sys.exit(1)


def skip(message):
    print(f"skipping {mode}: {message}")
    sys.exit(77)


def spec(name, body, trace=TRACE):
    path = os.path.join(workdir, name + ".toml")
    with open(path, "w") as f:
        f.write(f'name = "{name}"\ntraces = {json.dumps(trace)}\n'
                f'throughputs = "{THROUGHPUTS}"\nnum_gpus = 32\n{body}')
    return path


def command(ranks, spec_path, out, *extra):
    cmd = [adaptsim, "sweep", spec_path, "--out", out, *extra]
    return ([mpiexec, "--oversubscribe", "-n", str(ranks)] + cmd) if ranks > 1 else cmd


def sweep(spec_path, out, *extra, ranks=1, limit=None, interval="0"):
    """Runs a sweep; returns (exit code, what it printed). `interval` is --shard-interval: "0"
    (one shard per task: the shards, and so the sizes the disk-full modes place limits
    between, do not depend on timing) or None for the default (tasks batched into shards)."""
    if interval is not None:
        extra = (*extra, "--shard-interval", interval)
    def set_limit():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    env = dict(os.environ)
    if limit is not None:
        # The limit applies to the process tree: PMIx's shared-memory data store (files of
        # several MiB, made by a singleton's helper at MPI start-up) would hit it before adaptsim
        # writes anything. Its hash store keeps the data in memory.
        env["PMIX_MCA_gds"] = "hash"
    start = os.path.getsize(LOG) if os.path.exists(LOG) else 0
    with open(LOG, "a") as log:
        log.write(f"$ {' '.join(command(ranks, spec_path, out, *extra))}\n")
        log.flush()
        code = subprocess.call(command(ranks, spec_path, out, *extra), stdout=log, stderr=log,
                               preexec_fn=set_limit, env=env, timeout=240)
    with open(LOG) as log:
        log.seek(start)
        return code, log.read()


def start(spec_path, out, *extra, ranks=1):
    log = open(LOG, "a")
    return subprocess.Popen(command(ranks, spec_path, out, *extra), stdout=log, stderr=log)


def manifest(out):
    """Manifest lines (dicts) of --out's shard folder."""
    path = out + ".shards/manifest.jsonl"
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def shards(out):
    folder = out + ".shards"
    if not os.path.isdir(folder):
        return []
    return sorted(n for n in os.listdir(folder) if re.fullmatch(r"[0-9a-f]{32}\.h5", n))


def by_shard(out):
    """Shard name (32 hex digits) -> the manifest lines of its tasks, in order. A name written
    again (a task rerun after its one-task shard was set aside as corrupt) keeps only the lines
    of its last write."""
    groups = {}
    for m in manifest(out):
        lines = groups.setdefault(m["shard"], [])
        if lines and lines[-1]["sha256"] != m["sha256"]:
            lines.clear()
        lines.append(m)
    return groups


def check_intact(out):
    """Every shard is as its manifest lines say (one SHA-256, the tasks they name) and opens as
    HDF5; no temporary file."""
    groups = by_shard(out)
    for name in shards(out):
        path = os.path.join(out + ".shards", name)
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        lines = groups.get(name[:32], [])
        if not lines:  # written by a worker killed before rank 0 logged it: must be readable
            with h5py.File(path, "r") as h:
                if len(h["summary"]["task_id"]) == 0:
                    fail(f"shard {name} without manifest lines holds no task")
            continue
        if any(m["sha256"] != digest for m in lines):
            fail(f"shard {name} does not match its manifest checksum")
        with h5py.File(path, "r") as h:
            if list(h["summary"]["task_id"].asstr()) != [m["id"] for m in lines]:
                fail(f"shard {name} does not hold the tasks its manifest lines name")
    leftovers = [n for n in os.listdir(os.path.dirname(out) or ".") if ".tmp." in n]
    leftovers += [n for n in os.listdir(out + ".shards") if ".tmp." in n]
    if leftovers:
        fail(f"temporary files left: {leftovers}")


def same_results(a, b):
    code = subprocess.call([compare, a, b], stdout=open(LOG, "a"), stderr=subprocess.STDOUT)
    if code != 0:
        fail(f"{b} differs from the uninjected run {a}")


def runs_count(text):
    """The number of tasks a sweep ran, from its closing line."""
    m = re.search(r"adaptsim: (\d+) tasks run in", text)
    if not m:
        fail("no closing line in the sweep's output")
    return int(m.group(1))


# Four quick tasks (~0.2 s each) on the 120-job reference trace; full detail makes shards of a
# few hundred KiB, so that sizes are easy to place between a shard and the merged file.
QUICK = 'policies = ["fifo", "max_min_fairness"]\nseeds = [0, 1]\ndetail = "full"\n'
# Slow tasks for the modes that act while a sweep runs (~1 s each).
SLOW = 'policies = "fail_after"\nfail_after.after = -1\nfail_after.sleep_ms = 25\n'


def reference(name, body=QUICK, trace=TRACE):
    """An uninjected run of the spec (shards kept): its merged file and its shard sizes."""
    s = spec(name, body, trace)
    out = os.path.join(workdir, name + "_reference.h5")
    code, text = sweep(s, out, "--quiet", "--keep-shards", "--order", "spec")
    if code != 0:
        fail(f"uninjected run exited {code}")
    sizes = [os.path.getsize(os.path.join(out + ".shards", n)) for n in shards(out)]
    return s, out, sizes


def pages(size):
    return (size + PAGE - 1) // PAGE


def in_namespace():
    """Re-runs this mode inside a private mount namespace (mounts vanish with it); skips when
    the machine does not allow it."""
    if os.geteuid() != 0:
        skip("mounting a small file system needs root")
    if shutil.which("unshare") is None:
        skip("unshare(1) not installed")
    probe = subprocess.call(["unshare", "-m", "--propagation", "private", "sh", "-c",
                             f"mount -t tmpfs -o size=64k tmpfs '{workdir}'"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if probe != 0:
        skip("mount(2) is not permitted here (container without CAP_SYS_ADMIN?)")
    code = subprocess.call(["unshare", "-m", "--propagation", "private", sys.executable,
                            __file__, mode + "_inner", default_data, mpiexec, adaptsim, compare,
                            workdir])
    sys.exit(code)


def mount_tmpfs(folder, size_bytes, *options):
    os.makedirs(folder, exist_ok=True)
    opts = ",".join([f"size={size_bytes}"] + list(options))
    subprocess.check_call(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", folder])


def remount(folder, size_bytes):
    subprocess.check_call(["mount", "-o", f"remount,size={size_bytes}", folder])


def expect_disk_error(code, text, out, reason, ranks=1):
    if ranks == 1 and code != 1:
        fail(f"the sweep exited {code} on a full disk, expected 1 (an error, not a crash)")
    if ranks > 1 and code <= 0:  # rank 0 ends the MPI job (MPI_Abort) so no worker waits on it
        fail(f"mpirun exited {code} on a full disk")
    if reason not in text:
        fail(f"no '{reason}' in the error")
    if not re.search(r"adaptsim: error: .*" + re.escape(os.path.dirname(out)), text):
        fail("the error does not name the path")
    crashes = ["Process received signal", "Segmentation fault", "core dumped"]
    if any(crash in text for crash in crashes + (["MPI_ABORT"] if ranks == 1 else [])):
        fail("the sweep crashed instead of reporting the error")


if mode == "checksum":
    s, ref, sizes = reference("checksum")
    out = os.path.join(workdir, "out.h5")
    code, _ = sweep(s, out, "--quiet", "--keep-shards")
    os.remove(out)  # as if killed before the merge: the shards are the only copy
    names = shards(out)
    by_id = {m["id"]: m["task_index"] for m in manifest(out)}
    folder = out + ".shards"
    truncated, flipped, unlogged = names[0], names[1], names[2]
    with open(os.path.join(folder, truncated), "r+b") as f:  # truncated to half
        f.truncate(os.path.getsize(os.path.join(folder, truncated)) // 2)
    with open(os.path.join(folder, flipped), "r+b") as f:  # three bytes flipped mid-file
        f.seek(os.path.getsize(os.path.join(folder, flipped)) // 2)
        chunk = bytearray(f.read(3))
        f.seek(-3, os.SEEK_CUR)
        f.write(bytes(b ^ 0xFF for b in chunk))
    with open(os.path.join(folder, unlogged), "r+b") as f:  # garbage, and no manifest line
        f.write(b"\0" * 4096)
    lines = [m for m in manifest(out) if m["id"] != unlogged[:32]]
    with open(folder + "/manifest.jsonl", "w") as f:
        f.writelines(json.dumps(m) + "\n" for m in lines)
    code, text = sweep(s, out, "--keep-shards")
    if code != 0:
        fail(f"resume exited {code}")
    for name, what in ((truncated, "truncated or altered"), (flipped, "truncated or altered"),
                       (unlogged, "cannot be read")):
        path = os.path.join(folder, name)
        pattern = (re.escape(f"adaptsim: warning: shard '{path}' of task {by_id[name[:32]]} (id "
                             f"{name[:32]}") + r".*" + re.escape(what))
        if not re.search(pattern, text):
            fail(f"no warning naming {name} and its task")
        if not os.path.exists(path + ".corrupt"):
            fail(f"{name} not set aside as .corrupt")
    if runs_count(text) != 3:
        fail(f"{runs_count(text)} tasks rerun, expected the 3 corrupt ones")
    check_intact(out)
    same_results(ref, out)
    # Batched shards (the default --shard-interval): a corrupt shard takes all of its tasks with
    # it, and only those rerun. Two runs of two tasks each, every run's tasks in one shard.
    out_b = os.path.join(workdir, "batched.h5")
    for seed in (0, 1):
        half = spec(f"half{seed}", QUICK.replace("seeds = [0, 1]", f"seeds = [{seed}]"))
        code, _ = sweep(half, out_b, "--quiet", "--keep-shards", "--shard-interval", "3600",
                        interval=None)
        if code != 0:
            fail(f"batched run {seed} exited {code}")
    os.remove(out_b)
    groups = by_shard(out_b)
    if sorted(len(lines) for lines in groups.values()) != [2, 2]:
        fail(f"expected 2 shards of 2 tasks, found {[len(v) for v in groups.values()]}")
    check_intact(out_b)
    victim, kept = sorted(groups)
    path = os.path.join(out_b + ".shards", victim + ".h5")
    with open(path, "r+b") as f:
        f.seek(os.path.getsize(path) // 2)
        chunk = bytearray(f.read(3))
        f.seek(-3, os.SEEK_CUR)
        f.write(bytes(b ^ 0xFF for b in chunk))
    # `adaptsim merge` of the folder skips the corrupt shard, names it, and keeps the rest.
    merged = os.path.join(workdir, "merged_b.h5")
    with open(LOG, "a") as log:
        code = subprocess.call([adaptsim, "merge", "--out", merged, out_b + ".shards"],
                               stdout=log, stderr=log)
    with open(LOG) as log:
        text = log.read()
    if code != 0 or f"warning: corrupt shard skipped: '{path}'" not in text:
        fail(f"adaptsim merge exited {code} or did not name the corrupt shard")
    with h5py.File(merged, "r") as h:
        if sorted(h["summary"]["task_id"].asstr()) != sorted(m["id"] for m in groups[kept]):
            fail("adaptsim merge did not keep exactly the intact shard's tasks")
    code, text = sweep(s, out_b, "--keep-shards", interval=None)
    if code != 0:
        fail(f"resume of the batched run exited {code}")
    for m in groups[victim]:
        # (the task's index is the full spec's, not the half's the manifest line records)
        if not re.search(re.escape(f"adaptsim: warning: shard '{path}' of task ") +
                         r"\d+ " + re.escape(f"(id {m['id']}") + r".*truncated or altered", text):
            fail(f"no warning naming task {m['id']} of the corrupt batched shard")
    if runs_count(text) != 2 or not os.path.exists(path + ".corrupt"):
        fail(f"{runs_count(text)} tasks rerun, expected the corrupt shard's 2 (or no .corrupt)")
    if not os.path.exists(os.path.join(out_b + ".shards", kept + ".h5")):
        fail("the intact batched shard was touched")
    check_intact(out_b)
    same_results(ref, out_b)
    # A dry run reports a corrupt shard without touching it (no --out: the shard is the only copy).
    os.remove(out)
    with open(os.path.join(folder, names[3]), "r+b") as f:
        f.truncate(100)
    code, text = sweep(s, out, "--dry-run")
    if code != 0 or "its task would run again" not in text or "4 tasks, 1 to run" not in text:
        fail("the dry run does not report the corrupt shard")
    if not os.path.exists(os.path.join(folder, names[3])):
        fail("the dry run moved a shard")
    sys.exit(0)

if mode == "enospc_tmpfs":
    in_namespace()

if mode == "enospc_tmpfs_inner":
    # Inside the namespace: the reference run is on the normal file system (workdir).
    s, ref, sizes = reference("enospc")
    mnt = os.path.join(workdir, "mnt")
    out = os.path.join(mnt, "out.h5")
    merged = pages(os.path.getsize(ref))
    # 1. Room for two shards (plus the lock file and the manifest): the third fails.
    mount_tmpfs(mnt, PAGE * (pages(sizes[0]) + pages(sizes[1]) + 2 + pages(sizes[2]) // 2))
    code, text = sweep(s, out, "--quiet", "--keep-shards", "--order", "spec")
    expect_disk_error(code, text, out, "No space left on device")
    if len(shards(out)) != 2 or len(manifest(out)) != 2:
        fail(f"expected the 2 shards written before the disk filled, found {shards(out)}")
    check_intact(out)
    if os.path.exists(out):
        fail("a merged file was written after the failure")
    # 2. Room for every shard but not for the merged file.
    remount(mnt, PAGE * (sum(pages(x) for x in sizes) + 2 + merged // 2))
    code, text = sweep(s, out, "--keep-shards", "--order", "spec")
    expect_disk_error(code, text, out, "No space left on device")
    if "out.h5" not in text or len(shards(out)) != 4:
        fail("the merge failure does not name the merged file, or shards are missing")
    check_intact(out)
    if os.path.exists(out):
        fail("a half-written merged file was published")
    # 3. With space: the rerun runs nothing, merges, and equals the uninjected run.
    remount(mnt, 64 << 20)
    code, text = sweep(s, out, "--keep-shards")
    if code != 0 or runs_count(text) != 0:
        fail(f"the rerun with space exited {code} or reran tasks")
    same_results(ref, out)
    # 4. Under mpirun (rank 0 stores what the workers send): room for one shard.
    mnt2 = os.path.join(workdir, "mnt2")
    out2 = os.path.join(mnt2, "out.h5")
    mount_tmpfs(mnt2, PAGE * (max(pages(x) for x in sizes) + 2 + min(pages(x) for x in sizes) // 2))
    code, text = sweep(s, out2, "--quiet", "--keep-shards", ranks=3)
    expect_disk_error(code, text, out2, "No space left on device", ranks=3)
    if len(shards(out2)) > 1:
        fail(f"more shards than fit: {shards(out2)}")
    check_intact(out2)
    stored = len(shards(out2))
    remount(mnt2, 64 << 20)
    code, text = sweep(s, out2, "--keep-shards", ranks=3)
    if code != 0 or runs_count(text) != 4 - stored or "holds 4 of 4 tasks" not in text:
        fail(f"the MPI rerun with space exited {code} or is incomplete")
    same_results(ref, out2)
    sys.exit(0)

if mode == "enospc_fsize":
    # A tiny generated trace (10 jobs) makes small shards; the reference trace large ones. In
    # spec order the small tasks run first, so a limit between the two sizes fails the first
    # large shard.
    tiny = os.path.join(workdir, "tiny.trace")
    if subprocess.call([adaptsim, "generate-trace", "--out", tiny, "--throughputs", THROUGHPUTS,
                        "--num-jobs", "10"], stdout=open(LOG, "a"), stderr=subprocess.STDOUT):
        fail("generate-trace failed")
    traces = [tiny, TRACE]
    s, ref, _ = reference("fsize", 'policies = ["fifo", "max_min_fairness"]\ndetail = "full"\n',
                          trace=traces)
    entries = {m["task_index"]: m["shard"] for m in manifest(ref)}
    size = {i: os.path.getsize(f"{ref}.shards/{entries[i]}.h5") for i in entries}
    small, large = max(size[0], size[1]), min(size[2], size[3])
    if not small < large:
        fail(f"shard sizes do not separate: {size}")
    out = os.path.join(workdir, "out.h5")
    code, text = sweep(s, out, "--quiet", "--keep-shards", "--order", "spec",
                       limit=(small + large) // 2)
    expect_disk_error(code, text, out, "File too large")
    if len(shards(out)) != 2:
        fail(f"expected the 2 small shards written before the limit, found {shards(out)}")
    check_intact(out)
    # Every shard fits, the merged file does not.
    merged = os.path.getsize(ref)
    code, text = sweep(s, out, "--keep-shards", "--order", "spec", limit=max(size.values()) + 4096)
    if merged <= max(size.values()) + 4096:
        fail("the merged file is not larger than a shard")
    expect_disk_error(code, text, out, "File too large")
    if len(shards(out)) != 4 or os.path.exists(out):
        fail("shards missing, or a half-written merged file published")
    check_intact(out)
    code, text = sweep(s, out, "--keep-shards")
    if code != 0 or runs_count(text) != 0:
        fail(f"the rerun without limit exited {code} or reran tasks")
    same_results(ref, out)
    sys.exit(0)

if mode == "lock":
    s = spec("lock", SLOW + "seeds = [0, 1, 2, 3, 4, 5]\n")
    out = os.path.join(workdir, "out.h5")
    first = start(s, out, "--quiet", "--keep-shards")
    deadline = time.time() + 60
    while not manifest(out) and time.time() < deadline:
        time.sleep(0.05)
    if not manifest(out):
        fail("the first sweep finished no task within 60 s")
    for extra in ((), ("--force",)):
        before = shards(out)
        code, text = sweep(s, out, "--quiet", *extra)
        if code == 0:
            fail(f"a second sweep {' '.join(extra)} on the same --out was not refused")
        expected = (f"is in use by another adaptsim sweep (host {socket.gethostname()}, "
                    f"pid {first.pid}, started 20")
        if expected not in text:
            fail(f"the refusal does not name the holder: expected '{expected}'")
        if not set(before) <= set(shards(out)):
            fail(f"the refused sweep {' '.join(extra)} deleted shards")
    first.kill()  # SIGKILL: no clean-up, the lock file stays behind
    first.wait()
    if not os.path.exists(out + ".lock"):
        fail("expected the killed sweep's lock file to remain (the lock itself is gone)")
    code, text = sweep(s, out, "--keep-shards")
    if code != 0:
        fail(f"the sweep after the SIGKILL exited {code}: the lock stayed stuck")
    if "holds 6 of 6 tasks" not in text or os.path.exists(out + ".lock"):
        fail("the resumed sweep did not complete, or left its lock file")
    sys.exit(0)

if mode == "worker_kill":
    s = spec("worker_kill", SLOW + "seeds = [0, 1, 2, 3, 4, 5, 6, 7]\n")
    out = os.path.join(workdir, "out.h5")
    job = start(s, out, "--keep-shards", ranks=3)
    deadline = time.time() + 60
    while not manifest(out) and time.time() < deadline:
        time.sleep(0.05)
    if not manifest(out):
        fail("no task finished within 60 s")

    def worker_pid(rank):
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if out.encode() not in f.read():
                        continue
                with open(f"/proc/{pid}/environ", "rb") as f:
                    if f"OMPI_COMM_WORLD_RANK={rank}".encode() in f.read().split(b"\0"):
                        return int(pid)
            except OSError:
                continue
        return None

    victim = worker_pid(1)
    if victim is None:
        fail("worker rank 1 not found")
    os.kill(victim, signal.SIGKILL)  # mid-task: tasks take ~1 s each and one just finished
    try:
        code = job.wait(timeout=120)
    except subprocess.TimeoutExpired:
        job.kill()
        fail("the MPI job did not end after a worker was killed")
    if code == 0:
        fail("mpirun exited 0 after a worker rank was killed")
    # A worker writes its shards itself (it shares the folder): one it wrote just before the kill
    # may have no manifest lines yet, and resume reads it (docs/sweeps.md §4.2).
    stored = {m["id"] for m in manifest(out)}
    logged = {m["shard"] for m in manifest(out)}
    for name in shards(out):
        if name[:32] not in logged:
            with h5py.File(os.path.join(out + ".shards", name), "r") as h:
                stored |= set(h["summary"]["task_id"].asstr())
    if len(stored) >= 8:
        fail("every task was stored: the kill came too late to lose a task")
    check_intact(out)
    code, text = sweep(s, out, "--keep-shards", ranks=3)
    if code != 0:
        fail(f"the resumed run exited {code}")
    rerun = runs_count(text)
    if rerun != 8 - len(stored):
        fail(f"the resumed run ran {rerun} tasks, expected the {8 - len(stored)} lost ones")
    ids = [m["id"] for m in manifest(out)]
    if len(ids) != 8 or len(set(ids)) != 8:
        fail(f"manifest has {len(ids)} lines for {len(set(ids))} tasks: a task ran twice")
    if "holds 8 of 8 tasks" not in text:
        fail("the resumed results file is incomplete")
    sys.exit(0)


def refused_before_any_task(out, reason, ranks):
    s = spec("unwritable", QUICK)
    code, text = sweep(s, out, ranks=ranks)
    if code != 2:
        fail(f"--out {out} ({reason}): exit {code}, expected 2")
    if f"adaptsim: error: {out}: field '--out': " not in text or reason not in text:
        fail(f"--out {out}: no error naming --out and saying '{reason}'")
    if os.path.exists(out + ".shards") or os.path.isfile(out):
        fail(f"--out {out}: something was written")
    if re.search(r"adaptsim: \[\d+/\d+\]", text) or "tasks run in" in text:
        fail(f"--out {out}: a task ran")


if mode == "unwritable":
    regular = os.path.join(workdir, "file")
    open(regular, "w").close()
    for ranks in (1, 2):
        refused_before_any_task(os.path.join(regular, "out.h5"),
                                f"folder '{regular}' does not exist or is not a folder", ranks)
        refused_before_any_task(workdir, "is a folder", ranks)
    if os.geteuid() != 0:
        locked = os.path.join(workdir, "r-x")
        os.makedirs(locked)
        os.chmod(locked, 0o555)
        refused_before_any_task(os.path.join(locked, "out.h5"), "Permission denied", 1)
    else:
        print("running as root (permissions do not apply): chmod 555 case left to the "
              "read-only mount")
    in_namespace()

if mode == "unwritable_inner":
    ro = os.path.join(workdir, "ro")
    os.makedirs(ro, exist_ok=True)
    subprocess.check_call(["mount", "--bind", ro, ro])
    subprocess.check_call(["mount", "-o", "remount,bind,ro", ro])
    for ranks in (1, 2):
        refused_before_any_task(os.path.join(ro, "out.h5"), "Read-only file system", ranks)
    if os.listdir(ro):
        fail("something was written in the read-only folder")
    sys.exit(0)

if mode == "hostile":
    hostile = "../../x;rm -rf \"$HOME\"/y $(touch PWNED) `touch PWNED2` '\"\n\x1b]0;T\x07\x1b[2J"
    long_text = "A" * 65536
    trace_dir = os.path.join(workdir, "data;$(touch PWNED)")
    os.makedirs(trace_dir)
    trace = os.path.join(trace_dir, "t $(touch PWNED) ;rm -rf x'\"`touch PWNED3`.trace")
    with open(TRACE) as f:  # the command and working-directory fields: stored, never run
        rows = [r.split("\t") for r in f.read().splitlines()]
    for r in rows:
        r[1] = "touch PWNED; rm -rf ../../x $(touch PWNED) " + long_text
        r[2] = "../../../../etc;$(touch PWNED)"
    with open(trace, "w") as f:
        f.write("\n".join("\t".join(r) for r in rows) + "\n")
    name = hostile + long_text
    s = os.path.join(workdir, "hostile.toml")
    with open(s, "w") as f:
        f.write(f"name = {json.dumps(name)}\ntraces = {json.dumps(trace)}\n"
                f'throughputs = "{THROUGHPUTS}"\nnum_gpus = 32\npolicies = "fifo"\n')
    out = os.path.join(workdir, "out.h5")
    code, text = sweep(s, out, "--keep-shards")
    if code != 0:
        fail(f"a valid spec with hostile text exited {code}")
    for root, dirs, files in os.walk(workdir):
        for n in files + dirs:
            path = os.path.join(root, n)
            if "PWNED" in n and n not in os.path.basename(trace) + os.path.basename(trace_dir):
                fail(f"a shell ran hostile text: {path} exists")
    allowed = {"log.txt", "hostile.toml", os.path.basename(trace), "out.h5", "out.h5.sha256"}
    for n in os.listdir(workdir):
        if n not in allowed | {os.path.basename(trace_dir), "out.h5.shards"}:
            fail(f"unexpected file {n} written next to --out")
    for n in os.listdir(out + ".shards"):
        if not re.fullmatch(r"[0-9a-f]{32}\.h5|manifest\.jsonl", n):
            fail(f"shard folder holds {n!r}: a name built from input")
    if os.path.exists("PWNED") or any(os.path.exists(os.path.join(d, "PWNED"))
                                      for d in ("/", os.path.expanduser("~"), "/tmp")):
        fail("a shell ran hostile text")
    with h5py.File(out, "r") as f:
        if f["meta"].attrs["sweep_name"] != name:
            fail("the spec name did not come back byte for byte")
        if f["summary"]["trace"].asstr()[0] != trace:
            fail("the trace path did not come back byte for byte")
    # A hostile job type in a trace: the task fails (traces are read by the task, docs/sweeps.md
    # §3), its message quotes the field with control characters escaped on the terminal and
    # byte for byte in the results file.
    bad_trace = os.path.join(workdir, "bad.trace")
    with open(TRACE) as f:
        rows = f.read().splitlines()
    fields = rows[0].split("\t")
    job_type = hostile.replace("\n", "").replace("\t", "") + long_text
    fields[0] = job_type
    rows[0] = "\t".join(fields)
    with open(bad_trace, "w") as f:
        f.write("\n".join(rows) + "\n")
    s2 = spec("bad_type", 'policies = "fifo"\n', trace=bad_trace)
    bad_out = os.path.join(workdir, "bad.h5")
    code, text = sweep(s2, bad_out)
    if code != 0:
        fail(f"a trace with a hostile job type: exit {code}, expected 0 (a failed task)")
    with h5py.File(bad_out, "r") as f:
        status = f["summary"]["status"].asstr()[0]
        message = f["summary"]["message"].asstr()[0]
    if status != "failed" or "bad.trace:1: field 'job_type'" not in message:
        fail(f"the task is {status}: {message[:200]}")
    if job_type not in message:
        fail("the stored message does not quote the job type byte for byte")
    failed_lines = [line for line in text.splitlines() if "failed fifo" in line]
    if len(failed_lines) != 1 or "\\x1b]0;T\\x07" not in failed_lines[0]:
        fail("the task's message is not printed on one line with escapes")
    if "\x1b" in text or "\x07" in text:
        fail("raw control characters from the trace reached the terminal")
    # Hostile policy options reach no shell either: an unknown option is an error that quotes it.
    s3 = spec("bad_option", f'policies = "fifo"\nfifo.{json.dumps(hostile)} = 1\n')
    code, text = sweep(s3, os.path.join(workdir, "bad3.h5"))
    if code != 2 or "\x1b" in text or "an option name cannot contain '.'" not in text:
        fail(f"a hostile option name: exit {code}, no clear error, or raw control characters")
    for n in ("PWNED", "PWNED2", "PWNED3"):
        if os.path.exists(os.path.join(workdir, n)) or os.path.exists(n):
            fail("a shell ran hostile text")
    sys.exit(0)

fail(f"unknown mode {mode}")
