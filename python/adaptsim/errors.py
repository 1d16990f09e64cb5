"""Exceptions raised by adaptsim (the C++ core's errors as Python classes)."""


class InputError(ValueError):
    """Bad input: a malformed trace line, an unknown option, a missing file.

    Attributes:
        file:  the file (or context such as "policy_options") the error is about.
        line:  1-based line number, 0 = the whole file.
        field: the field or option, "" = none.
    str(error) reads "FILE:LINE: field 'FIELD': MESSAGE", as the command line prints it.
    """

    def __init__(self, message, file="", line=0, field=""):
        super().__init__(message)
        self.file = file
        self.line = line
        self.field = field


class PolicyError(InputError):
    """A policy did something the engine cannot run (docs/python.md §4).

    Raised when a Python policy raised (while being imported, built or asked for a decision; the
    message holds the traceback), returned a value of the wrong type, or defines more than one
    decision method, and when any policy's decision cannot be honoured: more GPUs than the
    cluster has, a job that is not active or named twice, a time fraction outside [0, 1], NaN or
    infinite, a node id outside the cluster, a node over its GPUs. str(error) names the policy,
    the method, the round (or the simulated time) and the numbers:
    "policy 'py:mine:Greedy': plan_round asked for 40 GPUs in round 12; the cluster has 32 ...".

    Attributes (besides InputError's, whose `file` is the policy and `field` the method):
        policy: the policy's name ("py:MODULE:CLASS" or a registered name).
        method: "import", "options", "class", "compute_allocation", "plan_round", "optimize",
            "choose_batch", "observe" or "statistics".
    """

    @property
    def policy(self):
        return self.file

    @property
    def method(self):
        return self.field


class StoreError(RuntimeError):
    """An HDF5 results file cannot be read or written."""
