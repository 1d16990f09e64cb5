"""The display names and comparison metrics that analysis/labels.toml declares, for the figure
checks that recompute a figure's numbers straight from results files. labels.toml is their one
declaration; tests/test_labels.cpp and tests/python/test_labels.py check it against the papers'
names."""
import os
import tomllib

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis",
                      "labels.toml")
with open(SOURCE, "rb") as _f:
    _LABELS = tomllib.load(_f)

# Registry name -> display name.
DISPLAY = {name: p["display"] for p in _LABELS["policy"] for name in p["names"]}
# The summary metrics of every comparison figure, in panel order.
METRICS = [m["name"] for m in _LABELS["metric"]]


def policy_of(display):
    """The first registry name of a display name ("MST" -> "max_sum_throughput_perf")."""
    return next(name for name, shown in DISPLAY.items() if shown == display)
