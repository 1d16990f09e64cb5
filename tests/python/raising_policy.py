"""A Python policy that raises in its second decision (for tests/python/test_module.py)."""


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
