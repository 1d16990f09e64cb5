"""The tutorial of docs/python.md §6 runs as written, so the documentation cannot drift from the
program: its code blocks are extracted in order (a block whose first line is `# file: NAME` is
saved as NAME, `sh` blocks are run), and the whole runs as one bash script (`set -euo pipefail`)
from an empty folder that is $HOME, where `$HOME/adaptsim` is this checkout (its build folder
$ADAPTSIM_BUILD_DIR as build/release). That installs the package with pip into a fresh virtual
environment, writes the policy, generates a trace, runs `adaptsim run` twice, runs the sweep
under `mpirun` and draws the figure; the test then checks what each step left. It also runs the
README's h5py snippet ("Results") on the sweep's results file, which must print strings as text.

Needs no reference data. Run by CTest (label python) with ADAPTSIM_BUILD_DIR set.
"""

import json
import os
import re
import subprocess
import tempfile
import unittest

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD_DIR = os.environ.get("ADAPTSIM_BUILD_DIR")
POLICY = "py:srtf:ShortestRemainingTime"


def section(text, heading):
    """The text of the `## ` section whose heading starts with `heading`."""
    start = text.index("\n## " + heading)
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def code_blocks(text):
    """[(language, code)] of the fenced blocks of `text`, in order."""
    return [(m.group(1), m.group(2)) for m in
            re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.M | re.S)]


def tutorial_script(markdown):
    """The tutorial as one bash script: `# file:` blocks become here-documents, `sh` blocks
    commands. Raises AssertionError for a block the test would not run."""
    lines = ["set -euo pipefail", 'cd "$HOME"']
    for language, code in code_blocks(section(markdown, "6. Tutorial")):
        first = code.splitlines()[0]
        match = re.fullmatch(r"# file: (\S+)", first)
        if match:
            lines += [f"cat > {match.group(1)} <<'ADAPTSIM_TUTORIAL_EOF'", code.rstrip("\n"),
                      "ADAPTSIM_TUTORIAL_EOF"]
        elif language == "sh":
            lines.append(code)
        else:
            raise AssertionError(f"a {language} block without '# file: NAME': {first}")
    return "\n".join(lines) + "\n"


def checkout_as(folder):
    """`folder` made to look like this checkout with its build folder at build/release: a link
    per entry of the checkout (the build folder may live elsewhere)."""
    os.makedirs(os.path.join(folder, "build"))
    for name in os.listdir(SOURCE_DIR):
        if name not in ("build", ".venv"):
            os.symlink(os.path.join(SOURCE_DIR, name), os.path.join(folder, name))
    os.symlink(os.path.abspath(BUILD_DIR), os.path.join(folder, "build", "release"))


@unittest.skipUnless(BUILD_DIR, "ADAPTSIM_BUILD_DIR not set")
class TutorialTest(unittest.TestCase):
    def test_the_tutorial_runs_as_written(self):
        with open(os.path.join(SOURCE_DIR, "docs", "python.md"), encoding="utf-8") as f:
            script = tutorial_script(f.read())
        with tempfile.TemporaryDirectory() as home:
            checkout_as(os.path.join(home, "adaptsim"))
            env = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONPATH", "ADAPTSIM_BUILD_DIR", "VIRTUAL_ENV")}
            env.update(HOME=home, PIP_DISABLE_PIP_VERSION_CHECK="1")
            done = subprocess.run(["bash", "-c", script], env=env, capture_output=True,
                                  text=True, check=False, timeout=280)
            self.assertEqual(done.returncode, 0,
                             f"the tutorial failed:\n{done.stdout}\n{done.stderr}")
            folder = os.path.join(home, "srtf-tutorial")
            # Step 3: the single run printed its summary; the second stored restart_s = 0.
            self.assertRegex(done.stdout, r"task_id +[0-9a-f]{32}\nstatus +ok\n")
            with open(os.path.join(folder, "no_restart.json")) as f:
                single = json.load(f)
            self.assertEqual(single["status"], "ok")
            self.assertEqual(single["config"]["policy_options"], {"restart_s": 0})
            self.assertEqual(single["summary"]["num_jobs"], 40)
            # Step 4: the dry run listed 9 tasks, the sweep ran them all.
            self.assertIn("9 tasks, 9 to run", done.stdout)
            self.run_in_venv(folder, self.check_results)
            # Step 5: the figure and its table.
            png = os.path.join(folder, "srtf.png")
            self.assertGreater(os.path.getsize(png), 10_000)
            self.assertIn("SRTF", open(os.path.join(folder, "plot.py")).read())
            self.assertRegex(done.stdout, re.escape(POLICY) + r" +32 ")
            # The README's h5py snippet on these results: strings print as text, not b'...'.
            os.symlink(os.path.join(folder, "srtf.h5"), os.path.join(folder, "smoke.h5"))
            readme = open(os.path.join(SOURCE_DIR, "README.md"), encoding="utf-8").read()
            snippet = [code for language, code in code_blocks(section(readme, "Results"))
                       if language == "python"]
            self.assertEqual(len(snippet), 1)
            shown = subprocess.run([os.path.join(folder, ".venv", "bin", "python"), "-c",
                                    snippet[0]], cwd=folder, env=env, capture_output=True,
                                   text=True, check=False)
            self.assertEqual(shown.returncode, 0, shown.stderr)
            self.assertIn("gandiva_fair", shown.stdout)
            self.assertIn(POLICY, shown.stdout)
            self.assertNotIn("b'", shown.stdout)

    def run_in_venv(self, folder, check):
        """Runs `check`'s code with the tutorial environment's python (its adaptsim)."""
        done = subprocess.run([os.path.join(folder, ".venv", "bin", "python"), "-c", check],
                              cwd=folder, capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    check_results = """
import adaptsim
summary, _ = adaptsim.read("srtf.h5")
assert len(summary) == 9, summary
assert (summary.status == "ok").all(), summary[["policy", "status", "message"]]
assert sorted(set(summary.policy)) == ["gandiva_fair", "max_min_fairness",
                                       "py:srtf:ShortestRemainingTime"]
assert sorted(summary.num_gpus) == [8, 8, 8, 16, 16, 16, 32, 32, 32]
assert (summary.num_jobs == 40).all()
"""


if __name__ == "__main__":
    unittest.main(verbosity=2)
