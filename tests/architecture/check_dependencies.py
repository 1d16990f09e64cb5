#!/usr/bin/env python3
"""Checks adaptsim's include and link graph against the pipeline's stage order.

The stages and what each may use are documented in docs/architecture.md ("Stages and
boundaries"). Rules checked:

  1. Every public header include/adaptsim/<name>.hpp belongs to a stage (STAGE_OF_HEADER below; a
     new public header must be classified here).
  2. A source or header in src/<stage>/ may include
       - a public header of its own stage or of a stage it may use (ALLOWED), and
       - a private header of its own folder ("name.hpp", present in src/<stage>/);
     never another stage's private header ("other/name.hpp", or "name.hpp" of another folder).
     Other quoted includes are third-party headers (COIN-OR's "CbcModel.hpp").
  3. A public header may include public headers of its own stage or of stages it may use, and
     no private header.
  4. In src/CMakeLists.txt every adaptsim_<stage> library links only libraries of stages it
     may use.

Usage: check_dependencies.py SOURCE_DIR      checks the tree, lists every violation, exit 1
       check_dependencies.py --self-test     shows on synthetic trees that the check passes a
                                             clean tree and fails wrong-way includes and links
"""

import os
import re
import sys
import tempfile

# Stage -> stages whose public headers (and libraries) it may use. "policy_api" is the policy
# interface (adaptsim/{policy,cluster_state,interval_policy,view_fields}.hpp): the only place where policies
# and engines meet. "core" may be used by every stage.
ALLOWED = {
    "core": set(),
    "trace": {"core"},
    "workload": {"core", "trace"},
    "models": {"core", "trace", "workload"},
    "solvers": {"core"},
    "policy_api": {"core", "trace", "workload"},
    "policies": {"core", "trace", "workload", "models", "solvers", "policy_api"},
    "engine": {"core", "trace", "workload", "models", "policy_api"},
    "metrics": {"core"},
    "store": {"core"},
    "harness": {"core", "trace", "workload", "models", "solvers", "policy_api", "policies",
                "engine", "metrics", "store"},
    # python: Python classes as round- and interval-engine policies (the "py" policy scheme;
    # models for the rigid batch rule of an interval policy without choose_batch); used by app
    # and the Python module (python/) only, so no core stage depends on an interpreter.
    "python": {"core", "trace", "workload", "models", "policy_api", "policies"},
    "app": {"core", "trace", "workload", "models", "solvers", "policy_api", "policies", "engine",
            "metrics", "store", "harness", "python"},
}

