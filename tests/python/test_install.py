"""`pip install` of the checkout into a virtual environment (docs/python.md §1), for real: a venv
made from the build's interpreter with --system-site-packages (Debian's pandas), pip offline
(--no-build-isolation --no-deps --no-index --no-cache-dir), the build backend of pyproject.toml /
setup.py reusing the already-built CMake folder ($ADAPTSIM_BUILD_DIR, so the test costs a pip run,
~20 s, not a build). Then, from a folder outside the checkout and without PYTHONPATH, the
environment's python imports adaptsim from its site-packages and runs a small simulation, and the
environment's `adaptsim` command runs the command line, a Python policy installed in the
environment included.

And pip run by another interpreter than the build's stops with the message naming the right one:
with a second real interpreter when the machine has one (a pyenv or other python3 on PATH), and
always against a build folder whose record names another interpreter (the same check, for
machines with one Python, such as CI).
"""

import glob
import json
import os
import shutil
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOG = os.path.join(SOURCE_DIR, "data", "catalog", "v100.toml")
BUILD_DIR = os.environ.get("ADAPTSIM_BUILD_DIR")

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

# A policy installed into the environment's site-packages only: the `adaptsim` command must
# import it without PYTHONPATH.
VENV_POLICY = '''
class LowestIdFirst:
    """Runs the lowest job ids that fit."""

    def plan_round(self, state):
        free, chosen = state.num_gpus, []
        for job in state.jobs:
            if job.scale_factor <= free:
                chosen.append(job.id)
                free -= job.scale_factor
        return chosen
'''

WRONG_INTERPRETER = "adaptsim: wrong Python interpreter."


def build_record():
    with open(os.path.join(BUILD_DIR, "python", "build.json"), encoding="utf-8") as f:
        return json.load(f)


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ADAPTSIM_BUILD_DIR")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env.update(extra)
    return env


def make_venv(python, folder):
    venv = os.path.join(folder, "venv")
    subprocess.run([python, "-m", "venv", "--system-site-packages", venv], check=True,
                   env=clean_env(), capture_output=True)
    return venv


def pip_install(venv, build_dir):
    return subprocess.run(
        [os.path.join(venv, "bin", "pip"), "install", "--no-build-isolation", "--no-deps",
         "--no-index", "--no-cache-dir", SOURCE_DIR],
        env=clean_env(ADAPTSIM_BUILD_DIR=build_dir), capture_output=True, text=True, check=False)


