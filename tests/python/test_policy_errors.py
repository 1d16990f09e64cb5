"""Every policy output the engines cannot run is refused by name (docs/python.md §3-§5), tested for
real through the extension module, the command line and a sweep: one test per mistake of
tests/python/bad_policies.py, each asserting the PolicyError's policy, method, round and numbers;
the command line's exit status 2 and traceback lines; a sweep's failed row without metrics; and
the command line's JSON option values.

Run by CTest (label python) with PYTHONPATH=<build>/python:<checkout>/examples:<this folder> and
ADAPTSIM_BINARY=<the adaptsim command line>. Needs no reference data.
"""

import math
import os
import re
import subprocess
import tempfile
import unittest

import h5py

import adaptsim

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOG = os.path.join(SOURCE_DIR, "data", "catalog", "v100.toml")
BINARY = os.environ.get("ADAPTSIM_BINARY", "adaptsim")
GPUS = 8


def bad(name):
    return f"py:bad_policies:{name}"


class RefusedDecisionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.trace = os.path.join(cls.folder.name, "jobs.trace")
        adaptsim.generate_trace(cls.trace, CATALOG, num_jobs=16, lam_s=60.0, seed=3,
                                max_duration_h=1.0)

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def refused(self, name, method, **options):
        """Runs bad_policies.`name` and returns its PolicyError's message, checking its names."""
        with self.assertRaises(adaptsim.PolicyError) as caught:
            adaptsim.run(trace=self.trace, throughputs=CATALOG, policy=bad(name), gpus=GPUS,
                         **options)
        error = caught.exception
        self.assertEqual(error.policy, bad(name))
        self.assertEqual(error.method, method)
        message = str(error)
        self.assertTrue(message.startswith(f"policy '{bad(name)}': "), message)
        return message

    # plan_round

    def test_plan_round_over_capacity(self):
        message = self.refused("AllGpusTwice", "plan_round")
        match = re.search(r"plan_round asked for (\d+) GPUs in round (\d+); the cluster has 8 "
                          r"\(job (\d+), (\d) GPUs, is the first that does not fit\)", message)
        self.assertIsNotNone(match, message)
        self.assertGreater(int(match.group(1)), GPUS)

    def test_plan_round_unknown_job(self):
        message = self.refused("UnknownJob", "plan_round")
        self.assertIn("plan_round named job 23 in round 0, which is not an active job", message)
        self.assertIn("the trace's ids are 0-15", message)

    def test_plan_round_job_twice(self):
        message = self.refused("SameJobTwice", "plan_round")
        self.assertIn("plan_round named job 0 twice in round 0; each job runs at most once per "
                      "round", message)

    def test_plan_round_returns_none(self):
        message = self.refused("ReturnsNone", "plan_round")
        self.assertIn("plan_round returned None (NoneType) in round 0; it returns a list of job "
                      "ids", message)

    def test_plan_round_float_job_id(self):
        message = self.refused("FloatJobId", "plan_round")
        self.assertIn("plan_round returned 0.0 (float) at position 0 in round 0; job ids are ints",
                      message)

    def test_plan_round_bool_job_id(self):
        message = self.refused("BoolJobId", "plan_round")
        self.assertIn("returned True (bool) at position 0 in round 0; job ids are ints", message)

    def test_plan_round_returns_a_dict(self):
        message = self.refused("DictFromPlanRound", "plan_round")
        self.assertIn("in round 0; it returns a list of job ids (a dict {job id: time fraction} "
                      "is what compute_allocation returns)", message)

    # compute_allocation (refused by the Gavel mechanism, as for C++ policies, or by the adapter)

    def test_time_fraction_above_one(self):
        message = self.refused("FractionAboveOne", "compute_allocation")
        self.assertIn("compute_allocation gave job 0 the time fraction 2 in round 0; a time "
                      "fraction is a number in [0, 1]", message)

    def test_time_fraction_below_zero(self):
        message = self.refused("NegativeFraction", "compute_allocation")
        self.assertIn("the time fraction -0.5 in round 0", message)

    def test_time_fraction_nan(self):
        message = self.refused("NanFraction", "compute_allocation")
        self.assertIn("the time fraction nan in round 0", message)

    def test_time_fraction_infinite(self):
        message = self.refused("InfiniteFraction", "compute_allocation")
        self.assertIn("the time fraction inf in round 0", message)

    def test_time_fraction_string(self):
        message = self.refused("StringFraction", "compute_allocation")
        self.assertIn("compute_allocation returned '0.5' (str) for job 0 in round 0; a time "
                      "fraction is a number in [0, 1]", message)

    def test_time_fraction_bool(self):
        message = self.refused("BoolFraction", "compute_allocation")
        self.assertIn("returned True (bool) for job 0 in round 0", message)

    def test_time_fraction_for_unknown_job(self):
        message = self.refused("FractionForUnknownJob", "compute_allocation")
        self.assertIn("compute_allocation gave a time fraction to job 17 in round 0, which is "
                      "not an active job", message)

    def test_compute_allocation_returns_a_list(self):
        message = self.refused("ListFromComputeAllocation", "compute_allocation")
        self.assertIn("in round 0; it returns a dict {job id: time fraction in [0, 1]} (a list "
                      "of job ids is what plan_round returns)", message)

    # the class

    def test_class_with_both_methods(self):
        message = self.refused("BothMethods", "class")
        self.assertIn("the class defines both compute_allocation and plan_round; a policy "
                      "implements exactly one of", message)

    def test_class_with_no_method(self):
        message = self.refused("NoMethod", "class")
        self.assertIn("the class defines none of compute_allocation(state)", message)

    # optimize and choose_batch (interval engine: the trace with the catalogue, 2 nodes of 4)

    def refused_interval(self, name, method):
        return self.refused(name, method, gpus_per_node=4)

    def test_interval_node_over_its_gpus(self):
        message = self.refused_interval("IntervalNodeOverfull", "optimize")
        self.assertRegex(message, r"optimize put 5 replicas on node 0 at t=\d+ s \(jobs \[\d+\]\);"
                                  r" a node has 4 GPUs")

    def test_interval_node_outside_the_cluster(self):
        message = self.refused_interval("IntervalNodeOutside", "optimize")
        self.assertRegex(message, r"optimize put job \d+ on node 2 at t=\d+ s; node ids are in "
                                  r"\[0, 2\)")

    def test_interval_unknown_job(self):
        message = self.refused_interval("IntervalUnknownJob", "optimize")
        self.assertRegex(message, r"optimize allocated job 10000 at t=\d+ s, which is not an "
                                  r"active job")

    def test_interval_float_node(self):
        message = self.refused_interval("IntervalFloatNode", "optimize")
        self.assertRegex(message, r"optimize returned the node 0.0 \(float\) for job \d+ at "
                                  r"t=\d+ s; node ids are ints")

    def test_interval_list_result(self):
        message = self.refused_interval("IntervalListResult", "optimize")
        self.assertRegex(message, r"optimize returned \[\[0\]\] \(list\) at t=\d+ s; it returns "
                                  r"a dict")

    def test_choose_batch_below_one(self):
        message = self.refused_interval("IntervalZeroBatch", "choose_batch")
        self.assertRegex(message, r"choose_batch returned \(0, 0\) for job \d+ on placement "
                                  r"\[1\]; it needs atomic_bsz >= 1 and accum_steps >= 0")

    def test_choose_batch_not_ints(self):
        message = self.refused_interval("IntervalBatchNotInts", "choose_batch")
        self.assertIn("(32.0, 0) (tuple) for job", message)
        self.assertIn("it returns (atomic_bsz, accum_steps), two ints", message)

    # the command line and sweeps

    def test_command_line_exits_2_and_prints_the_traceback_on_lines(self):
        done = subprocess.run([BINARY, "run", "--trace", self.trace, "--throughputs", CATALOG,
                               "--gpus", str(GPUS), "--policy", "py:raising_policy:RaisesOnSecondCall"],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 2, done.stderr)
        lines = done.stderr.splitlines()
        self.assertTrue(lines[0].startswith("adaptsim: error: policy "
                                            "'py:raising_policy:RaisesOnSecondCall': "
                                            "compute_allocation raised in round "), lines[0])
        self.assertEqual(lines[1], "Traceback (most recent call last):")
        self.assertIn('  File "', done.stderr)
        self.assertEqual(lines[-1], "RuntimeError: policy gave up after 2 calls")
        self.assertNotIn("\\n", done.stderr)

    def test_command_line_over_capacity_exits_2(self):
        done = subprocess.run([BINARY, "run", "--trace", self.trace, "--throughputs", CATALOG,
                               "--gpus", str(GPUS), "--policy", bad("AllGpusTwice")],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertRegex(done.stderr, r"^adaptsim: error: policy 'py:bad_policies:AllGpusTwice': "
                                      r"plan_round asked for \d+ GPUs in round \d+; the cluster "
                                      r"has 8")

    def test_sweep_records_the_error_and_no_metrics(self):
        spec = os.path.join(self.folder.name, "sweep.toml")
        with open(spec, "w") as f:
            f.write(f'name = "bad"\ntraces = ["{self.trace}"]\nthroughputs = "{CATALOG}"\n'
                    f'policies = ["{bad("SameJobTwice")}", "gandiva_fair"]\n'
                    f'num_gpus = [{GPUS}]\n')
        out = os.path.join(self.folder.name, "sweep.h5")
        done = subprocess.run([BINARY, "sweep", spec, "--out", out], capture_output=True,
                              text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        summary, _ = adaptsim.read(out)
        rows = {p: row for p, row in zip(summary["policy"], summary.to_dict("records"))}
        twice = rows[bad("SameJobTwice")]
        self.assertEqual(twice["status"], "failed")
        self.assertEqual(twice["message"],
                         f"policy '{bad('SameJobTwice')}': plan_round named job 0 twice in "
                         "round 0; each job runs at most once per round")
        # A failed task's metrics are absent (docs/results-format.md): NaN, counts 0.
        for name in ("makespan_s", "mean_jct_s", "worst_ftf_rho", "utilization"):
            self.assertTrue(math.isnan(twice[name]), (name, twice[name]))
        self.assertEqual(twice["num_jobs"], 0)
        self.assertEqual(rows["gandiva_fair"]["status"], "ok")
        self.assertGreater(rows["gandiva_fair"]["mean_jct_s"], 0)
        with h5py.File(out, "r") as f:
            status = [s.decode() for s in f["summary"]["status"][:]]
            jct = f["summary"]["mean_jct_s"][:]
        self.assertEqual([math.isnan(x) for x in jct], [s == "failed" for s in status])
        # The closing table prints no numbers for them.
        table = [line for line in done.stdout.splitlines() if "failed" in line
                 and "SameJobTwice" in line]
        self.assertEqual(len(table), 1, done.stdout)
        self.assertEqual(table[0].split()[-5:], ["-"] * 5)

    def test_sweep_refuses_a_class_with_two_methods_up_front(self):
        spec = os.path.join(self.folder.name, "both.toml")
        with open(spec, "w") as f:
            f.write(f'name = "both"\ntraces = ["{self.trace}"]\nthroughputs = "{CATALOG}"\n'
                    f'policies = ["gandiva_fair", "{bad("BothMethods")}"]\n'
                    f'num_gpus = [{GPUS}]\n')
        out = os.path.join(self.folder.name, "both.h5")
        done = subprocess.run([BINARY, "sweep", spec, "--out", out], capture_output=True,
                              text=True, check=False)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("the class defines both compute_allocation and plan_round", done.stderr)
        self.assertFalse(os.path.exists(out))

    def test_sweep_refuses_a_constructor_that_raises_up_front(self):
        spec = os.path.join(self.folder.name, "options.toml")
        with open(spec, "w") as f:
            f.write(f'name = "options"\ntraces = ["{self.trace}"]\nthroughputs = "{CATALOG}"\n'
                    f'policies = ["gandiva_fair", "{bad("BadOptions")}"]\n'
                    f'num_gpus = [{GPUS}]\n[policy_options."{bad("BadOptions")}"]\nk = 3\n')
        out = os.path.join(self.folder.name, "options.h5")
        done = subprocess.run([BINARY, "sweep", spec, "--out", out], capture_output=True,
                              text=True, check=False)
        self.assertEqual(done.returncode, 2, done.stderr)
        lines = done.stderr.splitlines()
        self.assertTrue(lines[0].startswith(f"adaptsim: error: {spec}:"), lines[0])
        self.assertIn(f"policy '{bad('BadOptions')}': constructing BadOptions(**options) with "
                      'options {"k":3} raised:', lines[0])
        self.assertEqual(lines[1], "Traceback (most recent call last):")
        self.assertEqual(lines[-1], "ValueError: k=3 is not supported")
        self.assertFalse(os.path.exists(out))

    def test_sweep_refuses_an_unimportable_module_up_front(self):
        spec = os.path.join(self.folder.name, "missing.toml")
        with open(spec, "w") as f:
            f.write(f'name = "missing"\ntraces = ["{self.trace}"]\nthroughputs = "{CATALOG}"\n'
                    f'policies = ["py:no_such_module_here:Policy"]\nnum_gpus = [{GPUS}]\n')
        done = subprocess.run([BINARY, "sweep", spec, "--out",
                               os.path.join(self.folder.name, "missing.h5")],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("importing Policy from module 'no_such_module_here' raised:\nTraceback "
                      "(most recent call last):\n", done.stderr)
        self.assertIn("ModuleNotFoundError: No module named 'no_such_module_here'", done.stderr)


class PolicyOptionValuesTest(unittest.TestCase):
    """`--policy-option KEY=VALUE`: VALUE is JSON, Python's True/False/None are mapped, words are
    strings, and text that starts like JSON but is not is refused with a hint. The values are
    read back from the task's configuration (`adaptsim run --json`)."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.trace = os.path.join(cls.folder.name, "jobs.trace")
        adaptsim.generate_trace(cls.trace, CATALOG, num_jobs=4, seed=2, max_duration_h=0.5)

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def options(self, *items):
        import json
        command = [BINARY, "run", "--trace", self.trace, "--throughputs", CATALOG, "--gpus", "8",
                   "--policy", "py:option_echo:OptionEcho", "--json"]
        for item in items:
            command += ["--policy-option", item]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        return done, (json.loads(done.stdout)["config"]["policy_options"]
                      if done.returncode == 0 else None)

    def test_python_literals_are_json_literals(self):
        done, options = self.options("flag=False", "other=True", "nothing=None")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(options, {"flag": False, "other": True, "nothing": None})
        # The class received the booleans: OptionEcho refuses anything else.
        self.assertIn("option_echo: flag=False nothing=None other=True", done.stderr)

    def test_json_values(self):
        done, options = self.options("x=0.5", "n=3", "xs=[1, 2]", 'o={"k": true}', 's="10min"')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(options, {"x": 0.5, "n": 3, "xs": [1, 2], "o": {"k": True},
                                   "s": "10min"})

    def test_words_are_strings(self):
        done, options = self.options("mode=fast", "path=configs/a.json")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(options, {"mode": "fast", "path": "configs/a.json"})

    def test_text_that_starts_like_json_is_refused_with_a_hint(self):
        done, _ = self.options("xs=[True, 1]")
        self.assertEqual(done.returncode, 2)
        self.assertIn("field '--policy-option': xs=[True, 1] is not valid JSON", done.stderr)
        self.assertIn("inside a list or object write true, false and null", done.stderr)
        done, _ = self.options("window=10min")
        self.assertEqual(done.returncode, 2)
        self.assertIn("window='\"10min\"'", done.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
