"""The heterogeneous-cluster figure (analysis/heterogeneous_figures.py) marks a run that did not
finish instead of leaving an empty slot that reads as zero: a real sweep of the 900-job reference
trace on 128 V100 + 64 P100 + 64 K80 under FIFO (heterogeneity-agnostic: it stops with no
schedulable job, docs/heterogeneous.md) and FIFO-Perf (finishes), drawn by the figure script.
Checks that the failed cell is a CSV row with status "failed" and the run's error, that the ok
cell holds the results file's numbers, that the figure says "failed" where the bar would be and
in its legend, and that the ratio table leaves the family out.

Run by CTest (label python) with ADAPTSIM_BINARY=<adaptsim>. Needs the reference data
($ADAPTSIM_DATA, else ../shared/data next to the checkout); exits 77 (CTest: skipped) without it.
"""

import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import pandas as pd

from reference_data import DATA, SOURCE_DIR, skip_unless_present

sys.path.insert(0, os.path.join(SOURCE_DIR, "analysis"))
import adaptsim_style as st  # noqa: E402
import heterogeneous_figures as hf  # noqa: E402

BINARY = os.environ.get("ADAPTSIM_BINARY", "adaptsim")
TRACE = os.path.join(DATA, "shockwave", "traces",
                     "900_0.2_5_1000_5_15_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace")
THROUGHPUTS = os.path.join(DATA, "shockwave", "throughputs", "wisr_throughputs.json")
SPEC = f"""name = "failed_mark"
traces = "{TRACE}"
throughputs = "{THROUGHPUTS}"
policies = ["fifo", "fifo_perf"]
cluster = "v100=128,p100=64,k80=64"
seeds = [0]
round_duration_s = 120
deadline_factor = 1000
"""


class FailedMarkTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        spec = os.path.join(cls.folder.name, "spec.toml")
        with open(spec, "w") as f:
            f.write(SPEC)
        cls.results = os.path.join(cls.folder.name, "failed_mark.h5")
        subprocess.run([BINARY, "sweep", spec, "--out", cls.results, "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        with h5py.File(cls.results, "r") as f:
            s = f["summary"]
            cls.status = dict(zip(s["policy"].asstr()[:], s["status"].asstr()[:]))
            cls.message = dict(zip(s["policy"].asstr()[:], s["message"].asstr()[:]))
            cls.jct = dict(zip(s["policy"].asstr()[:], s["mean_jct_s"][:]))
        seen = []
        original = st.save

        def save(fig, data, out, name):
            seen.extend(st.texts(fig))
            original(fig, data, out, name)

        st.save = save
        try:
            hf.draw_all(cls.results, None, cls.folder.name)
        finally:
            st.save = original
        cls.texts = seen
        cls.table = pd.read_csv(os.path.join(cls.folder.name, "heterogeneous.csv"),
                                keep_default_na=False)

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def test_the_run_fails_as_documented(self):
        self.assertEqual(self.status, {"fifo": "failed", "fifo_perf": "ok"})
        self.assertIn("no job can be scheduled", self.message["fifo"])

    def test_the_failed_cell_is_a_row_with_its_error(self):
        rows = {r.policy: r for r in self.table.itertuples()}
        self.assertEqual(set(rows), {"fifo", "fifo_perf"})
        failed = rows["fifo"]
        self.assertEqual((failed.status, failed.form, failed.tasks), ("failed", "agnostic", 0))
        self.assertEqual(failed.message, self.message["fifo"])
        self.assertEqual(failed.mean_jct_s, "")  # no number for a run that did not finish
        ok = rows["fifo_perf"]
        self.assertEqual((ok.status, ok.form, ok.tasks), ("ok", "aware", 1))
        self.assertAlmostEqual(float(ok.mean_jct_s), float(self.jct["fifo_perf"]), delta=1e-6)
        # Both cells are in the 900-job scenario (the failed task counted no jobs).
        self.assertEqual(set(self.table.scenario), {st.scenario_label(900, 256)})

    def test_the_figure_marks_it(self):
        self.assertEqual(self.texts.count("failed"), len(hf.PANEL_METRICS))
        self.assertIn("failed: the run did not finish", self.texts)

    def test_no_ratio_for_a_failed_family(self):
        ratios = pd.read_csv(os.path.join(self.folder.name, "heterogeneous_ratios.csv"))
        self.assertTrue(ratios.empty, ratios)


if __name__ == "__main__":
    skip_unless_present()
    unittest.main()
