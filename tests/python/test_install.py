"""`pip install` of the checkout into a virtual environment (docs/python.md §1), for real: a venv
made from the system python3 with --system-site-packages (Debian's pandas), pip offline
(--no-build-isolation --no-deps --no-index --no-cache-dir), the build backend of pyproject.toml /
setup.py reusing the already-built CMake folder ($ADAPTSIM_BUILD_DIR, so the test costs a pip run,
~20 s, not a build). Then, from a folder outside the checkout and without PYTHONPATH, the
environment's python imports adaptsim from its site-packages and runs a small simulation.
"""

import os
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOG = os.path.join(SOURCE_DIR, "data", "catalog", "v100.toml")

SCRIPT = """
import os, sys, adaptsim
print(adaptsim.__file__)
trace = adaptsim.generate_trace("small.trace", sys.argv[1], num_jobs=8, seed=1,
                                max_duration_h=0.5)
result = adaptsim.run(trace=trace, throughputs=sys.argv[1], policy="gandiva_fair", gpus=8)
assert result.status == "ok", result.message
assert len(result.jobs) == 8 and (result.jobs["outcome"] == "completed").all()
print(result.summary["mean_jct_s"])
"""


class InstallTest(unittest.TestCase):
    def test_pip_install_into_a_venv_and_run(self):
        build_dir = os.environ.get("ADAPTSIM_BUILD_DIR")
        if not build_dir:
            self.skipTest("ADAPTSIM_BUILD_DIR not set")
        with tempfile.TemporaryDirectory() as folder:
            venv = os.path.join(folder, "venv")
            subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv],
                           check=True)
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            env["ADAPTSIM_BUILD_DIR"] = build_dir
            env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
            done = subprocess.run(
                [os.path.join(venv, "bin", "pip"), "install", "--no-build-isolation",
                 "--no-deps", "--no-index", "--no-cache-dir", SOURCE_DIR],
                env=env, capture_output=True, text=True, check=False)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            env.pop("ADAPTSIM_BUILD_DIR")
            run = subprocess.run([os.path.join(venv, "bin", "python"), "-c", SCRIPT, CATALOG],
                                 cwd=folder, env=env, capture_output=True, text=True,
                                 check=False)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            module_file, mean_jct = run.stdout.split()
            # Imported from the environment, not from the checkout or the build folder.
            self.assertTrue(module_file.startswith(os.path.join(venv, "lib")), module_file)
            self.assertGreater(float(mean_jct), 0.0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