STAGE_OF_HEADER = {
    # core: the vocabulary every stage shares
    "job": "core", "error": "core", "result": "core", "result_fields": "core",
    "task_status": "core",
    "python_round": "core",
    "build_info": "core",
    "text_lines": "core", "utc_timestamp": "core",
    # trace: the .trace file format
    "trace": "trace",
    # workload: jobs' models, profiles, adaptation, throughput tables, Pollux workloads
    "workload": "workload", "adaptation": "workload", "profile": "workload",
    "throughput": "workload", "catalogue_file": "workload", "pollux_application": "workload",
    "pollux_workload": "workload", "trace_generator": "workload",
    "production_log": "workload", "production_trace": "workload",
    # models: fitted throughput and goodput models
    "catalogue_throughput": "models", "pollux_goodput": "models", "pollux_throughput": "models",
    "shockwave_forecaster": "models", "throughput_fit": "models",
    # solvers: LP/MILP back ends of the policies
    "cbc_solver": "solvers", "clp_solver": "solvers", "milp_problem": "solvers",
    "lp_problem": "solvers", "window_structured": "solvers", "window_layout": "solvers",
    # the policy interface shared by policies and engines
    "policy": "policy_api", "cluster_state": "policy_api", "interval_policy": "policy_api",
    "view_fields": "policy_api",
    "registry": "policies",
    "simulation": "engine", "simulator": "engine", "interval_simulator": "engine",
    "metrics": "metrics",
    "store": "store", "result_detail": "store",
    "harness": "harness", "task": "harness", "sweep": "harness", "results_analysis": "harness",
    "reproduce": "harness", "production_source": "harness",
    "python_policy": "python",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LINK = re.compile(r"target_link_libraries\(\s*adaptsim_(\w+)([^)]*)\)", re.S)
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc")


def stage_of_public(path):
    """Stage of "adaptsim/name.hpp", or None when unclassified."""
    name = os.path.splitext(os.path.basename(path))[0]
    return STAGE_OF_HEADER.get(name)


def may_use(stage, other):
    return other == stage or other in ALLOWED.get(stage, set())


def check_file(path, stage, private_dir, errors):
    """Rule 2 (private_dir set: a file of src/<stage>) or rule 3 (public header)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for included in INCLUDE.findall(text):
        if included.startswith("adaptsim/"):
            other = stage_of_public(included)
            if other is None:
                errors.append(f"{path}: includes unknown public header {included}")
            elif not may_use(stage, other):
                errors.append(f"{path}: stage '{stage}' includes {included} of stage '{other}' "
                              f"(allowed: {', '.join(sorted(ALLOWED[stage])) or 'none'})")
        elif private_dir is None:
            errors.append(f"{path}: public header includes private header \"{included}\"")
        elif "/" in included:
            if included.split("/")[0] in ALLOWED:
                errors.append(f"{path}: includes \"{included}\", not a private header of "
                              f"src/{stage}/ (use the public API in include/adaptsim/)")
        elif not os.path.exists(os.path.join(private_dir, included)) and any(
                os.path.exists(os.path.join(private_dir, "..", other, included))
                for other in ALLOWED):
            errors.append(f"{path}: includes \"{included}\", not a private header of "
                          f"src/{stage}/ (use the public API in include/adaptsim/)")
        # anything else in quotes is a third-party header (COIN-OR's "CbcModel.hpp")


def check_tree(root):
    """Returns the list of violations in the tree at `root`."""
    errors = []
    public_dir = os.path.join(root, "include", "adaptsim")
    for name in sorted(os.listdir(public_dir)):
        if not name.endswith(SOURCE_SUFFIXES):
            continue
        path = os.path.join(public_dir, name)
        stage = stage_of_public(name)
        if stage is None:
            errors.append(f"{path}: public header of no stage (add it to STAGE_OF_HEADER in "
                          f"tests/architecture/check_dependencies.py and docs/architecture.md)")
            continue
        check_file(path, stage, None, errors)
    src = os.path.join(root, "src")
    for stage in sorted(os.listdir(src)):
        folder = os.path.join(src, stage)
        if not os.path.isdir(folder):
            continue
        if stage not in ALLOWED:
            errors.append(f"{folder}: folder of no stage (add it to ALLOWED)")
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(SOURCE_SUFFIXES):
                check_file(os.path.join(folder, name), stage, folder, errors)
    cmake = os.path.join(src, "CMakeLists.txt")
    with open(cmake, encoding="utf-8") as f:
        text = re.sub(r"#[^\n]*", "", f.read())
    for stage, arguments in LINK.findall(text):
        for other in re.findall(r"\badaptsim_(\w+)", arguments):
            if other == "warnings":
                continue
            if other not in ALLOWED:
                errors.append(f"{cmake}: adaptsim_{stage} links unknown adaptsim_{other}")
            elif stage in ALLOWED and not may_use(stage, other):
                errors.append(f"{cmake}: adaptsim_{stage} links adaptsim_{other} (stage "
                              f"'{stage}' may not use '{other}')")
    return errors


def write(root, relative, text):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def self_test():
    """The check passes a clean synthetic tree and reports each kind of wrong-way dependency."""
    clean = {
        "include/adaptsim/result.hpp": "#pragma once\n",
        "include/adaptsim/store.hpp": '#include "adaptsim/result.hpp"\n',
        "include/adaptsim/simulator.hpp": '#include "adaptsim/result.hpp"\n',
        "src/engine/simulator.cpp": '#include "adaptsim/simulator.hpp"\n#include "placement.hpp"\n',
        "src/engine/placement.hpp": "#pragma once\n",
        "src/store/results_file.cpp": '#include "adaptsim/store.hpp"\n',
        "src/CMakeLists.txt": "target_link_libraries(adaptsim_store PUBLIC adaptsim_core)\n"
                              "target_link_libraries(adaptsim_engine PUBLIC adaptsim_core)\n",
    }
    wrong = {
        # the store includes an engine header (wrong way), and a private header of the engine
        "src/store/results_file.cpp": '#include "adaptsim/simulator.hpp"\n'
                                      '#include "engine/placement.hpp"\n',
        # a public header of the engine includes a harness header
        "include/adaptsim/simulator.hpp": '#include "adaptsim/task.hpp"\n',
        "include/adaptsim/task.hpp": "#pragma once\n",
        # an unclassified public header
        "include/adaptsim/" + "mystery.hpp": "#pragma once\n",
        # the store links the engine
        "src/CMakeLists.txt": "target_link_libraries(adaptsim_store PUBLIC adaptsim_engine)\n",
    }
    expected = [
        "stage 'store' includes adaptsim/simulator.hpp of stage 'engine'",
        'includes "engine/placement.hpp", not a private header of src/store/',
        "stage 'engine' includes adaptsim/task.hpp of stage 'harness'",
        "mystery.hpp: public header of no stage",
        "adaptsim_store links adaptsim_engine",
    ]
    failures = []
    with tempfile.TemporaryDirectory() as root:
        for relative, text in clean.items():
            write(root, relative, text)
        errors = check_tree(root)
        if errors:
            failures.append("clean tree reported: " + "; ".join(errors))
        for relative, text in wrong.items():
            write(root, relative, text)
        errors = check_tree(root)
        for message in expected:
            if not any(message in error for error in errors):
                failures.append(f"wrong-way tree: no violation '{message}' in {errors}")
    for failure in failures:
        print("self-test FAILED:", failure)
    if not failures:
        print(f"self-test passed: clean tree accepted, {len(expected)} wrong-way dependencies "
              "reported")
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    errors = check_tree(argv[1])
    for error in errors:
        print(error)
    if errors:
        print(f"{len(errors)} dependency violation(s); stage order: docs/architecture.md")
        return 1
    print("include and link graph follow the stage order")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
