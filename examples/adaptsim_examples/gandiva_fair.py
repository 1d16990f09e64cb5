"""Gandiva-Fair, a Python port of the C++ policy gandiva_fair.

Source: Gavel, `scheduler/policies/gandiva_fair_proportional.py:10-58` (docs/policies.md §3.6):
every job gets the same time share x = (C/m) / max(1, C/m) = min(1, C/m), C = GPUs, m = active
jobs, ignoring scale factors and throughputs. Same float operations as
src/policies/gavel/gandiva_fair.cpp.
"""


class GandivaFair:
    """Gandiva-Fair: equal time share min(1, G/m) per job (Python port)."""

    def compute_allocation(self, state):
        """state: adaptsim.ClusterState -> {job id: time fraction in [0, 1]}."""
        if not state.jobs:
            return {}
        share = state.num_gpus / len(state.jobs)
        x = share / max(1.0, share)
        return {job.id: x for job in state.jobs}
