"""Tiresias, a Python port of the C++ interval-engine policy tiresias.

Source: the Pollux artifact's `simulator/tiresias.py:8-83` (docs/pollux.md §4.5), as
src/policies/pollux/tiresias.cpp: two-queue discretised least-attained-service. A job is demoted
from queue 0 to queue 1 once executed_time · num_replicas reaches 16 GPU-hours (integer seconds, as
the artifact); starvation handling is off. Every interval the jobs are admitted greedily in queue
order (queue 0 in arrival order, then queue 1 in demotion order) while their workload's num_replicas
GPUs fit; a running job that no longer fits is preempted. A newly admitted job takes its GPUs one
node at a time from the node with the most free GPUs (ties: lowest node id, as
collections.Counter.most_common). Each job runs at its workload's batch size: the class has no
choose_batch, so the engine applies that rule (the artifact's "+TunedJobs", simulator.py:76-81).
"""

QUEUE_THRESHOLD_GPU_S = 3600 * 16


class _Counters:
    """A job's Tiresias clocks, integer seconds (tiresias.py:19-61)."""

    __slots__ = ("running", "last_check", "executed", "pending", "last_pending")

    def __init__(self):
        self.running = False
        self.last_check = 0
        self.executed = 0
        self.pending = 0
        self.last_pending = 0


def take_most_free_gpus(free_gpus, num_replicas):
    """Takes num_replicas GPUs from free_gpus ({node id: free GPUs}, ascending node ids), each
    time from the node with the most free GPUs (lowest id among ties); returns a node id per
    replica."""
    nodes = []
    while len(nodes) < num_replicas:
        node = max(free_gpus, key=free_gpus.get)  # first maximum = lowest node id
        take = min(free_gpus[node], num_replicas - len(nodes))
        if take <= 0:
            raise RuntimeError(f"no free GPU left for {num_replicas} replicas")
        nodes += [node] * take
        free_gpus[node] -= take
    return nodes


class Tiresias:
    """Tiresias 2-queue LAS (Pollux artifact), Python port on the interval engine."""

    def __init__(self):
        self.queue_0 = []  # job ids, arrival order
        self.queue_1 = []  # job ids, demotion order
        self.counters = {}  # job id -> _Counters, active jobs only

    def _update_queues(self, cluster, event_time):
        active = {job.id for job in cluster.jobs}
        self.queue_0 = [i for i in self.queue_0 if i in active]
        self.queue_1 = [i for i in self.queue_1 if i in active]
        self.counters = {i: c for i, c in self.counters.items() if i in active}
        for job in cluster.jobs:
            if job.id not in self.counters:
                self.counters[job.id] = _Counters()
                self.queue_0.append(job.id)
        for job in cluster.jobs:
            c = self.counters[job.id]
            elapsed = event_time - c.last_check
            c.last_check = event_time
            if c.running:
                c.executed += elapsed
                if (job.id in self.queue_0
                        and c.executed * job.spec.num_replicas >= QUEUE_THRESHOLD_GPU_S):
                    self.queue_0.remove(job.id)
                    self.queue_1.append(job.id)
            else:
                c.pending += elapsed
                if c.executed > 0:
                    c.last_pending += elapsed

    def optimize(self, cluster):
        """cluster: adaptsim.IntervalClusterView -> {job id: [node id per replica]}."""
        self._update_queues(cluster, int(cluster.now_s))
        jobs = {job.id: job for job in cluster.jobs}
        allocations = {job.id: job.allocation for job in cluster.jobs if job.allocation}
        # Statuses: greedy admission in queue order (tiresias.py:63-71).
        free = cluster.num_nodes * cluster.gpus_per_node
        for queue in (self.queue_0, self.queue_1):
            for i in queue:
                replicas = jobs[i].spec.num_replicas
                self.counters[i].running = replicas <= free
                if replicas <= free:
                    free -= replicas
                else:
                    allocations.pop(i, None)
        # GPUs for the newly running jobs (tiresias.py:72-81).
        free_gpus = {node: cluster.gpus_per_node for node in range(cluster.num_nodes)}
        for nodes in allocations.values():
            for node in nodes:
                free_gpus[node] -= 1
        free_gpus = {node: n for node, n in free_gpus.items() if n > 0}
        for queue in (self.queue_0, self.queue_1):
            for i in queue:
                if self.counters[i].running and i not in allocations:
                    allocations[i] = take_most_free_gpus(free_gpus, jobs[i].spec.num_replicas)
        return allocations
