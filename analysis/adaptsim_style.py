"""One look for every adaptsim figure: display names, colours, markers, labels, file output.

The policy display names and option labels here are the Python half of a table whose C++ half is
src/analysis/display_names.cpp (`adaptsim report`); tests/test_display_names.cpp checks that both
agree. Colours: Paul Tol's colour-blind-safe "muted" scheme (https://personal.sron.nl/~pault/,
"Colour schemes and templates", Fig. 4) plus black and grey; each policy keeps its colour and
marker in every figure.
"""
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.text  # noqa: E402

# Registry name -> display name, in the order policies appear in legends and bar charts.
POLICY_DISPLAY = {
    "shockwave": "Shockwave",
    "min_total_duration": "OSSP",
    "finish_time_fairness": "Themis",
    "max_min_fairness": "Gavel",
    "allox": "AlloX",
    "max_sum_throughput_perf": "MST",
    "max_sum_throughput": "MST",
    "gandiva_fair": "Gandiva-Fair",
    "fifo": "FIFO",
    "pollux": "Pollux",
    "optimus": "Optimus",
    "tiresias": "Tiresias",
    "isolated": "Isolated",
    "isolated_plus": "Isolated+",
    "replay": "Replay",
}

# Display name -> (colour, marker).
POLICY_STYLE = {
    "Shockwave": ("#882255", "o"),
    "OSSP": ("#332288", "s"),
    "Themis": ("#88CCEE", "^"),
    "Gavel": ("#44AA99", "v"),
    "AlloX": ("#DDCC77", "D"),
    "MST": ("#999933", "P"),
    "Gandiva-Fair": ("#AA4499", "X"),
    "FIFO": ("#777777", "h"),
    "Pollux": ("#CC6677", "*"),
    "Optimus": ("#117733", "d"),
    "Tiresias": ("#000000", "<"),
    "Isolated": ("#BBBBBB", ">"),
    "Isolated+": ("#555555", "p"),
}

# Option -> label format. "{min}" is the option times the round length in minutes (a window
# given in rounds), "{v}" the value as %g, "{sec_min}" a value in seconds as minutes.
OPTION_LABELS = {
    "future_rounds": "window {min} min",
    "k": "k {v}",
    "lambda": "λ {v}",
    "interval_s": "interval {sec_min} min",
    "p": "p {v}",
    "face_position": "face {v}",
    "face_rule": "{s}",
    "alpha": "α {v}",
}

# Summary metric -> axis label with units.
METRIC_LABELS = {
    "makespan_s": "makespan (h)",
    "mean_jct_s": "average JCT (h)",
    "worst_ftf_rho": "worst FTF ρ",
    "unfair_fraction_1_05": "unfair fraction (ρ > 1.05)",
}
METRIC_TITLES = {
    "makespan_s": "Makespan",
    "mean_jct_s": "Average JCT",
    "worst_ftf_rho": "Worst FTF ρ",
    "unfair_fraction_1_05": "Unfair fraction",
}
# Summary metric -> name inside a sentence or table row.
METRIC_NAMES = {
    "makespan_s": "makespan",
    "mean_jct_s": "average JCT",
    "worst_ftf_rho": "worst FTF ρ",
    "unfair_fraction_1_05": "unfair fraction (ρ > 1.05)",
}
METRICS = list(METRIC_LABELS)
# Seconds-valued metrics are drawn in hours.
METRIC_SCALE = {"makespan_s": 1 / 3600, "mean_jct_s": 1 / 3600}

MAX_TEXT = 40  # longest text element of a figure (tests check it)


def display_name(policy):
    """Registry name -> display name (unknown names unchanged)."""
    return POLICY_DISPLAY.get(policy, policy)


def policy_rank(display):
    """Sort key of a display name: the order of POLICY_DISPLAY, then alphabetical."""
    names = list(dict.fromkeys(POLICY_DISPLAY.values()))
    return (names.index(display), display) if display in names else (len(names), display)


def style(display):
    """(colour, marker) of a policy given by display name (or a label that starts with it)."""
    base = display.split(" (")[0]
    return POLICY_STYLE.get(base, ("#777777", "o"))


def number(value):
    """A number as %g, without a trailing '.0' and with 1e-03 written 1e-3."""
    text = f"{value:g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text


def option_label(option, value, round_duration_s=120.0):
    """One policy option as a label: ('future_rounds', 20, 120) -> 'window 40 min'."""
    template = OPTION_LABELS.get(option, option + " {v}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return template.format(v=number(value), min=number(value * round_duration_s / 60),
                               sec_min=number(value / 60), s=number(value))
    text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    return template.format(v=text, min=text, sec_min=text, s=text)


def scenario_label(num_jobs, num_gpus):
    """'120 jobs · 32 GPUs' (from the task's own job count and cluster size)."""
    return f"{int(num_jobs)} jobs · {int(num_gpus)} GPUs"


def varied_options(df):
    """policy -> the option names whose value differs between that policy's tasks of one
    scenario (same trace and cluster size). An option that changes only with the scenario (e.g.
    Shockwave's per-cluster-size configuration) is part of the scenario, not of the label."""
    varied = {}
    for policy, group in df.groupby("policy"):
        values = {}
        for trace, gpus, text in zip(group.trace, group.num_gpus, group.policy_options):
            for key, value in (json.loads(text) if text else {}).items():
                values.setdefault((key, trace, int(gpus)), set()).add(
                    json.dumps(value, sort_keys=True))
        varied[policy] = sorted({key for (key, _, _), v in values.items() if len(v) > 1})
    return varied


def policy_label(policy, options_json, varied, round_duration_s=120.0, skip=()):
    """Display name, plus the options in `varied` (but not in `skip`) in parentheses."""
    options = json.loads(options_json) if options_json else {}
    parts = [option_label(k, options[k], round_duration_s) for k in varied if k in options
             and k not in skip]
    name = display_name(policy)
    return f"{name} ({', '.join(parts)})" if parts else name


def add_labels(df):
    """Adds `display`, `label` (display name + varied options), `scenario` (a key: trace stem,
    GPUs, round length, deadline factor) and `scenario_label` ('120 jobs · 32 GPUs', with the
    trace's file name appended when two scenarios would share a label) to a summary table."""
    df = df.copy()
    varied = varied_options(df)
    df["display"] = [display_name(p) for p in df.policy]
    df["label"] = [policy_label(p, o, varied.get(p, []), r) for p, o, r in
                   zip(df.policy, df.policy_options, df.round_duration_s)]
    stem = [os.path.splitext(os.path.basename(t))[0] for t in df.trace]
    df["trace_stem"] = stem
    df["scenario"] = [f"{s}|{g}|{number(r)}|{number(d)}" for s, g, r, d in
                      zip(stem, df.num_gpus, df.round_duration_s, df.deadline_factor)]
    # Interval-engine tasks (Pollux) share the round-engine tasks' scenario on the same trace.
    short = {}
    for key, jobs, gpus in zip(df.scenario, df.num_jobs, df.num_gpus):
        short.setdefault(scenario_label(jobs, gpus), set()).add(key.split("|")[0] + "|" + str(gpus))
    labels = []
    for key, jobs, gpus, s in zip(df.scenario, df.num_jobs, df.num_gpus, stem):
        label = scenario_label(jobs, gpus)
        labels.append(label if len(short[label]) == 1 else f"{label} · {s[:12]}")
    df["scenario_label"] = labels
    return df


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

