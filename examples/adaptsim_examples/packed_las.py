"""Packed least attained service on the interval engine: a new policy written in Python
(docs/python.md §5, where it is printed in full).

Every interval the jobs are taken in order of GPU-seconds received (ties: lower id), each with its
workload's num_replicas GPUs while they fit; a job keeps its nodes when they are still free,
otherwise it is packed on the nodes with the most free GPUs (ties: lower node id).
"""


class PackedLas:
    """Least attained GPU service first; each job gets its workload's GPUs, packed."""

    def __init__(self, max_jobs=None):
        self.max_jobs = max_jobs  # None = as many as fit

    def optimize(self, cluster):
        free = {node: cluster.gpus_per_node for node in range(cluster.num_nodes)}
        allocations = {}
        for job in sorted(cluster.jobs, key=lambda j: (j.attained_service_gpu_s, j.id)):
            if self.max_jobs is not None and len(allocations) == self.max_jobs:
                break
            need = job.spec.num_replicas
            if need > sum(free.values()):
                continue
            if job.allocation and len(job.allocation) == need and all(
                    free[n] >= job.allocation.count(n) for n in set(job.allocation)):
                nodes = job.allocation            # keep its GPUs: no restart
            else:
                nodes = []
                for node in sorted(free, key=lambda n: (-free[n], n)):
                    take = min(free[node], need - len(nodes))
                    nodes += [node] * take
                    if len(nodes) == need:
                        break
            for node in nodes:
                free[node] -= 1
            allocations[job.id] = nodes
        return allocations
