#!/usr/bin/env python3
"""Sweeps a Python policy against two C++ baselines and plots average JCT and makespan.

    PYTHONPATH=build/release/python:examples python3 examples/sweep_and_plot.py \
        --adaptsim build/release/src/app/adaptsim --out /tmp/las [--data ../shared/data]

Writes a sweep spec (Gandiva-Fair, Gavel max-min fairness, and the Python least-attained-service
policy of examples/adaptsim_examples/ on 16, 32 and 64 GPUs, the 120-job reference trace with the
tacc throughputs), runs `adaptsim sweep` (add --mpi N to run it under `mpirun -n N`), reads the
results file with adaptsim.read and draws OUT/las.png.
"""

import argparse
import os
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import adaptsim  # noqa: E402

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACE = ("shockwave/traces/"
         "120_0.2_5_100_40_25_0,0.5,0.5_0.6,0.3,0.09,0.01_multigpu_dynamic.trace")
THROUGHPUTS = "shockwave/throughputs/tacc_throughputs.json"
GPUS = [16, 32, 64]
LAS = "py:adaptsim_examples.least_attained_service:LeastAttainedService"
POLICIES = ["gandiva_fair", "max_min_fairness", LAS]


def label(policy):
    """The papers' name of a registered policy (adaptsim.display_name, as adaptsim's own
    figures), and a name of our own for the Python policy."""
    return "LAS (Python)" if policy == LAS else adaptsim.display_name(policy)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adaptsim", default="adaptsim", help="the adaptsim command line")
    parser.add_argument("--out", required=True, help="folder for the trace, spec, results, PNG")
    parser.add_argument("--mpi", type=int, default=0, help="run the sweep under mpirun -n N")
    parser.add_argument("--data", default=os.environ.get("ADAPTSIM_DATA") or
                        os.path.join(CHECKOUT, "..", "shared", "data"),
                        help="reference data folder (default $ADAPTSIM_DATA or ../shared/data)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    trace = os.path.abspath(os.path.join(args.data, TRACE))
    throughputs = os.path.abspath(os.path.join(args.data, THROUGHPUTS))
    spec = os.path.join(args.out, "sweep.toml")
    policies = ", ".join(f'"{p}"' for p in POLICIES)
    with open(spec, "w") as f:
        f.write(f'name = "las"\ntraces = ["{trace}"]\n'
                f'throughputs = "{throughputs}"\npolicies = [{policies}]\n'
                f"num_gpus = {GPUS}\nseeds = [0]\ndeadline_factor = 1.5\n")
    results = os.path.join(args.out, "las.h5")
    command = [args.adaptsim, "sweep", spec, "--out", results]
    if args.mpi:
        command = ["mpirun", "-n", str(args.mpi)] + command
    subprocess.run(command, check=True)

    summary, _ = adaptsim.read(results)
    summary = summary[summary["status"] == "ok"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    # The metrics' axis labels as adaptsim's own figures write them (adaptsim.labels()).
    axis = {m["name"]: m["axis"] for m in adaptsim.labels()["metric"]}
    metrics = ["mean_jct_s", "makespan_s"]  # drawn in hours, as labelled
    for policy, rows in summary.groupby("policy"):
        rows = rows.sort_values("num_gpus")
        for ax, metric in zip(axes, metrics):
            ax.plot(rows["num_gpus"], rows[metric] / 3600, marker="o", label=label(policy))
    for ax, metric in zip(axes, metrics):
        ax.set_xlabel("GPUs")
        ax.set_ylabel(axis[metric])
        ax.set_xticks(GPUS)
        ax.grid(alpha=0.3)
    axes[0].legend()
    fig.suptitle("120-job Shockwave trace (tacc throughputs), round engine")
    fig.tight_layout()
    png = os.path.join(args.out, "las.png")
    fig.savefig(png, dpi=120)
    print(summary[["policy", "num_gpus", "mean_jct_s", "makespan_s"]].to_string(index=False))
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
