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
    """A Python policy raised while being imported, built or asked for a decision.

    The message holds the Python traceback; `field` names the method ("import", "options",
    "compute_allocation", "plan_round").
    """


class StoreError(RuntimeError):
    """An HDF5 results file cannot be read or written."""
