#!/usr/bin/env python3
"""Fails on a citation of a file that does not exist in the repository.

  check_citations.py REPO_ROOT        scan the repository; exit 1 and list every bad citation
  check_citations.py --self-test      check that the rules reject synthetic bad citations and
                                      accept good ones (exit 1 if a rule does not fire)

This file itself is not scanned (its self-test holds synthetic bad citations).

What is a citation (in comments, docs, scripts, experiment specs; every text file below the
scanned folders):
  1. `docs/NAME.md` (optionally followed by `§N`, `§N.M`, and more `, §K` in the same list):
     the file must exist, and each cited section must be a numbered heading of that file
     (`## N. Title`, `### N.M Title`).
  2. A bare upper-case document name such as `README.md` or `NOTES.md`: it must exist at the
     repository root or in docs/, unless it is a file of a reference repository listed in
     EXTERNAL_DOCUMENTS below.
  3. A repository path: a token that starts with a top-level folder of this repository
     (src/, include/, tests/, docs/, analysis/, experiments/, bench/, scripts/, slurm/, data/,
     python/, fuzz/, examples/) and ends in a file extension must exist; `{a,b}` alternatives
     and `*` globs are expanded. A C++ file named relative to src/ (e.g. `engine/placement.hpp`,
     `policies/gavel/fifo.hpp`) must exist below src/.

Primary sources are not repository files and pass: paths inside the reference repositories are
written with their own prefixes and never start with one of this repository's folders
(`scheduler/scheduler.py:1728`, `scheduler/policies/fifo.py:12-194` of uw-mad-dash/shockwave;
`A:simulator/pollux.py`, `simulator/goodput.py` of petuum/adaptdl; `pymoo/...`; a token preceded
by `/`, `:` or `@`, as in `adaptdl@c793c70:simulator/README.md`, is part of an external path).
Data outside the repository (`shared/data/...`, `../shared/...`) is not checked either.
"""
import glob
import os
import re
import sys
import tempfile

SCAN = ["src", "include", "tests", "docs", "analysis", "experiments", "bench", "scripts", "slurm",
        "python", "fuzz", "examples", "README.md", "CMakeLists.txt"]
TEXT_EXT = {".cpp", ".hpp", ".h", ".c", ".py", ".md", ".toml", ".txt", ".cmake", ".sh", ".json",
            ".in", ""}
TOP = ["src", "include", "tests", "docs", "analysis", "experiments", "bench", "scripts", "slurm",
       "data", "python", "fuzz", "examples"]
# The folders of src/ (docs/architecture.md); a C++ file may be named relative to src/, and below
# policies/ also in a family's folder (`policies/gavel/fifo.hpp`).
SRC_STAGES = ["app", "engine", "metrics", "models", "policies", "solvers", "store", "trace",
              "workload", "core", "task", "sweep", "analysis", "python"]
# Documents of the reference repositories that adaptsim cites by their bare name.
EXTERNAL_DOCUMENTS = {
    "EXPERIMENTS.md": "uw-mad-dash/shockwave@8a44f4a (the reproduction guide)",
}

LEAD = r"(?<![A-Za-z0-9_./:@$}-])"
DOC_RE = re.compile(LEAD + r"docs/([A-Za-z0-9_-]+\.md)((?:[`*]*\s*§\s?[0-9][0-9.]*[0-9]?"
                    r"(?:\s*[,–-]\s*§\s?[0-9][0-9.]*[0-9]?)*)?)")
UPPER_RE = re.compile(LEAD + r"([A-Z][A-Z0-9_]+\.md)\b")
PATH_RE = re.compile(LEAD + r"((?:" + "|".join(TOP) + r")/[A-Za-z0-9_./*{},-]*\.[A-Za-z0-9{},]+)")
SRC_RE = re.compile(LEAD + r"((?:" + "|".join(SRC_STAGES) + r")/(?:(?<=policies/)[a-z_]+/)?"
                    r"[A-Za-z0-9_*{},-]+\.(?:cpp|hpp|h|\{[a-z,]+\}))\b")
SECTION_RE = re.compile(r"§\s?([0-9][0-9.]*[0-9]|[0-9])")
HEADING_RE = re.compile(r"^#{2,4}\s+([0-9]+(?:\.[0-9]+)*)\.?\s", re.M)


def expand_braces(token):
    m = re.search(r"\{([^{}]*)\}", token)
    if not m:
        return [token]
    out = []
    for alt in m.group(1).split(","):
        out += expand_braces(token[:m.start()] + alt + token[m.end():])
    return out


def exists(root, rel):
    rel = rel.rstrip(".,;:)")
    for candidate in expand_braces(rel):
        if any(ch in candidate for ch in "*?["):
            if glob.glob(os.path.join(root, candidate)):
                continue
            return False
        if not os.path.exists(os.path.join(root, candidate)):
            return False
    return True


