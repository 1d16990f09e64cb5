"""The `adaptsim` Python module and Python policies (docs/python.md), tested for real: the
extension module, the command line embedding an interpreter, HDF5 files read by h5py.

Run by CTest (label python) with PYTHONPATH=<build>/python:<checkout>/examples:<this folder> and
ADAPTSIM_BINARY=<the adaptsim command line>. Needs no reference data: it generates its trace from
the checkout's catalogue (data/catalog/v100.toml).
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy

import adaptsim

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOG = os.path.join(SOURCE_DIR, "data", "catalog", "v100.toml")
BINARY = os.environ.get("ADAPTSIM_BINARY", "adaptsim")
LAS = "py:adaptsim_examples.least_attained_service:LeastAttainedService"
RAISING = "py:raising_policy:RaisesOnSecondCall"


class ModuleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.trace = os.path.join(cls.folder.name, "small.trace")
        adaptsim.generate_trace(cls.trace, CATALOG, num_jobs=16, lam_s=60.0, seed=3,
                                max_duration_h=1.0)

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def path(self, name):
        return os.path.join(self.folder.name, name)

    def test_generate_trace_writes_the_jobs(self):
        with open(self.trace) as f:
            lines = [line for line in f if line.strip()]
        self.assertEqual(len(lines), 16)

    def test_policies_lists_the_table(self):
        table = {p["name"]: p for p in adaptsim.policies()}
        self.assertEqual(table["max_min_fairness"]["engine"], "round")
        self.assertEqual(table["pollux"]["engine"], "interval")
        self.assertTrue(table["gandiva_fair"]["description"])

    def test_every_policy_option_has_a_default_and_a_doc(self):
        table = {p["name"]: p for p in adaptsim.policies()}
        count = 0
        for policy in table.values():
            for option in policy["options"]:
                self.assertEqual(set(option), {"name", "default", "doc"})
                self.assertTrue(option["doc"].strip(), f"{policy['name']}.{option['name']}")
                # JSON null only for a required option, which says so.
                if option["default"] is None:
                    self.assertTrue(option["doc"].startswith("required"), option)
                count += 1
        self.assertGreater(count, 30)
        options = {o["name"]: o for o in table["max_min_fairness"]["options"]}
        self.assertEqual(options["face_position"]["default"], 0.5)
        # The interval engine's options are the task's (config_fields()), not the policies'.
        self.assertEqual(table["tiresias"]["options"], [])
        self.assertNotIn("interval_s", [o["name"] for o in table["pollux"]["options"]])
        shockwave = {o["name"]: o["default"] for o in table["shockwave"]["options"]}
        self.assertEqual(shockwave["log_approximation_bases"], [0.0, 0.2, 0.4, 0.6, 0.8, 1.0])

    def test_policy_options_are_documented_in_docs_policies(self):
        with open(os.path.join(SOURCE_DIR, "docs", "policies.md"), encoding="utf-8") as f:
            text = f.read()
        section = text[text.index("## 11. Options"):]
        for policy in adaptsim.policies():
            for option in policy["options"]:
                default = ("required" if option["default"] is None
                           else f"`{json.dumps(option['default'])}`")
                row = f"| `{policy['name']}` | `{option['name']}` | {default} |"
                self.assertIn(row, section)

    def test_an_undeclared_option_is_an_input_error(self):
        with self.assertRaises(adaptsim.InputError) as caught:
            adaptsim.run(trace=self.trace, throughputs=CATALOG, policy="gandiva_fair", gpus=8,
                         no_such_option=1)
        self.assertEqual(caught.exception.field, "gandiva_fair.no_such_option")

    def test_run_returns_summary_and_frames(self):
        result = adaptsim.run(trace=self.trace, throughputs=CATALOG, policy="shockwave",
                              gpus=8)
        self.assertEqual(result.status, "ok")
        self.assertEqual(len(result.jobs), 16)
        self.assertIn("jct_s", result.jobs.columns)
        self.assertIn("rounds_run", result.jobs.columns)  # the round engine's extras
        self.assertGreater(result.summary["makespan_s"], 0.0)
        self.assertAlmostEqual(result.summary["mean_jct_s"], result.jobs["jct_s"].mean(),
                               places=6)
        self.assertEqual(result.units["jct_s"], "s")
        busy = [len(ids) for ids in result.rounds["running_job_ids"]]
        self.assertEqual(len(busy), len(result.rounds))
        # One GPU type: its row is the whole cluster.
        self.assertEqual(list(result.gpu_types["gpu_type"]), ["v100"])
        self.assertEqual(list(result.gpu_types["gpus"]), [8])
        self.assertAlmostEqual(result.gpu_types["utilization"][0], result.summary["utilization"],
                               places=12)
        self.assertEqual(result.units["busy_gpu_hours"], "GPU-h")

    def test_python_class_and_dotted_name_give_one_task(self):
        from adaptsim_examples.least_attained_service import LeastAttainedService
        by_class = adaptsim.run(trace=self.trace, throughputs=CATALOG,
                                policy=LeastAttainedService, gpus=8)
        by_name = adaptsim.run(trace=self.trace, throughputs=CATALOG, policy=LAS, gpus=8)
        self.assertEqual(by_class.status, "ok")
        self.assertEqual(by_class.task_id, by_name.task_id)
        self.assertEqual(list(by_class.jobs["jct_s"]), list(by_name.jobs["jct_s"]))
        for ids in by_class.rounds["running_job_ids"]:
            self.assertEqual(len(ids), len(set(ids)))

    def test_policy_options_are_keyword_arguments(self):
        plain = adaptsim.run(trace=self.trace, throughputs=CATALOG, policy=LAS, gpus=8)
        seconds = adaptsim.run(trace=self.trace, throughputs=CATALOG, policy=LAS, gpus=8,
                               weight_by_gpus=False)
        self.assertNotEqual(plain.task_id, seconds.task_id)
        with self.assertRaises(adaptsim.PolicyError) as caught:
            adaptsim.run(trace=self.trace, throughputs=CATALOG, policy=LAS, gpus=8, bogus=1)
        self.assertEqual(caught.exception.field, "options")
        self.assertIn("bogus", str(caught.exception))

    def test_config_fields_are_the_keywords_of_run(self):
        fields = {f["name"]: f for f in adaptsim.config_fields()}
        self.assertTrue({"trace", "throughputs", "policy", "gpus", "seed", "round_duration_s",
                         "idle_round_start", "interval_s", "gpus_per_node"} <= set(fields))
        self.assertTrue(fields["gpus"]["required"])
        self.assertEqual(fields["round_duration_s"]["default"], 120.0)
        self.assertEqual(fields["round_duration_s"]["unit"], "s")
        self.assertEqual(fields["round_duration_s"]["range"], "> 0")
        self.assertEqual(fields["interval_s"]["default"], 60.0)  # the engine's
        self.assertTrue(fields["interval_s"]["interval_engine_only"])
        self.assertNotIn("policy_options", fields)  # the remaining keywords
        # help(adaptsim.run) lists them from the same declarations.
        self.assertIn("        round_duration_s: T_r", adaptsim.run.__doc__)
        self.assertIn("        interval_s: ", adaptsim.run.__doc__)

    def test_configuration_keywords_set_the_task(self):
        result = adaptsim.run(trace=self.trace, throughputs=CATALOG, policy="gandiva_fair",
                              gpus=8, round_duration_s=60, restart_slack_s=2,
                              deadline_factor=None, seed=numpy.uint64(4))
        self.assertEqual(result.status, "ok")
        self.assertEqual(result.config["round_duration_s"], 60.0)
        self.assertEqual(result.config["restart_slack_s"], 2.0)
        self.assertEqual(result.config["deadline_factor"], 1.5)
        self.assertEqual(result.config["seed"], 4)
        self.assertEqual(result.config["policy_options"], {})
        self.assertNotIn("max_rounds", result.config)  # the budget is not configuration
        with self.assertRaises(adaptsim.InputError) as caught:
            adaptsim.run(trace=self.trace, throughputs=CATALOG, policy="gandiva_fair", gpus=8,
                         round_duration_s=0)
        self.assertEqual(caught.exception.field, "round_duration_s")
        self.assertIn("must be > 0", str(caught.exception))
        with self.assertRaises(adaptsim.InputError) as caught:
            adaptsim.run(trace=self.trace, throughputs=CATALOG, policy="gandiva_fair", gpus=8,
                         interval_s=30)
        self.assertEqual(caught.exception.field, "interval_s")
        self.assertIn("round engine", str(caught.exception))

    def test_raising_policy_raises_with_traceback(self):
        with self.assertRaises(adaptsim.PolicyError) as caught:
            adaptsim.run(trace=self.trace, throughputs=CATALOG, policy=RAISING, gpus=8)
        message = str(caught.exception)
        self.assertEqual(caught.exception.field, "compute_allocation")
        self.assertIn("Traceback", message)
        self.assertIn("explode_in_policy", message)
        self.assertIn("policy gave up after 2 calls", message)

    def test_input_error_names_file_and_field(self):
        bad = self.path("bad.trace")
        with open(self.trace) as f, open(bad, "w") as out:
            lines = f.readlines()
            out.writelines(lines[:2] + ["not\ta\tjob\n"] + lines[3:])
        with self.assertRaises(adaptsim.InputError) as caught:
            adaptsim.run(trace=bad, throughputs=CATALOG, policy="gandiva_fair", gpus=8)
        self.assertEqual(caught.exception.file, bad)
        self.assertEqual(caught.exception.line, 3)
        with self.assertRaises(adaptsim.InputError) as caught:
            adaptsim.run(trace=self.trace, throughputs=CATALOG, policy="no_such_policy",
                         gpus=8)
        self.assertEqual(caught.exception.field, "policy")

    def test_read_equals_the_written_result_and_h5py(self):
        out = self.path("run.h5")
        written = adaptsim.run(trace=self.trace, throughputs=CATALOG, policy=LAS, gpus=8,
                               out=out)
        summary, result = adaptsim.read(out)
        self.assertEqual(list(summary["task_id"]), [written.task_id])
        self.assertEqual(summary["policy"][0], LAS)
        self.assertEqual(result.task_id, written.task_id)
        self.assertEqual(result.summary, written.summary)
        self.assertTrue(result.jobs.equals(written.jobs))
        self.assertTrue(result.gpu_types.equals(written.gpu_types))
        self.assertEqual(list(result.rounds["running_job_ids"]),
                         list(written.rounds["running_job_ids"]))
        with h5py.File(out, "r") as f:
            jobs = f[f"/tasks/{written.task_id}/jobs"]
            numpy.testing.assert_array_equal(jobs["jct_s"][:], result.jobs["jct_s"].to_numpy())
            numpy.testing.assert_array_equal(f["/summary"]["mean_jct_s"][:],
                                             summary["mean_jct_s"].to_numpy())

    def test_written_file_has_its_checksum_and_an_altered_file_is_refused(self):
        out = self.path("checked.h5")
        adaptsim.run(trace=self.trace, throughputs=CATALOG, policy="fifo", gpus=8, out=out)
        with open(out, "rb") as f:
            data = bytearray(f.read())
        with open(out + ".sha256") as f:
            self.assertEqual(f.read(), hashlib.sha256(data).hexdigest() + "  checked.h5\n")
        data[len(data) // 2] ^= 0x5A
        with open(out, "wb") as f:
            f.write(data)
        with self.assertRaises(adaptsim.StoreError) as caught:
            adaptsim.read(out)
        self.assertIn("does not match " + out + ".sha256", str(caught.exception))

    def test_command_line_runs_a_python_policy(self):
        out = self.path("cli.h5")
        done = subprocess.run([BINARY, "run", "--trace", self.trace, "--throughputs", CATALOG,
                               "--gpus", "8", "--policy", LAS, "--out", out],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        module = adaptsim.run(trace=self.trace, throughputs=CATALOG, policy=LAS, gpus=8)
        summary, result = adaptsim.read(out)
        self.assertEqual(summary["task_id"][0], module.task_id)
        self.assertEqual(list(result.jobs["jct_s"]), list(module.jobs["jct_s"]))

    def test_every_surface_gives_the_same_task(self):
        # The field list makes run()'s keywords, adaptsim run's flags and a sweep spec's keys:
        # the same configuration is the same task (id) through each of them.
        keywords = dict(round_duration_s=60, restart_slack_s=2.5, idle_round_start="arrival",
                        seed=5)
        module = adaptsim.run(trace=self.trace, throughputs=CATALOG, policy="gandiva_fair",
                              gpus=8, **keywords)
        flags = []
        for field in adaptsim.config_fields():
            if field["name"] in keywords:
                flags += ["--" + field["name"].replace("_", "-"), str(keywords[field["name"]])]
        done = subprocess.run([BINARY, "run", "--trace", self.trace, "--throughputs", CATALOG,
                               "--gpus", "8", "--policy", "gandiva_fair", "--json"] + flags,
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(json.loads(done.stdout)["task_id"], module.task_id)
        spec = self.path("surfaces.toml")
        with open(spec, "w") as f:
            f.write(f'name = "surfaces"\ntraces = ["{self.trace}"]\nthroughputs = "{CATALOG}"\n'
                    'policies = ["gandiva_fair"]\nnum_gpus = 8\nseeds = 5\n'
                    'round_duration_s = 60\nrestart_slack_s = 2.5\n'
                    'idle_round_start = "arrival"\n')
        done = subprocess.run([BINARY, "sweep", spec, "--dry-run", "--out", self.path("s.h5")],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(module.task_id, done.stdout)

    def test_sweep_records_a_raising_policy_as_failed_and_goes_on(self):
        spec = self.path("sweep.toml")
        with open(spec, "w") as f:
            f.write(f'name = "python"\ntraces = ["{self.trace}"]\nthroughputs = "{CATALOG}"\n'
                    f'policies = ["{RAISING}", "{LAS}", "shockwave"]\n'
                    f'num_gpus = [8]\nseeds = [0]\n')
        out = self.path("sweep.h5")
        done = subprocess.run([BINARY, "sweep", spec, "--out", out, "--quiet"],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        summary, _ = adaptsim.read(out)
        status = dict(zip(summary["policy"], summary["status"]))
        self.assertEqual(status, {RAISING: "failed", LAS: "ok", "shockwave": "ok"})
        message = summary.loc[summary["policy"] == RAISING, "message"].iloc[0]
        self.assertIn("Traceback", message)
        self.assertIn("explode_in_policy", message)

    def test_class_without_source_file_runs(self):
        # A class defined in `python -c` (no file, no source): named py:__main__:Equal.
        code = ("import adaptsim, sys\n"
                "class Equal:\n"
                "    def compute_allocation(self, state):\n"
                "        return {j.id: 1.0 for j in state.jobs}\n"
                "r = adaptsim.run(trace=sys.argv[1], throughputs=sys.argv[2], policy=Equal, "
                "gpus=8)\n"
                "print(r.config['policy'], len(r.jobs), r.status)\n")
        done = subprocess.run([sys.executable, "-c", code, self.trace, CATALOG],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.split()[:2], ["py:__main__:Equal", "16"])

    def test_views_are_documented_to_the_unit(self):
        # Each view's field list is declared once (include/adaptsim/view_fields.hpp); the Python
        # classes bind exactly it and docs/python.md has one table per view with the same
        # fields, in the same order, with the same units ("—" for none).
        declared = adaptsim._core.view_fields()
        self.assertEqual(set(declared), {"JobSpec", "ActiveJobView", "ClusterState",
                                         "PolluxJobSpec", "PolluxApplication", "IntervalJobView",
                                         "IntervalClusterView", "StepObservation"})
        with open(os.path.join(SOURCE_DIR, "docs", "python.md"), encoding="utf-8") as f:
            text = f.read()
        for view, fields in declared.items():
            heading = f"\n#### `{view}`\n"
            self.assertIn(heading, text, view)
            after = text[text.index(heading) + len(heading):]
            table = after[after.index("| field | units | meaning |"):]
            rows = []
            for line in table.splitlines()[2:]:
                if not line.startswith("|"):
                    break
                cells = [cell.strip() for cell in line.strip("|").split("|")]
                rows.append((cells[0].strip("`"), "" if cells[1] == "—" else cells[1]))
            self.assertEqual(rows, [(name, units) for name, units, _ in fields], view)
            cls = getattr(adaptsim, view)
            properties = {name for name in dir(cls)
                          if isinstance(getattr(cls, name, None), property)}
            self.assertEqual(properties, {name for name, _, _ in fields}, view)

    def test_view_says_which_jobs_ran_in_the_previous_round(self):
        code = ("import adaptsim, sys\n"
                "class Alternate:\n"
                "    seen = []\n"
                "    def __init__(self): self.last = set()\n"
                "    def plan_round(self, state):\n"
                "        for job in state.jobs:\n"
                "            ran = job.id in self.last\n"
                "            assert job.ran_previous_round == ran, (state.round_index, job.id)\n"
                "            assert job.previous_round_gpus == (job.scale_factor if ran else 0)\n"
                "            Alternate.seen.append(ran)\n"
                "        job = state.jobs[state.round_index % len(state.jobs)]\n"
                "        self.last = {job.id}\n"
                "        return [job.id]\n"
                "r = adaptsim.run(trace=sys.argv[1], throughputs=sys.argv[2], policy=Alternate, "
                "gpus=8)\n"
                "assert r.status == 'ok', r.message\n"
                "print(sum(Alternate.seen), len(Alternate.seen))\n")
        done = subprocess.run([sys.executable, "-c", code, self.trace, CATALOG],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        ran, seen = map(int, done.stdout.split())
        self.assertGreater(ran, 10)
        self.assertGreater(seen - ran, 10)

    def test_dry_run_notes_seeds_that_change_only_the_task_id(self):
        spec = self.path("seeds.toml")
        with open(spec, "w") as f:
            f.write(f'name = "seeds"\ntraces = ["{self.trace}"]\nthroughputs = "{CATALOG}"\n'
                    f'policies = ["gandiva_fair", "{LAS}"]\nnum_gpus = [8]\nseeds = [0, 1]\n')
        done = subprocess.run([BINARY, "sweep", spec, "--out", self.path("seeds.h5"),
                               "--dry-run"], capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"note: 2 seeds, but gandiva_fair, {LAS} draw no random numbers (nor does "
                      "the engine): on a fixed trace their tasks for different seeds differ only "
                      "in the task id", done.stdout)
        one = spec.replace("seeds.toml", "one_seed.toml")
        with open(spec) as f, open(one, "w") as out:
            out.write(f.read().replace("seeds = [0, 1]", "seeds = [0]"))
        done = subprocess.run([BINARY, "sweep", one, "--out", self.path("one.h5"), "--dry-run"],
                              capture_output=True, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("note:", done.stdout)

    def test_editing_the_policy_changes_the_task_id(self):
        package = self.path("editable")
        os.makedirs(package, exist_ok=True)
        source = os.path.join(package, "editable_policy.py")
        code = ("class Equal:\n    def compute_allocation(self, state):\n"
                "        return {j.id: %s for j in state.jobs}\n")
        with open(source, "w") as f:
            f.write(code % "1.0")
        run = [sys.executable, "-c",
               "import adaptsim, sys; print(adaptsim.run(trace=sys.argv[1], throughputs="
               "sys.argv[2], policy='py:editable_policy:Equal', gpus=8).task_id)",
               self.trace, CATALOG]
        env = dict(os.environ, PYTHONPATH=package + os.pathsep + os.environ["PYTHONPATH"])
        first = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
        with open(source, "w") as f:
            f.write(code % "0.5")
        second = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
        self.assertNotEqual(first.strip(), second.strip())
        self.assertEqual(len(first.strip()), 32)


if __name__ == "__main__":
    unittest.main(verbosity=2)