def other_interpreter(built_for):
    """A python3 on this machine that is not the build's, or None."""
    candidates = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/*/bin/python3")))
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if folder and "shims" not in folder:
            candidates.append(os.path.join(folder, "python3"))
    candidates += ["/usr/local/bin/python3", "/opt/conda/bin/python3"]
    for candidate in candidates:
        if (os.access(candidate, os.X_OK)
                and os.path.realpath(candidate) != os.path.realpath(built_for)):
            return candidate
    return None


@unittest.skipUnless(BUILD_DIR, "ADAPTSIM_BUILD_DIR not set")
class InstallTest(unittest.TestCase):
    def test_pip_install_into_a_venv_and_run(self):
        built_for = build_record()["python_executable"]
        with tempfile.TemporaryDirectory() as folder:
            venv = make_venv(built_for, folder)
            done = pip_install(venv, BUILD_DIR)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            run = subprocess.run([os.path.join(venv, "bin", "python"), "-c", SCRIPT, CATALOG],
                                 cwd=folder, env=clean_env(), capture_output=True, text=True,
                                 check=False)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
            module_file, mean_jct = run.stdout.split()
            # Imported from the environment, not from the checkout or the build folder.
            self.assertTrue(module_file.startswith(os.path.join(venv, "lib")), module_file)
            self.assertGreater(float(mean_jct), 0.0)

            # `adaptsim` is on the environment's PATH and is the build's command line.
            bin_dir = os.path.join(venv, "bin")
            command = shutil.which("adaptsim", path=bin_dir)
            self.assertEqual(command, os.path.join(bin_dir, "adaptsim"))
            site_packages = os.path.dirname(os.path.dirname(module_file))
            shipped = os.path.join(site_packages, "adaptsim", "bin", "adaptsim")
            self.assertTrue(os.access(shipped, os.X_OK), shipped)
            env = clean_env(PATH=bin_dir + os.pathsep + os.environ["PATH"])
            version = subprocess.run(["adaptsim", "--version"], env=env, capture_output=True,
                                     text=True, check=False)
            self.assertEqual(version.returncode, 0, version.stderr)
            self.assertTrue(version.stdout.startswith("adaptsim "), version.stdout)
            with open(os.path.join(site_packages, "venv_policy.py"), "w") as f:
                f.write(VENV_POLICY)
            run = subprocess.run(
                ["adaptsim", "run", "--trace", "small.trace", "--throughputs", CATALOG,
                 "--gpus", "8", "--policy", "py:venv_policy:LowestIdFirst", "--json"],
                cwd=folder, env=env, capture_output=True, text=True, check=False)
            self.assertEqual(run.returncode, 0, run.stderr)
            result = json.loads(run.stdout)
            self.assertEqual(result["status"], "ok")
            self.assertEqual(result["summary"]["num_jobs"], 8)
            # The build's command line, with the environment activated (VIRTUAL_ENV), embeds
            # the environment's python: the policy of its site-packages imports.
            activated = clean_env(VIRTUAL_ENV=venv)
            run = subprocess.run(
                [build_record()["command_line"], "run", "--trace", "small.trace",
                 "--throughputs", CATALOG, "--gpus", "8", "--policy",
                 "py:venv_policy:LowestIdFirst"],
                cwd=folder, env=activated, capture_output=True, text=True, check=False)
            self.assertEqual(run.returncode, 0, run.stderr)
            # A bad flag is the command line's own error, exit status 2.
            bad = subprocess.run(["adaptsim", "run", "--no-such-flag"], env=env,
                                 capture_output=True, text=True, check=False)
            self.assertEqual(bad.returncode, 2, bad.stderr)

    def assert_refused(self, done, built_for):
        output = done.stdout + done.stderr
        self.assertNotEqual(done.returncode, 0, output)
        self.assertIn(WRONG_INTERPRETER, output)
        self.assertIn(f"This build's module is for {built_for} (Python ", output)
        self.assertIn(f"{built_for} -m venv --system-site-packages .venv", output)
        self.assertNotIn("bdist_wheel", output)

    def test_pip_of_another_interpreter_is_refused(self):
        built_for = build_record()["python_executable"]
        other = other_interpreter(built_for)
        if other is None:
            self.skipTest(f"no Python interpreter other than {built_for} on this machine; "
                          "test_a_build_for_another_interpreter_is_refused checks the same "
                          "message against a build record")
        with tempfile.TemporaryDirectory() as folder:
            venv = make_venv(other, folder)
            done = pip_install(venv, BUILD_DIR)
            self.assert_refused(done, built_for)
            self.assertIn(f"but pip runs in {os.path.join(venv, 'bin', 'python')}",
                          done.stdout + done.stderr)

    def test_command_line_embeds_the_builds_interpreter(self):
        # Python finds its standard library from the interpreter it is started as; the command
        # line starts the build's, even when another interpreter's folder is first on PATH.
        built_for = build_record()["python_executable"]
        other = other_interpreter(built_for)
        if other is None:
            self.skipTest(f"no Python interpreter other than {built_for} on this machine")
        expected = subprocess.run([built_for, "-c", "import sys; print(sys.base_prefix)"],
                                  capture_output=True, text=True, check=True).stdout.strip()
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "probe_policy.py"), "w") as f:
                f.write("import sys\nprint('PROBE', sys.base_prefix, file=sys.stderr)\n"
                        + VENV_POLICY)
            trace = os.path.join(folder, "small.trace")
            subprocess.run([build_record()["command_line"], "generate-trace", "--catalog",
                            CATALOG, "--out", trace, "--num-jobs", "4"], check=True,
                           capture_output=True)
            env = clean_env(PATH=os.path.dirname(other) + os.pathsep + os.environ["PATH"],
                            PYTHONPATH=folder)
            run = subprocess.run(
                [build_record()["command_line"], "run", "--trace", trace, "--throughputs",
                 CATALOG, "--gpus", "8", "--policy", "py:probe_policy:LowestIdFirst"],
                env=env, capture_output=True, text=True, check=False)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn(f"PROBE {expected}\n", run.stderr)

    def test_a_build_for_another_interpreter_is_refused(self):
        # A build folder as CMake leaves it (CMakeCache.txt, build.json in its python folder),
        # made for an interpreter that is not the one running pip.
        record = dict(build_record(), python_executable="/opt/python3.12/bin/python3",
                      python_version="3.12.1", python_soabi="cpython-312-x86_64-linux-gnu")
        with tempfile.TemporaryDirectory() as folder:
            fake_build = os.path.join(folder, "build")
            os.makedirs(os.path.join(fake_build, "python"))
            open(os.path.join(fake_build, "CMakeCache.txt"), "w").close()
            with open(os.path.join(fake_build, "python", "build.json"), "w") as f:
                json.dump(record, f)
            venv = make_venv(build_record()["python_executable"], folder)
            done = pip_install(venv, fake_build)
            self.assert_refused(done, "/opt/python3.12/bin/python3")
            self.assertIn("Python 3.12.1, cpython-312-x86_64-linux-gnu", done.stdout + done.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
