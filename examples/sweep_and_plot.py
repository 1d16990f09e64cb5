#!/usr/bin/env python3
"""Sweeps a Python policy against two C++ baselines and plots mean JCT and makespan.

    PYTHONPATH=build/release/python:examples python3 examples/sweep_and_plot.py \
        --adaptsim build/release/src/app/adaptsim --out /tmp/las

Generates a 60-job trace from the checkout's catalogue (data/catalog/v100.toml), writes a sweep
spec (Gandiva-Fair, Gavel max-min fairness, and the Python least-attained-service policy of
examples/adaptsim_examples/ on 8, 16 and 32 GPUs), runs `adaptsim sweep` (add --mpi N to run it
under `mpirun -n N`), reads the results file with adaptsim.read and draws OUT/las.png.
"""

import argparse
import os
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import adaptsim  # noqa: E402

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOG = os.path.join(CHECKOUT, "data", "catalog", "v100.toml")
LAS = "py:adaptsim_examples.least_attained_service:LeastAttainedService"
DISPLAY = {"gandiva_fair": "Gandiva-Fair", "max_min_fairness": "Gavel", LAS: "LAS (Python)"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adaptsim", default="adaptsim", help="the adaptsim command line")
    parser.add_argument("--out", required=True, help="folder for the trace, spec, results, PNG")
    parser.add_argument("--mpi", type=int, default=0, help="run the sweep under mpirun -n N")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    trace = adaptsim.generate_trace(os.path.join(args.out, "jobs.trace"), CATALOG, num_jobs=60,
                                    lam_s=120.0, seed=1, max_duration_h=2.0)
    spec = os.path.join(args.out, "sweep.toml")
    policies = ", ".join(f'"{p}"' for p in DISPLAY)
    with open(spec, "w") as f:
        f.write(f'name = "las"\ntraces = ["{os.path.abspath(trace)}"]\n'
                f'throughputs = "{CATALOG}"\npolicies = [{policies}]\n'
                f"num_gpus = [8, 16, 32]\nseeds = [0]\n")
    results = os.path.join(args.out, "las.h5")
    command = [args.adaptsim, "sweep", spec, "--out", results]
    if args.mpi:
        command = ["mpirun", "-n", str(args.mpi)] + command
    subprocess.run(command, check=True)

    summary, _ = adaptsim.read(results)
    summary = summary[summary["status"] == "ok"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    for policy, rows in summary.groupby("policy"):
        rows = rows.sort_values("num_gpus")
        label = DISPLAY.get(policy, policy)
        axes[0].plot(rows["num_gpus"], rows["mean_jct_s"] / 3600, marker="o", label=label)
        axes[1].plot(rows["num_gpus"], rows["makespan_s"] / 3600, marker="o", label=label)
    for ax, title in zip(axes, ["mean JCT (h)", "makespan (h)"]):
        ax.set_xlabel("GPUs")
        ax.set_ylabel(title)
        ax.set_xticks([8, 16, 32])
        ax.grid(alpha=0.3)
    axes[0].legend()
    fig.suptitle("60-job synthetic trace (v100 catalogue), round engine")
    fig.tight_layout()
    png = os.path.join(args.out, "las.png")
    fig.savefig(png, dpi=120)
    print(summary[["policy", "num_gpus", "mean_jct_s", "makespan_s"]].to_string(index=False))
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
