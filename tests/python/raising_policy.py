"""Python policies for the tests (tests/python/test_module.py, test_ports.py): one that raises in
its second decision, one that over-subscribes a node, and Tiresias with Python hooks."""


class RaisesOnSecondCall:
    """Equal shares; raises RuntimeError on the second compute_allocation call."""

    def __init__(self, fail_at=2):
        self.calls = 0
        self.fail_at = fail_at

    def compute_allocation(self, state):
        self.calls += 1
        if self.calls >= self.fail_at:
            explode_in_policy(self.calls)
        return {job.id: 1.0 for job in state.jobs}


def explode_in_policy(calls):
    raise RuntimeError(f"policy gave up after {calls} calls")


class OversubscribesANode:
    """An interval policy that puts every job's replicas on node 0 (too many for one node)."""

    def optimize(self, cluster):
        return {job.id: [0] * job.spec.num_replicas for job in cluster.jobs}


class TiresiasWithPythonHooks:
    """The Tiresias port with choose_batch, observe and statistics written in Python: the batch
    rule is the engine's default one (`A:simulator/simulator.py:76-81`, models::FixedBatch), so
    the results must equal the C++ tiresias; observe counts the measurements."""

    def __init__(self):
        from adaptsim_examples.tiresias import Tiresias
        self.tiresias = Tiresias()
        self.observations = 0
        self.batch_calls = 0

    def optimize(self, cluster):
        return self.tiresias.optimize(cluster)

    def choose_batch(self, job, placement):
        import math
        self.batch_calls += 1
        eps = 1e-8
        replicas = sum(placement)
        target = job.spec.batch_size
        local = math.ceil(target / replicas - eps)
        s = math.ceil(local / job.app.max_local_bsz - eps) - 1
        if replicas == 1 and target > job.app.init_batch_size:
            s = max(1, s)
        return math.ceil(local / (s + 1) - eps), s

    def observe(self, job, observation):
        assert observation.step_time_s > 0 and observation.num_replicas == len(job.allocation)
        self.observations += 1

    def statistics(self):
        return {"observations": self.observations, "batch_calls": self.batch_calls}
