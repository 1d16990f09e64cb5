#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets that come from outside the repository.

Small excerpts of the reference data (``$ADAPTSIM_DATA``, else ``--data-default``) and of the
repository's own example files, one folder per target under ``--out``, plus the results files
written by ``--results-seeds`` (fuzz/make_results_seeds.cpp). Excerpts keep inputs short, so
that the fuzzer runs fast; the reference data is read at test time and never copied into the
repository. Missing reference data leaves those folders empty (with a note).

Usage: make_seeds.py --data-default DIR --out DIR --results-seeds BINARY
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def head(path, lines):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        out = []
        for i, line in enumerate(f):
            if i >= lines:
                break
            out.append(line)
    return "".join(out)


def write(folder, name, text):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


def throughputs_excerpt(path, entries):
    with open(path, encoding="utf-8") as f:
        table = json.load(f)
    excerpt = {}
    for worker, values in table.items():
        keys = list(values)[:entries if worker == "v100" else 2]
        # The isolated ("null") throughput and two co-located entries of each job type.
        excerpt[worker] = {k: dict(list(values[k].items())[:3]) if isinstance(values[k], dict)
                           else values[k] for k in keys}
    return json.dumps(excerpt, indent=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-default", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--results-seeds", required=True)
    args = parser.parse_args()
    data = os.environ.get("ADAPTSIM_DATA") or args.data_default
    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    targets = ["trace", "throughputs_json", "shockwave_config", "catalogue", "sweep_spec",
               "pollux_workload", "pollux_application", "philly_log", "itp_log", "results_hdf5",
               "results_fields", "shard_manifest"]
    for target in targets:
        os.makedirs(os.path.join(out, target), exist_ok=True)

    # Repository files: the built-in catalogue and the experiment specs.
    shutil.copy(os.path.join(REPO, "data", "catalog", "v100.toml"), os.path.join(out, "catalogue"))
    for spec in sorted(glob.glob(os.path.join(REPO, "experiments", "*.toml"))):
        shutil.copy(spec, os.path.join(out, "sweep_spec"))

    subprocess.run([args.results_seeds, os.path.join(out, "results_hdf5")], check=True)

    if not os.path.isdir(data):
        print(f"note: reference data not found ({data}): seeds from the repository only")
        return 0
    for path in sorted(glob.glob(os.path.join(data, "shockwave", "traces", "*.trace"))):
        write(os.path.join(out, "trace"), os.path.basename(path)[:40], head(path, 30))
    for path in sorted(glob.glob(os.path.join(data, "shockwave", "throughputs", "*.json"))):
        write(os.path.join(out, "throughputs_json"), os.path.basename(path),
              throughputs_excerpt(path, 24))
    for path in sorted(glob.glob(os.path.join(data, "shockwave", "configurations", "*.json"))):
        shutil.copy(path, os.path.join(out, "shockwave_config"))
    for path in sorted(glob.glob(os.path.join(data, "pollux", "workloads*", "workload-[12].csv"))):
        name = os.path.basename(os.path.dirname(path)) + "_" + os.path.basename(path)
        write(os.path.join(out, "pollux_workload"), name, head(path, 25))
    for app in sorted(glob.glob(os.path.join(data, "pollux", "traces", "*"))):
        sections = [head(os.path.join(app, "placements.csv"), 40),
                    head(os.path.join(app, "scalability.csv"), 25)]
        validation = sorted(glob.glob(os.path.join(app, "validation-*.csv")))[:2]
        for path in validation:
            bsz = os.path.basename(path)[len("validation-"):-len(".csv")]
            sections.append(bsz + "\n" + head(path, 12))
        write(os.path.join(out, "pollux_application"), os.path.basename(app),
              "%%\n".join(sections))
    philly = os.path.join(data, "production", "philly", "philly.csv")
    if os.path.isfile(philly):
        write(os.path.join(out, "philly_log"), "philly_head.csv", head(philly, 40))
    for path in sorted(glob.glob(os.path.join(data, "production", "ms-itp", "cluster0[1-3].csv"))):
        write(os.path.join(out, "itp_log"), os.path.basename(path), head(path, 30))
    print(f"seeds written to {out} from {data}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
