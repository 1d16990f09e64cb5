"""Policies that return what the engines cannot run, one mistake each (tests/python/test_module.py
checks that each is refused by name, docs/python.md §3 and §5). Each behaves in its first
decisions and makes its mistake in the decision `at` (0 = the first)."""


class _Round:
    def __init__(self, at=0):
        self.at = at
        self.calls = 0

    def bad(self):
        self.calls += 1
        return self.calls > self.at


class AllGpusTwice(_Round):
    """plan_round: every active job (more GPUs than the cluster has once enough have arrived)."""

    def plan_round(self, state):
        if sum(job.scale_factor for job in state.jobs) <= state.num_gpus:
            return [state.jobs[0].id]
        return [job.id for job in state.jobs]


class UnknownJob(_Round):
    def plan_round(self, state):
        return [state.num_trace_jobs + 7] if self.bad() else [state.jobs[0].id]


class SameJobTwice(_Round):
    def plan_round(self, state):
        job = state.jobs[0].id
        return [job, job] if self.bad() else [job]


class ReturnsNone(_Round):
    def plan_round(self, state):
        if not self.bad():
            return [state.jobs[0].id]
        # forgot to return


class FloatJobId(_Round):
    def plan_round(self, state):
        return [float(state.jobs[0].id)] if self.bad() else [state.jobs[0].id]


class BoolJobId(_Round):
    def plan_round(self, state):
        return [True] if self.bad() else [state.jobs[0].id]


class DictFromPlanRound(_Round):
    def plan_round(self, state):
        return {job.id: 1.0 for job in state.jobs}


class Fraction(_Round):
    """compute_allocation: equal shares, but `value` for the first job in decision `at`."""

    def __init__(self, value, at=0):
        super().__init__(at)
        self.value = value

    def compute_allocation(self, state):
        shares = {job.id: 1.0 / len(state.jobs) for job in state.jobs}
        if self.bad():
            shares[state.jobs[0].id] = self.value
        return shares


class FractionAboveOne(Fraction):
    def __init__(self):
        super().__init__(2.0)


class NegativeFraction(Fraction):
    def __init__(self):
        super().__init__(-0.5)


class NanFraction(Fraction):
    def __init__(self):
        super().__init__(float("nan"))


class InfiniteFraction(Fraction):
    def __init__(self):
        super().__init__(float("inf"))


class StringFraction(Fraction):
    def __init__(self):
        super().__init__("0.5")


class BoolFraction(Fraction):
    def __init__(self):
        super().__init__(True)


class FractionForUnknownJob(_Round):
    def compute_allocation(self, state):
        return {state.num_trace_jobs + 1: 0.5}


class ListFromComputeAllocation(_Round):
    def compute_allocation(self, state):
        return [job.id for job in state.jobs]


class BothMethods:
    """Defines both round methods: which one would run?"""

    def compute_allocation(self, state):
        return {job.id: 1.0 for job in state.jobs}

    def plan_round(self, state):
        return [state.jobs[0].id]


class NoMethod:
    """Defines no decision method."""

    def decide(self, state):
        return []


class BadOptions:
    """Raises in its constructor: a sweep refuses its spec up front."""

    def __init__(self, k=1):
        raise ValueError(f"k={k} is not supported")

    def plan_round(self, state):
        return []


class _Interval:
    """One job per node's GPUs, packed; subclasses spoil the result."""

    def allocate(self, cluster):
        result, node, free = {}, 0, cluster.gpus_per_node
        for job in cluster.jobs:
            if node >= cluster.num_nodes:
                break
            result[job.id] = [node]
            free -= 1
            if free == 0:
                node, free = node + 1, cluster.gpus_per_node
        return result


class IntervalNodeOverfull(_Interval):
    def optimize(self, cluster):
        return {job.id: [0] * (cluster.gpus_per_node + 1) for job in cluster.jobs[:1]}


class IntervalNodeOutside(_Interval):
    def optimize(self, cluster):
        return {cluster.jobs[0].id: [cluster.num_nodes]}


class IntervalUnknownJob(_Interval):
    def optimize(self, cluster):
        return {10_000: [0]}


class IntervalFloatNode(_Interval):
    def optimize(self, cluster):
        return {cluster.jobs[0].id: [0.0]}


class IntervalListResult(_Interval):
    def optimize(self, cluster):
        return [[0]]


class IntervalZeroBatch(_Interval):
    def optimize(self, cluster):
        return self.allocate(cluster)

    def choose_batch(self, job, placement):
        return 0, 0


class IntervalBatchNotInts(_Interval):
    def optimize(self, cluster):
        return self.allocate(cluster)

    def choose_batch(self, job, placement):
        return 32.0, 0