def sections_of(root, doc, cache):
    if doc not in cache:
        try:
            text = open(os.path.join(root, "docs", doc), encoding="utf-8").read()
            cache[doc] = set(HEADING_RE.findall(text))
        except FileNotFoundError:
            cache[doc] = None
    return cache[doc]


def check_text(root, rel, text, cache):
    errors = []
    for lineno, line in enumerate(text.splitlines(), 1):
        where = f"{rel}:{lineno}"
        for m in DOC_RE.finditer(line):
            doc = m.group(1)
            sections = sections_of(root, doc, cache)
            if sections is None:
                errors.append(f"{where}: cites docs/{doc}, which does not exist")
                continue
            for sec in SECTION_RE.findall(m.group(2) or ""):
                if sec not in sections:
                    errors.append(f"{where}: cites docs/{doc} §{sec}, which has no such "
                                  "numbered section")
        for m in UPPER_RE.finditer(line):
            name = m.group(1)
            if name in EXTERNAL_DOCUMENTS:
                continue
            if not (os.path.exists(os.path.join(root, name)) or
                    os.path.exists(os.path.join(root, "docs", name))):
                errors.append(f"{where}: cites {name}, which is not in the repository")
        for m in PATH_RE.finditer(line):
            token = m.group(1)
            # python/ is a top-level folder and a folder of src/ (the python stage)
            below_src = token.split("/")[0] in SRC_STAGES and exists(os.path.join(root, "src"),
                                                                      token)
            if not exists(root, token) and not below_src:
                errors.append(f"{where}: cites {token}, which does not exist")
        for m in SRC_RE.finditer(line):
            token = m.group(1)
            if not exists(os.path.join(root, "src"), token):
                errors.append(f"{where}: cites {token} (below src/), which does not exist")
    return errors


def scan(root):
    errors = []
    cache = {}
    for entry in SCAN:
        full = os.path.join(root, entry)
        paths = [full] if os.path.isfile(full) else []
        for base, dirs, names in os.walk(full):
            dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
            paths += [os.path.join(base, n) for n in names
                      if os.path.splitext(n)[1] in TEXT_EXT]
        for path in sorted(paths):
            if os.path.abspath(path) == os.path.abspath(__file__):
                continue  # its self-test cases are synthetic citations
            try:
                text = open(path, encoding="utf-8").read()
            except (UnicodeDecodeError, OSError):
                continue
            errors += check_text(root, os.path.relpath(path, root), text, cache)
    return errors


def self_test():
    """Each rule must reject its bad citation and accept the matching good one."""
    cases = [  # (text in src/x.cpp, must fail)
        ("// (docs/guide.md §2)", False),
        ("// (docs/guide.md §2.1, §3)", True),   # no §3
        ("// (docs/guide.md §2.1)", False),
        ("// (docs/missing.md §1)", True),
        ("// (NOTES.md §5)", True),                # a document outside the repository
        ("// see README.md", False),
        ("// (`EXPERIMENTS.md:44` of uw-mad-dash/shockwave)", False),
        ("// src/engine/gone.cpp", True),
        ("// src/engine/{here,gone}.cpp", True),
        ("// src/engine/here.cpp and include/adaptsim/*.hpp", False),
        ("// policies/fifo.hpp", True),            # below src/, missing
        ("// engine/here.cpp", False),
        ("// policies/gavel/here.cpp", False),     # a policy family's folder
        ("// policies/gavel/gone.cpp", True),
        ("// python/src/module.cpp", True),        # the top-level python/ folder, missing
        ("// fuzz/gone.cpp", True),
        ("// `scheduler/policies/fifo.py:12-194`, `policies/shockwave.py:8-10`", False),
        ("// A:simulator/pollux.py, adaptdl@c793c70:simulator/README.md", False),
        ("// ../shared/data/golden/shockwave_tacc32/README.md", False),
    ]
    failures = 0
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs"))
        os.makedirs(os.path.join(root, "src", "engine"))
        os.makedirs(os.path.join(root, "src", "policies", "gavel"))
        os.makedirs(os.path.join(root, "include", "adaptsim"))
        open(os.path.join(root, "docs", "guide.md"), "w").write(
            "# Guide\n\n## 2. Two\n\n### 2.1 Two one\n")
        open(os.path.join(root, "README.md"), "w").write("# r\n")
        open(os.path.join(root, "src", "engine", "here.cpp"), "w").write("\n")
        open(os.path.join(root, "src", "policies", "gavel", "here.cpp"), "w").write("\n")
        open(os.path.join(root, "include", "adaptsim", "a.hpp"), "w").write("\n")
        for text, must_fail in cases:
            errors = check_text(root, "src/x.cpp", text, {})
            if bool(errors) != must_fail:
                failures += 1
                print(f"SELF-TEST FAILED: {text!r}: expected "
                      f"{'an error' if must_fail else 'no error'}, got {errors}")
    print(f"self-test: {len(cases) - failures} of {len(cases)} cases behave as required")
    return 1 if failures else 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    errors = scan(argv[1])
    for error in errors:
        print(error)
    print(f"{len(errors)} citation(s) of missing files or sections")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
