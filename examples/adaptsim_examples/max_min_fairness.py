"""Gavel's max-min fairness ("LAS" baseline), a Python port of the C++ policy max_min_fairness.

Source: Gavel, `scheduler/policies/max_min_fairness.py:12-113`, one GPU type in closed form
(docs/policies.md §3.3). Throughputs are replaced by 1, so the LP is
    maximise t  s.t.  t <= s_i x_i / w_i,  sum_i s_i x_i <= C,  0 <= x_i <= 1,
with optimum t* = min(C / sum_i w_i, min_i s_i / w_i). Contended (C / sum w < min s_i / w_i):
x_i = w_i t* / s_i. Otherwise the optimal face is the segment x_i = l_i + theta (1 - l_i),
l_i = w_i t* / s_i, theta in [0, theta_max]; face_position picks theta = face_position * theta_max
(0.5 = the middle, the C++ default). The floating-point operations are those of
src/policies/gavel/max_min_fairness.cpp, so the allocation is bit-identical.
"""


class MaxMinFairness:
    """Gavel max-min fairness (Python port; option face_position in [0, 1], default 0.5)."""

    def __init__(self, face_position=0.5):
        if not 0.0 <= face_position <= 1.0:
            raise ValueError("face_position must be in [0, 1]")
        self.face_position = float(face_position)

    def compute_allocation(self, state):
        """state: adaptsim.ClusterState -> {job id: fraction of time to run, in [0, 1]}."""
        jobs = state.jobs
        if not jobs:
            return {}
        capacity = float(state.num_gpus)
        weight_sum = 0.0
        min_ratio = float("inf")
        for job in jobs:
            weight = job.spec.priority_weight
            weight_sum += weight
            min_ratio = min(min_ratio, job.scale_factor / weight)
        t_star = min(capacity / weight_sum, min_ratio)
        allocation = {}
        used = 0.0      # sum s_i l_i, GPUs
        headroom = 0.0  # sum s_i (1 - l_i), GPUs
        for job in jobs:
            lower = min(1.0, job.spec.priority_weight * t_star / job.scale_factor)
            allocation[job.id] = lower
            used += job.scale_factor * lower
            headroom += job.scale_factor * (1.0 - lower)
        contended = capacity / weight_sum < min_ratio
        if contended or headroom <= 0.0:
            return allocation
        theta_max = min(max((capacity - used) / headroom, 0.0), 1.0)
        theta = self.face_position * theta_max
        return {job_id: x + theta * (1.0 - x) for job_id, x in allocation.items()}
