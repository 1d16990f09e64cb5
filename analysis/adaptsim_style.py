"""One look for every adaptsim figure: names, colours, markers and metric texts, figure
defaults and file output.

Display names, colours, markers, the metrics and their texts come from analysis/labels.toml, the
one declaration that `adaptsim report` and the sweep's closing table also use (the build compiles
it into the binary; docs/analysis.md). Option labels and the planning window in minutes are
rendered by `adaptsim report --format json` (adaptsim_tables.py), not here. Each policy keeps its
colour and marker in every figure.
"""
import os
import tomllib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.text  # noqa: E402

LABELS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "labels.toml")
with open(LABELS_PATH, "rb") as _f:
    LABELS = tomllib.load(_f)

# Registry name -> display name, in legend order.
POLICY_DISPLAY = {name: p["display"] for p in LABELS["policy"] for name in p["names"]}
# Display name -> (colour, marker).
POLICY_STYLE = {p["display"]: (p["colour"], p["marker"]) for p in LABELS["policy"]}
UNLISTED_STYLE = (LABELS["unlisted"]["colour"], LABELS["unlisted"]["marker"])

# The summary metrics of every comparison figure, in panel order, and their texts.
METRICS = [m["name"] for m in LABELS["metric"]]
METRIC_LABELS = {m["name"]: m["axis"] for m in LABELS["metric"]}    # axis label with units
METRIC_TITLES = {m["name"]: m["title"] for m in LABELS["metric"]}   # panel title
METRIC_NAMES = {m["name"]: m["text"] for m in LABELS["metric"]}     # inside a sentence or row
# Seconds-valued metrics drawn in hours.
METRIC_SCALE = {m["name"]: 1 / 3600 for m in LABELS["metric"] if m.get("hours")}
# Quantities only some figures show (labels.toml [[figure_metric]]: the Pollux fairness-knob
# figure's p99 JCT and GPU-hours per job) join the texts above; METRICS stays the comparison panels.
for _m in LABELS.get("figure_metric", []):
    METRIC_LABELS[_m["name"]] = _m["axis"]
    METRIC_TITLES[_m["name"]] = _m["title"]
    METRIC_NAMES[_m["name"]] = _m["text"]
    if _m.get("hours"):
        METRIC_SCALE[_m["name"]] = 1 / 3600
RHO_COLUMN = LABELS["rho"]["column"]  # the per-job ρ of the ρ CDF (a jobs-table column)
RHO_AXIS = LABELS["rho"]["axis"]

MAX_TEXT = 40  # longest text element of a figure (tests check it)


def display_name(policy):
    """Registry name -> display name (unknown names unchanged)."""
    return POLICY_DISPLAY.get(policy, policy)


def paper_name(policy, paper):
    """The name `paper`'s own figures give a registry name (labels.toml [paper_names.<paper>]:
    ("max_min_fairness", "gavel") -> "LAS"), else its display name."""
    return LABELS.get("paper_names", {}).get(paper, {}).get(policy, display_name(policy))


def policy_rank(display):
    """Sort key of a display name: the order of labels.toml, then alphabetical."""
    names = [p["display"] for p in LABELS["policy"]]
    return (names.index(display), display) if display in names else (len(names), display)


def style(display):
    """(colour, marker) of a policy given by display name (or a label that starts with it)."""
    return POLICY_STYLE.get(display.split(" (")[0], UNLISTED_STYLE)


def number(value):
    """A number in a figure's own text (loads, intervals, tolerances): %g, without a trailing
    '.0' and with 1e-03 written 1e-3, as `adaptsim report` writes numbers."""
    text = f"{value:g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text


def option_axis(option):
    """The axis label of a policy option drawn on an x axis (labels.toml's `axis`, default: the
    option's name): "interval_s" -> "scheduling interval (min)"."""
    return LABELS["option"].get(option, {}).get("axis", option)


def scenario_label(num_jobs, num_gpus):
    """'120 jobs · 32 GPUs' (labels.toml's scenario label; numbers or already joined text)."""
    def text(v):
        return v if isinstance(v, str) else str(int(v))
    return LABELS["scenario"]["label"].format(jobs=text(num_jobs), gpus=text(num_gpus))


def apply_style():
    """Paper-figure defaults: readable fonts at column width, light grid, no top/right spines."""
    plt.rcParams.update({
        "font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9, "legend.fontsize": 8,
        "xtick.labelsize": 8, "ytick.labelsize": 8, "axes.spines.top": False,
        "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3,
        "savefig.dpi": 200, "figure.dpi": 100, "pdf.fonttype": 42,
        "axes.formatter.useoffset": False,
    })


def texts(fig):
    """Every non-empty text element of a figure (titles, labels, ticks, legend entries)."""
    return [t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]


def check_texts(fig):
    """Raises ValueError when a text element contains '{' or is longer than MAX_TEXT."""
    for text in texts(fig):
        if "{" in text or len(text) > MAX_TEXT:
            raise ValueError(f"figure text {text!r}: contains '{{' or exceeds {MAX_TEXT} chars")


def save(fig, data, out, name):
    """Writes out/name.{png,pdf} and out/name.csv (the plotted numbers); closes the figure."""
    os.makedirs(out, exist_ok=True)
    for ext in ("png", "pdf"):
        fig.savefig(os.path.join(out, f"{name}.{ext}"), bbox_inches="tight")
    data.to_csv(os.path.join(out, f"{name}.csv"), index=False, float_format="%.17g")
    plt.close(fig)
