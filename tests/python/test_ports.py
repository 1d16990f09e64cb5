"""Python ports of C++ policies run on the exact mechanism give the C++ policy's results: per-job
JCTs and every round's job set identical on the 120-job reference trace (32 GPUs, tacc
throughputs, the canonical comparison's settings, experiments/canonical.toml) for the round
engine, and per-job JCTs and every interval's node allocation identical on the Pollux artifact's
workload-6 (64 GPUs, 16 nodes) for the interval engine. And a sweep with Python policies gives the
same results on 1 and 3 MPI ranks.

Needs the reference data ($ADAPTSIM_DATA, else ../shared/data next to the checkout); exits 77
(CTest: skipped) saying so when it is absent.
"""

import os
import subprocess
import tempfile
import unittest

import adaptsim

from reference_data import DATA, THROUGHPUTS, TRACE, skip_unless_present

SETTINGS = dict(gpus=32, seed=0, round_duration_s=120.0, deadline_factor=1.5)
WORKLOAD_6 = os.path.join(DATA, "pollux", "workloads", "workload-6.csv")
POLLUX_PROFILES = os.path.join(DATA, "pollux", "traces")


class PortsTest(unittest.TestCase):
    def assert_same_run(self, cpp_name, python_name, **options):
        cpp = adaptsim.run(trace=TRACE, throughputs=THROUGHPUTS, policy=cpp_name, **SETTINGS,
                           **options)
        port = adaptsim.run(trace=TRACE, throughputs=THROUGHPUTS, policy=python_name,
                            **SETTINGS, **options)
        self.assertEqual(cpp.status, "ok")
        self.assertEqual(port.status, "ok", port.message)
        self.assertEqual(len(cpp.jobs), 120)
        self.assertEqual(list(port.jobs["job_id"]), list(cpp.jobs["job_id"]))
        self.assertEqual(list(port.jobs["jct_s"]), list(cpp.jobs["jct_s"]))  # exact
        self.assertEqual(len(port.rounds), len(cpp.rounds))
        for r, (a, b) in enumerate(zip(port.rounds["running_job_ids"],
                                       cpp.rounds["running_job_ids"])):
            self.assertEqual(sorted(a), sorted(b), f"round {r}")
        self.assertEqual(port.summary, cpp.summary)
        self.assertNotEqual(port.task_id, cpp.task_id)

    def test_max_min_fairness(self):
        self.assert_same_run("max_min_fairness",
                             "py:adaptsim_examples.max_min_fairness:MaxMinFairness")

    def test_max_min_fairness_fill(self):
        self.assert_same_run("max_min_fairness",
                             "py:adaptsim_examples.max_min_fairness:MaxMinFairness",
                             face_position=1.0)

    def test_gandiva_fair(self):
        self.assert_same_run("gandiva_fair", "py:adaptsim_examples.gandiva_fair:GandivaFair")

    def test_tiresias_interval_engine(self):
        runs = [adaptsim.run(trace=WORKLOAD_6, throughputs=POLLUX_PROFILES, policy=policy,
                             gpus=64)
                for policy in ("tiresias", "py:adaptsim_examples.tiresias:Tiresias")]
        cpp, port = runs
        self.assertEqual(cpp.status, "ok")
        self.assertEqual(port.status, "ok", port.message)
        self.assertEqual(len(cpp.jobs), 160)
        self.assertTrue((cpp.jobs["engine"] == "interval").all())
        self.assertEqual(list(port.jobs["job_id"]), list(cpp.jobs["job_id"]))
        self.assertEqual(list(port.jobs["jct_s"]), list(cpp.jobs["jct_s"]))  # exact
        self.assertEqual(list(port.jobs["restarts"]), list(cpp.jobs["restarts"]))
        self.assertEqual(len(port.rounds), len(cpp.rounds))
        for r in range(len(cpp.rounds)):
            # The same jobs on the same GPUs (worker id = node · 4 + slot) in every interval.
            self.assertEqual(port.rounds["running_job_ids"][r], cpp.rounds["running_job_ids"][r],
                             f"interval {r}")
            self.assertEqual(port.rounds["worker_ids"][r], cpp.rounds["worker_ids"][r],
                             f"interval {r}")
        self.assertEqual(port.summary, cpp.summary)
        self.assertNotEqual(port.task_id, cpp.task_id)

    def test_python_batch_rule_and_observations(self):
        cpp = adaptsim.run(trace=WORKLOAD_6, throughputs=POLLUX_PROFILES, gpus=64,
                           policy="tiresias")
        hooks = adaptsim.run(trace=WORKLOAD_6, throughputs=POLLUX_PROFILES, gpus=64,
                             policy="py:raising_policy:TiresiasWithPythonHooks")
        self.assertEqual(hooks.status, "ok", hooks.message)
        self.assertEqual(list(hooks.jobs["jct_s"]), list(cpp.jobs["jct_s"]))
        self.assertGreater(hooks.policy_statistics["observations"], 1000)
        self.assertGreater(hooks.policy_statistics["batch_calls"], 1000)

    def test_new_interval_policy_with_engine_options(self):
        # interval_s is the engine's: not passed to PackedLas(max_jobs=None), which would raise.
        result = adaptsim.run(trace=WORKLOAD_6, throughputs=POLLUX_PROFILES, gpus=64,
                              policy="py:adaptsim_examples.packed_las:PackedLas",
                              interval_s=120, max_jobs=12)
        self.assertEqual(result.status, "ok", result.message)
        self.assertTrue((result.jobs["outcome"] == "completed").all())
        self.assertEqual(result.config["policy_options"], {"interval_s": 120, "max_jobs": 12})
        starts = list(result.rounds["start_s"])
        self.assertEqual(starts[1] - starts[0], 120.0)
        self.assertLessEqual(max(len(ids) for ids in result.rounds["running_job_ids"]), 12)

    def test_a_bad_interval_allocation_fails_naming_the_method(self):
        with self.assertRaises(adaptsim.PolicyError) as caught:
            adaptsim.run(trace=WORKLOAD_6, throughputs=POLLUX_PROFILES, gpus=64,
                         policy="py:raising_policy:OversubscribesANode")
        self.assertEqual(caught.exception.method, "optimize")
        self.assertRegex(str(caught.exception),
                         r"optimize put \d+ replicas on node 0 at t=\d+ s \(jobs \[[0-9, ]+\]\); "
                         r"a node has 4 GPUs")

    def test_sweep_under_mpirun_is_rank_count_independent(self):
        mpiexec = os.environ.get("ADAPTSIM_MPIEXEC")
        binary = os.environ.get("ADAPTSIM_BINARY")
        if not (mpiexec and binary):
            self.skipTest("ADAPTSIM_MPIEXEC or ADAPTSIM_BINARY not set")
        las = "py:adaptsim_examples.least_attained_service:LeastAttainedService"
        port = "py:adaptsim_examples.max_min_fairness:MaxMinFairness"
        with tempfile.TemporaryDirectory() as folder:
            spec = os.path.join(folder, "mpi.toml")
            with open(spec, "w") as f:
                f.write(f'name = "python_mpi"\ntraces = ["{TRACE}"]\n'
                        f'throughputs = "{THROUGHPUTS}"\n'
                        f'policies = ["{las}", "{port}", "gandiva_fair"]\n'
                        f'num_gpus = [32]\nseeds = [0]\ndeadline_factor = 1.5\n'
                        f'detail = "full"\n')
            tables = {}
            for ranks in (1, 3):
                out = os.path.join(folder, f"mpi_{ranks}.h5")
                done = subprocess.run([mpiexec, "--oversubscribe", "-n", str(ranks), binary,
                                       "sweep", spec, "--out", out, "--quiet"],
                                      capture_output=True, text=True, check=False)
                self.assertEqual(done.returncode, 0, done.stderr)
                summary, _ = adaptsim.read(out)
                self.assertEqual(len(summary), 3)
                self.assertTrue((summary["status"] == "ok").all(), list(summary["message"]))
                if ranks == 3:
                    self.assertGreater(summary["rank"].nunique(), 1)  # the workers ran them
                rows = {}
                for task_id in summary["task_id"]:
                    _, result = adaptsim.read(out, task_id)
                    rows[task_id] = (result.summary, result.jobs.to_dict("list"),
                                     list(result.rounds["running_job_ids"]))
                tables[ranks] = rows
            self.assertEqual(tables[1], tables[3])


if __name__ == "__main__":
    skip_unless_present()
    unittest.main(verbosity=2)
