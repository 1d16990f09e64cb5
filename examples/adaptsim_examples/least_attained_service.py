"""Least attained service (LAS), a policy written for adaptsim in Python.

Each round, run the jobs with the least attained service first: attained service is the GPU time a
job has received, run_time_so_far_s * scale_factor (GPU-seconds), as in Tiresias' discretised LAS
(Gu et al., NSDI'19, §4.1) without its queues. Jobs are packed greedily in that order (ties by
arrival, then id); a job that does not fit the free GPUs is skipped and smaller ones back-fill.
"""


class LeastAttainedService:
    """LAS: each round, the jobs with the least GPU-seconds received run first."""

    def __init__(self, weight_by_gpus=True):
        # weight_by_gpus: attained service in GPU-seconds (True) or in seconds (False).
        self.weight_by_gpus = bool(weight_by_gpus)

    def plan_round(self, state):
        """state: adaptsim.ClusterState -> ids of the jobs to run this round (fits num_gpus)."""
        def attained(job):
            gpus = job.scale_factor if self.weight_by_gpus else 1
            return (job.run_time_so_far_s * gpus, job.spec.arrival_time_s, job.id)

        free = state.num_gpus
        chosen = []
        for job in sorted(state.jobs, key=attained):
            if job.scale_factor <= free:
                chosen.append(job.id)
                free -= job.scale_factor
            if free == 0:
                break
        return chosen
