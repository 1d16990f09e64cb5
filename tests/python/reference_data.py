"""The reference data the Python tests read ($ADAPTSIM_DATA, else ../shared/data next to the
checkout): the 120-job reference trace and the tacc throughputs. A test that needs them calls
skip_unless_present() before unittest.main(): without them it exits 77 (CTest: skipped)."""

import os
import sys

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("ADAPTSIM_DATA") or os.path.join(SOURCE_DIR, "..", "shared", "data")
TRACE = os.path.join(DATA, "shockwave", "traces",
                     "120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace")
THROUGHPUTS = os.path.join(DATA, "shockwave", "throughputs", "tacc_throughputs.json")


def skip_unless_present():
    """Exits 77 saying so when the reference trace or throughputs are absent."""
    if not (os.path.isfile(TRACE) and os.path.isfile(THROUGHPUTS)):
        print(f"SKIPPED: reference data not found at {DATA} (set ADAPTSIM_DATA)")
        sys.exit(77)
