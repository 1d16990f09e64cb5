"""Python round policies on a cluster of several GPU types (docs/python.md §3), through the real
engine: the first jobs of the reference trace that need at most 2 GPUs, on `cluster v100=2,p100=2`
with the tacc throughputs. Checks that the view gives the GPU types and counts, each job's
throughput per type (the throughputs file's values) and the type it ran on in the previous round
(what the policy planned and the engine ran); that a plan's (job, type) pairs and an allocation's
{job: {type: x}} are honoured on the workers of that type; and that each mistake on such a cluster
is refused by name (policy, method, round, job, numbers).

Run by CTest (label python) with PYTHONPATH=<build>/python:<checkout>/examples:<this folder>.
Needs the reference data ($ADAPTSIM_DATA, else ../shared/data next to the checkout); exits 77
(CTest: skipped) saying so when it is absent.
"""

import json
import os
import re
import tempfile
import unittest

import adaptsim

import mixed_policies

from reference_data import THROUGHPUTS, TRACE, skip_unless_present

CLUSTER = "v100=2,p100=2"
TYPES = {"p100": 2, "v100": 2}
# Worker ids by type: types sorted by name, p100 first (docs/mechanism.md §12).
TYPE_OF_WORKER = {0: "p100", 1: "p100", 2: "v100", 3: "v100"}
NUM_JOBS = 6
SCALE_FACTOR_COLUMN = 6  # of a .trace line (tab-separated)


def policy(name):
    return f"py:mixed_policies:{name}"


class MixedClusterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.trace = os.path.join(cls.folder.name, "mixed.trace")
        with open(TRACE) as source, open(cls.trace, "w") as out:
            lines = [line for line in source
                     if int(line.split("\t")[SCALE_FACTOR_COLUMN]) <= 2][:NUM_JOBS]
            out.writelines(lines)
        with open(THROUGHPUTS) as file:
            cls.table = json.load(file)

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def run_policy(self, name, **options):
        result = adaptsim.run(trace=self.trace, throughputs=THROUGHPUTS, policy=policy(name),
                              cluster=CLUSTER, seed=0, **options)
        self.assertEqual(result.status, "ok", result.message)
        self.assertEqual(len(result.jobs), NUM_JOBS)
        return result

    def ran_on(self, result):
        """{round index: {job id: GPU type of its workers}} of the results' rounds."""
        placed = {}
        for index, jobs, workers in zip(result.rounds["round_index"],
                                        result.rounds["running_job_ids"],
                                        result.rounds["worker_ids"]):
            placed[index] = {}
            for job, ids in zip(jobs, workers):
                types = {TYPE_OF_WORKER[w] for w in ids}
                self.assertEqual(len(types), 1, f"round {index}: job {job} on {ids}")
                placed[index][job] = types.pop()
        return placed

    def test_view_and_plan_on_two_types(self):
        result = self.run_policy("FastestFreeType")
        rounds = mixed_policies.FastestFreeType.rounds
        ran_on = self.ran_on(result)
        self.assertEqual(sorted(rounds), sorted(ran_on))
        used = set()
        for index, seen in sorted(rounds.items()):
            self.assertEqual(seen["gpu_types"], TYPES)
            self.assertEqual(seen["num_gpus"], 4)
            # The engine ran each job on the type the policy planned, and nothing else.
            self.assertEqual(ran_on[index], dict(seen["plan"]), f"round {index}")
            used.update(ran_on[index].values())
            previous = dict(rounds[index - 1]["plan"]) if index - 1 in rounds else {}
            for job, fields in seen["jobs"].items():
                self.assertEqual(list(fields["by_type"]), ["p100", "v100"])
                self.assertEqual(fields["by_type"]["v100"], fields["throughput_steps_per_s"])
                self.assertEqual(fields["previous_type"], previous.get(job),
                                 f"round {index}, job {job}")
                self.assertEqual(fields["previous_gpus"],
                                 fields["scale_factor"] if job in previous else 0)
                if fields["batch_size"] == fields["initial_batch_size"]:
                    key = (f"('{fields['model']} (batch size {fields['batch_size']})', "
                           f"{fields['scale_factor']})")
                    for gpu_type, value in fields["by_type"].items():
                        self.assertEqual(value, self.table[gpu_type][key]["null"],
                                         f"{key} on {gpu_type}")
        self.assertEqual(used, {"p100", "v100"})
        self.assertTrue(any(f["previous_type"] for seen in rounds.values()
                            for f in seen["jobs"].values()))

    def test_allocation_on_one_type_runs_there_only(self):
        for gpu_type in TYPES:
            with self.subTest(gpu_type=gpu_type):
                result = self.run_policy("OnType", gpu_type=gpu_type)
                placed = self.ran_on(result)
                self.assertTrue(any(placed.values()))
                self.assertEqual({t for jobs in placed.values() for t in jobs.values()},
                                 {gpu_type})

    def test_allocation_split_over_types_uses_both(self):
        placed = self.ran_on(self.run_policy("SplitByType"))
        self.assertEqual({t for jobs in placed.values() for t in jobs.values()}, set(TYPES))

    # Mistakes on a cluster of several types.

    def refused(self, name, method):
        with self.assertRaises(adaptsim.PolicyError) as caught:
            adaptsim.run(trace=self.trace, throughputs=THROUGHPUTS, policy=policy(name),
                         cluster=CLUSTER, seed=0)
        self.assertEqual(caught.exception.policy, policy(name))
        self.assertEqual(caught.exception.method, method)
        return str(caught.exception)

    def test_plan_unknown_gpu_type(self):
        self.assertIn("plan_round put job 0 on GPU type 'a100' (str) in round 0; the cluster's "
                      "GPU types are p100=2,v100=2 (state.gpu_types)",
                      self.refused("UnknownTypeInPlan", "plan_round"))

    def test_plan_over_a_types_gpus(self):
        message = self.refused("AllOnV100", "plan_round")
        match = re.search(r"plan_round asked for (\d+) GPUs of type v100 in round (\d+); the "
                          r"cluster has 2 of type v100 \(job (\d+), (\d) GPUs, is the first that "
                          r"does not fit\)", message)
        self.assertIsNotNone(match, message)
        self.assertGreater(int(match.group(1)), 2)

    def test_plan_without_a_gpu_type(self):
        self.assertIn("plan_round named job 0 without a GPU type in round 0; on a cluster of "
                      "several GPU types each entry is a pair (job id, GPU type)",
                      self.refused("BareIdOnSeveralTypes", "plan_round"))

    def test_allocation_without_gpu_types(self):
        self.assertIn("compute_allocation returned 0.5 (float) for job 0 in round 0; on a cluster "
                      "of several GPU types (p100=2,v100=2) a job's allocation is {GPU type: "
                      "time fraction}",
                      self.refused("BareFractionOnSeveralTypes", "compute_allocation"))

    def test_allocation_unknown_gpu_type(self):
        self.assertIn("compute_allocation returned the GPU type 'a100' (str) for job 0 in round "
                      "0; the cluster's GPU types are p100=2,v100=2",
                      self.refused("UnknownTypeInAllocation", "compute_allocation"))

    def test_allocation_above_one_on_a_type(self):
        self.assertIn("compute_allocation gave job 0 the time fraction 2 on GPU type v100 in round "
                      "0; a time fraction is a number in [0, 1]",
                      self.refused("FractionAboveOneOnAType", "compute_allocation"))


if __name__ == "__main__":
    skip_unless_present()
    unittest.main(verbosity=2)
