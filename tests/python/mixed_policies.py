"""Python round policies for a cluster of several GPU types (tests/python/test_mixed_cluster.py,
docs/python.md §3). Each keeps what it saw and decided in class attributes, which the test reads
after the run (the engine builds the instance from the class)."""


class FastestFreeType:
    """plan_round: least attained service first, each job on its fastest type that has room; it
    records every round's view (the GPU types, each job's per-type throughputs and previous round)
    and plan."""

    rounds = {}  # round index -> {"gpu_types", "num_gpus", "jobs": {id: view fields}, "plan"}

    def __init__(self):
        type(self).rounds = {}

    def plan_round(self, state):
        free = dict(state.gpu_types)
        jobs = {}
        plan = []
        for job in sorted(state.jobs, key=lambda j: (j.run_time_so_far_s, j.id)):
            speeds = job.throughput_by_type_steps_per_s
            jobs[job.id] = dict(scale_factor=job.scale_factor, model=job.spec.model,
                                batch_size=job.batch_size,
                                initial_batch_size=job.spec.initial_batch_size,
                                throughput_steps_per_s=job.throughput_steps_per_s,
                                by_type=dict(speeds),
                                previous_type=job.previous_round_gpu_type,
                                previous_gpus=job.previous_round_gpus)
            for gpu_type in sorted(free, key=lambda t: (-speeds[t], t)):
                if speeds[gpu_type] > 0 and job.scale_factor <= free[gpu_type]:
                    plan.append((job.id, gpu_type))
                    free[gpu_type] -= job.scale_factor
                    break
        type(self).rounds[state.round_index] = dict(
            gpu_types=dict(state.gpu_types), num_gpus=state.num_gpus, jobs=jobs, plan=plan)
        return plan


class OnType:
    """compute_allocation: every active job x = 1 on the GPU type `gpu_type` (0 on the others).
    Without skip_nonpositive_priority the Gavel mechanism would back-fill the other type's free
    GPUs with these jobs at priority 0 (docs/mechanism.md §7.7); with it they never run there."""

    skip_nonpositive_priority = True

    def __init__(self, gpu_type):
        self.gpu_type = gpu_type

    def compute_allocation(self, state):
        return {job.id: {self.gpu_type: 1.0} for job in state.jobs}


class SplitByType:
    """compute_allocation: every active job an equal share of each type, x_ik = 1 / (types · n)."""

    def compute_allocation(self, state):
        share = 1.0 / (len(state.gpu_types) * len(state.jobs))
        return {job.id: {t: share for t in state.gpu_types} for job in state.jobs}


# One mistake each on a cluster of several types, refused by name.


class UnknownTypeInPlan:
    def plan_round(self, state):
        return [(state.jobs[0].id, "a100")]


class AllOnV100:
    """plan_round: every active job on v100 (more than its GPUs once enough have arrived)."""

    def plan_round(self, state):
        if sum(job.scale_factor for job in state.jobs) <= state.gpu_types["v100"]:
            return [(state.jobs[0].id, "v100")]
        return [(job.id, "v100") for job in state.jobs]


class BareIdOnSeveralTypes:
    def plan_round(self, state):
        return [state.jobs[0].id]


class BareFractionOnSeveralTypes:
    def compute_allocation(self, state):
        return {job.id: 0.5 for job in state.jobs}


class UnknownTypeInAllocation:
    def compute_allocation(self, state):
        return {state.jobs[0].id: {"a100": 1.0}}


class FractionAboveOneOnAType:
    def compute_allocation(self, state):
        return {state.jobs[0].id: {"v100": 2.0}}
