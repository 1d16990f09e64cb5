"""Python ports of C++ policies run on the exact mechanism give the C++ policy's results: per-job
JCTs and every round's job set identical on the 120-job reference trace (32 GPUs, tacc
throughputs, the canonical comparison's settings, experiments/canonical.toml).

Needs the reference data ($ADAPTSIM_DATA, else ../shared/data next to the checkout); exits 77
(CTest: skipped) saying so when it is absent.
"""

import os
import sys
import unittest

import adaptsim

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("ADAPTSIM_DATA") or os.path.join(SOURCE_DIR, "..", "shared", "data")
TRACE = os.path.join(DATA, "shockwave", "traces",
                     "120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace")
THROUGHPUTS = os.path.join(DATA, "shockwave", "throughputs", "tacc_throughputs.json")
SETTINGS = dict(gpus=32, seed=0, round_duration_s=120.0, deadline_factor=1.5)


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


if __name__ == "__main__":
    if not (os.path.isfile(TRACE) and os.path.isfile(THROUGHPUTS)):
        print(f"SKIPPED: reference data not found at {DATA} (set ADAPTSIM_DATA)")
        sys.exit(77)
    unittest.main(verbosity=2)
