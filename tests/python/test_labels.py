"""analysis/labels.toml is the one source of display names, looks and option labels: the Python
module's compiled-in copy (adaptsim.labels()), the analysis scripts (analysis/adaptsim_style.py)
and `adaptsim report` all render from it, and render the names the papers use.

Run by CTest (label python) with PYTHONPATH=<build>/python:... and ADAPTSIM_BINARY=<adaptsim>.
Needs no reference data: the trace is generated from the checkout's catalogue.
"""

import json
import os
import subprocess
import sys
import tempfile
import tomllib
import unittest

import adaptsim

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE_DIR, "analysis"))
import adaptsim_style as st  # noqa: E402
import adaptsim_tables  # noqa: E402

LABELS = os.path.join(SOURCE_DIR, "analysis", "labels.toml")
CATALOG = os.path.join(SOURCE_DIR, "data", "catalog", "v100.toml")
BINARY = os.environ.get("ADAPTSIM_BINARY", "adaptsim")
# The names of the Shockwave (NSDI'23) and Pollux (OSDI'21) papers.
PAPERS = {"shockwave": "Shockwave", "min_total_duration": "OSSP",
          "finish_time_fairness": "Themis", "max_min_fairness": "Gavel", "allox": "AlloX",
          "max_sum_throughput_perf": "MST", "gandiva_fair": "Gandiva-Fair", "pollux": "Pollux",
          "optimus": "Optimus+Oracle", "tiresias": "Tiresias"}


class LabelsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(LABELS, "rb") as f:
            cls.file = tomllib.load(f)

    def test_the_module_carries_the_file(self):
        self.assertEqual(adaptsim.labels(), self.file)

    def test_the_scripts_read_the_file(self):
        self.assertEqual(os.path.realpath(st.LABELS_PATH), os.path.realpath(LABELS))
        for policy in self.file["policy"]:
            for name in policy["names"]:
                self.assertEqual(st.display_name(name), policy["display"])
                self.assertEqual(adaptsim.display_name(name), policy["display"])
            self.assertEqual(st.style(policy["display"]), (policy["colour"], policy["marker"]))
        self.assertEqual(st.METRICS, [m["name"] for m in self.file["metric"]])
        self.assertEqual(st.scenario_label(120, 32), "120 jobs · 32 GPUs")

    def test_names_are_the_papers(self):
        for policy, display in PAPERS.items():
            self.assertEqual(st.display_name(policy), display)
            self.assertEqual(adaptsim.display_name(policy), display)
        order = [st.policy_rank(d) for d in PAPERS.values()]
        self.assertEqual(order, sorted(order), "legend order")

    def test_report_renders_the_same_labels(self):
        """Two results files read together: the report's labels are the file's names, and the
        option that varies is labelled as labels.toml says."""
        with tempfile.TemporaryDirectory() as folder:
            trace = os.path.join(folder, "small.trace")
            adaptsim.generate_trace(trace, CATALOG, num_jobs=12, lam_s=60.0, seed=5,
                                    max_duration_h=0.5)
            files = []
            for policy, options in (("max_min_fairness", {"face_position": 0.25}),
                                    ("max_min_fairness", {"face_position": 0.75}),
                                    ("gandiva_fair", {}), ("finish_time_fairness", {})):
                files.append(os.path.join(folder, f"{len(files)}.h5"))
                adaptsim.run(trace, CATALOG, policy, gpus=4, out=files[-1], **options)
            tables = adaptsim_tables.read(files, BINARY, baseline="gandiva_fair")
            labels = dict(zip(tables.tasks.task_id, tables.tasks.label))
            self.assertEqual(sorted(labels.values()),
                             ["Gandiva-Fair", "Gavel (face 0.25)", "Gavel (face 0.75)", "Themis"])
            for task in tables.tasks.itertuples():
                self.assertEqual(task.display, st.display_name(task.policy))
                self.assertEqual(task.scenario, st.scenario_label(task.num_jobs, task.num_gpus))
            self.assertEqual(tables.baseline, "gandiva_fair")
            self.assertEqual(set(tables.rows.metric[tables.rows.table == "canonical"]),
                             set(st.METRICS))
            # The text table names the same labels.
            text = subprocess.run([BINARY, "report", *files], check=True, capture_output=True,
                                  text=True).stdout
            for label in labels.values():
                self.assertIn(label, text)


if __name__ == "__main__":
    unittest.main()
