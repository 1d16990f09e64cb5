#!/usr/bin/env python3
"""Checks adaptsim's include, import, link, process and data graph against the stage table.

The stages, their folders and libraries, what each may use and which public headers each owns
are declared once, in the stage table of docs/architecture.md ("Stages and boundaries"); the
processes a stage may start and the data files it reads from another stage's folder are
declared in the tables below it ("Processes", "Data files"). This script reads
both tables and the whole tree: every C++ file of src/ and python/src/, every public header of
include/adaptsim/, every Python file of python/adaptsim/ and analysis/, and every CMakeLists.txt
of src/ and python/. Rules:

  1. Every public header include/adaptsim/<name>.hpp belongs to exactly one stage, and every
     header the table names exists.
  2. Every folder of src/ (and python/src/) that holds C++ files is the folder of one stage.
  3. A file of stage S may include
       - a public header of S or of a stage S may use, and
       - a private header of its own folder ("name.hpp");
     it may include a private header of another stage T only when T's folder lies inside S's
     folder and S may use T (the policy table, src/policies/registry.cpp, includes its families'
     headers as "gavel/fifo.hpp"). Any other private header of another stage
     ("engine/placement.hpp", "../pollux/pollux.hpp") is a violation. Quoted includes found
     nowhere in the tree are third-party headers (COIN-OR's "CbcModel.hpp").
  4. A public header may include public headers of its own stage or of stages it may use, and
     no private header.
  5. In the CMakeLists.txt files of src/ and python/, the library (or program) of a stage links
     only libraries of stages it may use, and adaptsim_library(NAME FOLDER) builds each stage's
     library from the stage's folder.
  6. A Python file imports project modules (the `adaptsim` package, its extension module
     `_core`, the analysis scripts) only from its own stage or stages it may use.
  7. A file that starts a process (C++: posix_spawn, exec*, system, popen, fork; Python:
     subprocess, os.system, os.exec*, os.spawn*, os.popen) is declared in the process table with
     what it starts: a project script, which exists, which the file names, and whose stage is one
     the file's stage may use (the declared edge); or a command of the project's own program
     ("`adaptsim report`": the first word is the program of a stage, which the file names). A
     program's command line is its documented interface, used by scripts as by users, so such
     a call is not an edge of the stage graph (`adaptsim reproduce` hands the figure scripts its
     own binary). A declaration without a spawn fails.
  8. A file of one stage's folder that another stage reads as data (the labels the analysis
     compiles in) is declared in the data table with its readers; the file exists, each reader
     names it (in a file of its folder, or in the CMakeLists.txt that builds its library), and
     its stage is one each reader may use (the declared edge). A CMakeLists.txt that names a
     file of a stage's folder (`${PROJECT_SOURCE_DIR}/analysis/labels.toml`) that the data
     table does not declare fails.
  9. "May use" lists are exact and point one way: each entry is used by at least one include,
     import, link or declared process (a stale entry fails), and the stage graph has no cycle.

Usage: check_dependencies.py SOURCE_DIR      checks the tree, lists every violation, exit 1
       check_dependencies.py --self-test     shows on synthetic trees that the check passes a
                                             clean tree and fails each kind of violation
"""

import os
import re
import sys
import tempfile

ARCHITECTURE_DOC = os.path.join("docs", "architecture.md")
CXX_SUFFIXES = (".cpp", ".hpp", ".h", ".cc")
# C++ extension modules of the Python package: import name -> the library that builds it.
EXTENSION_MODULES = {"_core": "adaptsim_core_module"}
# Folders with C++ stages; python/ holds the extension module's sources in python/src.
CXX_ROOTS = ("src", os.path.join("python", "src"))

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LIBRARY = re.compile(r"adaptsim_library\(\s*(\w+)\s+([\w/]+)\s*\)")
LINK = re.compile(r"target_link_libraries\(\s*(\w+)([^)]*)\)", re.S)
LINKED = re.compile(r"\badaptsim_\w+")
SOURCE_FILE = re.compile(r"\$\{(?:PROJECT|CMAKE)_SOURCE_DIR\}/([\w./-]+\.\w+)")
CXX_SPAWN = re.compile(r"(?<![\w.:>])(?:std::|::)?(posix_spawnp?|exec[lv]p?e?|system|popen|v?fork)"
                       r"\s*\(")
PY_SPAWN = re.compile(r"\b(subprocess\.\w+|os\.(?:system|popen|exec\w*|spawn\w*|posix_spawn\w*))"
                      r"\s*\(")
PY_IMPORT = re.compile(r"^\s*import\s+([\w., ]+?)\s*(?:#.*)?$", re.M)
PY_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+import\s+\(?([\w., \n]+?)\)?\s*(?:#.*)?$",
                     re.M)


class Stages:
    """The stage table and process table of docs/architecture.md."""

    def __init__(self, root, errors):
        self.root = root
        self.allowed = {}  # stage -> set of stages it may use
        self.folder = {}  # stage -> folder relative to root ("" for header-only stages)
        self.library = {}  # stage -> library or program name ("" for none)
        self.header = {}  # public header name (without .hpp) -> stage
        self.spawns = {}  # file relative to root -> [script relative to root, or a command]
        self.data = {}  # data file relative to root -> [stages that read it]
        path = os.path.join(root, ARCHITECTURE_DOC)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as error:
            errors.append(f"{path}: cannot read the stage table: {error}")
            return
        rows = table_rows(text, ["stage", "folder", "library", "may use", "public headers"])
        if not rows:
            errors.append(f"{path}: no stage table (| stage | folder | library | may use | "
                          "public headers |)")
        for row in rows:
            stage = row[0]
            if stage in self.allowed:
                errors.append(f"{path}: stage '{stage}' declared twice")
            self.allowed[stage] = set(names(row[3]))
            self.folder[stage] = first_code(row[1])
            self.library[stage] = first_code(row[2])
            for header in names(row[4]):
                if header in self.header:
                    errors.append(f"{path}: public header '{header}' in stages "
                                  f"'{self.header[header]}' and '{stage}'")
                self.header[header] = stage
        for stage, used in self.allowed.items():
            for other in sorted(used - set(self.allowed)):
                errors.append(f"{path}: stage '{stage}' may use unknown stage '{other}'")
        for row in table_rows(text, ["file", "starts"]):
            self.spawns.setdefault(first_code(row[0]), []).extend(codes(row[1]))
        for row in table_rows(text, ["data file", "read by"]):
            self.data.setdefault(first_code(row[0]), []).extend(names(row[1]))
        for data_file, readers in self.data.items():
            for reader in readers:
                if reader not in self.allowed:
                    errors.append(f"{path}: {data_file} is read by unknown stage '{reader}'")

    def may_use(self, stage, other):
        return other == stage or other in self.allowed.get(stage, set())

    def of_folder(self, folder):
        """The stage whose folder is `folder` (relative to root), or None."""
        for stage, own in self.folder.items():
            if own and os.path.normpath(own) == os.path.normpath(folder):
                return stage
        return None

    def of_library(self, name):
        for stage, library in self.library.items():
            if library == name:
                return stage
        return None

    def of_file(self, relative):
        """The stage whose folder holds `relative` (the innermost), or None."""
        folder = os.path.dirname(os.path.normpath(relative))
        while folder:
            stage = self.of_folder(folder)
            if stage is not None:
                return stage
            folder = os.path.dirname(folder)
        return None


def table_rows(text, header):
    """Body rows (lists of cells) of the markdown tables whose header row is `header`."""
    rows, inside = [], False
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.lstrip().startswith("|"):
            inside = False
            continue
        titles = [cell.split("(")[0].strip().lower() for cell in cells]
        if titles == header:
            inside = True
            continue
        if inside and not set(line.strip()) <= set("|-: "):
            rows.append(cells)
    return rows


def codes(cell):
    return re.findall(r"`([^`]+)`", cell)


def first_code(cell):
    found = codes(cell)
    return found[0] if found else ""


def names(cell):
    """The comma-separated names of a cell ("—" = none), without backticks."""
    cell = cell.replace("`", "")
    return [name.strip() for name in cell.split(",") if name.strip() not in ("", "—", "-")]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def without_comments(text, python=False):
    if python:
        return re.sub(r"#[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


class Checker:
    def __init__(self, root):
        self.root = root
        self.errors = []
        self.used = set()  # (stage, other) pairs seen in includes, imports, links, spawns
        self.stages = Stages(root, self.errors)

    def rel(self, path):
        return os.path.relpath(path, self.root)

    def use(self, path, stage, other, what):
        """Records that `stage` uses `other` through `what`; a violation unless allowed."""
        if other == stage:
            return
        self.used.add((stage, other))
        if not self.stages.may_use(stage, other):
            allowed = ", ".join(sorted(self.stages.allowed.get(stage, ()))) or "none"
            self.errors.append(f"{self.rel(path)}: stage '{stage}' {what} of stage '{other}' "
                               f"(may use: {allowed})")

    # Rules 3 and 4: includes
    def check_includes(self, path, stage, folder):
        """folder: the stage's folder for a private file, None for a public header."""
        for included in INCLUDE.findall(read(path)):
            if included.startswith("adaptsim/"):
                name = os.path.splitext(included[len("adaptsim/"):])[0]
                other = self.stages.header.get(name)
                if other is None:
                    self.errors.append(f"{self.rel(path)}: includes {included}, a public "
                                       "header of no stage")
                else:
                    self.use(path, stage, other, f"includes {included}")
                continue
            target = self.private_header(path, included)
            if target is None:
                continue  # third-party ("CbcModel.hpp")
            other = self.stages.of_folder(os.path.dirname(target))
            if folder is None:
                self.errors.append(f"{self.rel(path)}: public header includes private header "
                                   f"\"{included}\"")
            elif other == stage:
                continue
            elif other is not None and os.path.dirname(target).startswith(folder + os.sep):
                self.use(path, stage, other, f"includes \"{included}\", a private header")
            else:
                self.errors.append(f"{self.rel(path)}: includes \"{included}\", a private header "
                                   f"of {'stage ' + repr(other) if other else 'another folder'}"
                                   f", not of {folder}/ (use the public API in "
                                   "include/adaptsim/)")

    def private_header(self, path, included):
        """The tree file (relative to root) a quoted include names, or None (third-party)."""
        here = os.path.dirname(path)
        candidates = [os.path.join(here, included)]
        candidates += [os.path.join(self.root, base, included) for base in CXX_ROOTS]
        for candidate in candidates:
            if os.path.isfile(candidate):
                return self.rel(os.path.normpath(candidate))
        return None

    def check_public_headers(self):
        public_dir = os.path.join(self.root, "include", "adaptsim")
        present = set()
        for name in sorted(os.listdir(public_dir)) if os.path.isdir(public_dir) else []:
            if not name.endswith(CXX_SUFFIXES):
                continue
            path = os.path.join(public_dir, name)
            header = os.path.splitext(name)[0]
            present.add(header)
            stage = self.stages.header.get(header)
            if stage is None:
                self.errors.append(f"{self.rel(path)}: public header of no stage (add it to the "
                                   f"stage table of {ARCHITECTURE_DOC})")
                continue
            self.check_includes(path, stage, None)
        for header, stage in sorted(self.stages.header.items()):
            if header not in present:
                self.errors.append(f"{ARCHITECTURE_DOC}: stage '{stage}' names public header "
                                   f"'{header}', which is not in include/adaptsim/")

    def check_cxx_folders(self):
        for base in CXX_ROOTS:
            top = os.path.join(self.root, base)
            for folder, _, files in sorted(os.walk(top)):
                sources = sorted(f for f in files if f.endswith(CXX_SUFFIXES))
                if not sources:
                    continue
                relative = self.rel(folder)
                stage = self.stages.of_folder(relative)
                if stage is None:
                    self.errors.append(f"{relative}: folder of no stage (add it to the stage "
                                       f"table of {ARCHITECTURE_DOC})")
                    continue
                for name in sources:
                    path = os.path.join(folder, name)
                    self.check_includes(path, stage, relative)
                    self.check_spawns(path, stage, python=False)

    # Rule 5: links
    def check_links(self):
        for base in ("src", "python"):
            for folder, _, files in sorted(os.walk(os.path.join(self.root, base))):
                if "CMakeLists.txt" in files:
                    self.check_cmake(os.path.join(folder, "CMakeLists.txt"))

    def check_cmake(self, path):
        text = re.sub(r"#[^\n]*", "", read(path))
        self.cmake_texts[self.rel(path)] = text
        for named in SOURCE_FILE.findall(text):
            if self.stages.of_file(named) is not None and named not in self.stages.data:
                self.errors.append(f"{self.rel(path)}: names {named}, a file of stage "
                                   f"'{self.stages.of_file(named)}', which the data table of "
                                   f"{ARCHITECTURE_DOC} does not declare")
        for name, folder in LIBRARY.findall(text):
            stage = self.stages.of_library(name)
            built = os.path.normpath(os.path.join(self.rel(os.path.dirname(path)), folder))
            if stage is None:
                self.errors.append(f"{self.rel(path)}: library {name} of no stage")
            elif os.path.normpath(self.stages.folder[stage]) != built:
                self.errors.append(f"{self.rel(path)}: {name} is built from {built}, the folder "
                                   f"of stage '{stage}' is {self.stages.folder[stage]}")
        for target, arguments in LINK.findall(text):
            stage = self.stages.of_library(target)
            if stage is None:
                continue  # a test or tool target
            for linked in LINKED.findall(arguments):
                if linked == "adaptsim_warnings":
                    continue
                other = self.stages.of_library(linked)
                if other is None:
                    self.errors.append(f"{self.rel(path)}: {target} links {linked}, the library "
                                       "of no stage")
                else:
                    self.use(path, stage, other, f"links {linked}, the library")

    # Rule 6: Python imports
    def python_modules(self):
        """Importable project module name -> stage."""
        modules = {}
        for stage, folder in self.stages.folder.items():
            directory = os.path.join(self.root, folder) if folder else None
            if not directory or not os.path.isdir(directory):
                continue
            if os.path.isfile(os.path.join(directory, "__init__.py")):
                modules[os.path.basename(directory)] = stage
            for name in os.listdir(directory):
                if name.endswith(".py") and name != "__init__.py" and not os.path.isfile(
                        os.path.join(directory, "__init__.py")):
                    modules[name[:-3]] = stage
        for module, library in EXTENSION_MODULES.items():
            stage = self.stages.of_library(library)
            if stage is not None:
                modules[module] = stage
        return modules

    def check_python(self):
        modules = self.python_modules()
        for stage, folder in sorted(self.stages.folder.items()):
            directory = os.path.join(self.root, folder) if folder else None
            if not directory or not os.path.isdir(directory):
                continue
            for name in sorted(os.listdir(directory)):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(directory, name)
                text = read(path)
                imported = []
                for group in PY_IMPORT.findall(text):
                    imported += [part.split()[0].split(".")[0] for part in group.split(",")
                                 if part.strip()]
                for dots, module, names_ in PY_FROM.findall(text):
                    if module:
                        imported.append(module.split(".")[0])
                    if dots or not module:  # "from . import _core, errors"
                        imported += [n.split()[0] for n in names_.replace("\n", " ").split(",")
                                     if n.strip()]
                for module in imported:
                    other = modules.get(module)
                    if other is not None:
                        self.use(path, stage, other, f"imports {module}, a module")
                self.check_spawns(path, stage, python=True)

    # Rule 7: processes
    def check_spawns(self, path, stage, python):
        relative = self.rel(path)
        text = without_comments(read(path), python)
        spawns = (PY_SPAWN if python else CXX_SPAWN).findall(text)
        declared = self.stages.spawns.get(relative)
        if spawns and declared is None:
            self.errors.append(f"{relative}: starts a process ({spawns[0]}) that is not declared "
                               f"in the process table of {ARCHITECTURE_DOC}")
            return
        if declared is None:
            return
        self.spawning.add(relative)
        if not spawns:
            self.errors.append(f"{ARCHITECTURE_DOC}: declares that {relative} starts a process; "
                               "it starts none")
        for script in declared:
            program = self.stages.of_library(script.split()[0])
            if program is not None and (" " in script or not os.path.exists(
                    os.path.join(self.root, script))):
                if not re.search(r"\b" + re.escape(script.split()[0]) + r"\b", text):
                    self.errors.append(f"{relative}: declared to start `{script}`, whose program "
                                       "it does not name")
                continue  # the program's command line: not an edge (rule 7)
            if not os.path.isfile(os.path.join(self.root, script)):
                self.errors.append(f"{ARCHITECTURE_DOC}: {relative} starts {script}, which does "
                                   "not exist")
                continue
            if os.path.basename(script) not in text:
                self.errors.append(f"{relative}: declared to start {script}, which it does not "
                                   "name")
            other = self.stages.of_folder(os.path.dirname(script))
            if other is None:
                self.errors.append(f"{ARCHITECTURE_DOC}: {relative} starts {script}, a file of "
                                   "no stage")
            else:
                self.use(path, stage, other, f"starts {script}, a script")

    # Rule 8: data files
    def check_data(self):
        for data_file, readers in sorted(self.stages.data.items()):
            if not os.path.isfile(os.path.join(self.root, data_file)):
                self.errors.append(f"{ARCHITECTURE_DOC}: data file {data_file} does not exist")
                continue
            owner = self.stages.of_file(data_file)
            if owner is None:
                self.errors.append(f"{ARCHITECTURE_DOC}: data file {data_file} is a file of no "
                                   "stage")
                continue
            for reader in readers:
                if reader not in self.stages.allowed:
                    continue
                if not self.names_file(reader, data_file):
                    self.errors.append(f"{ARCHITECTURE_DOC}: stage '{reader}' is declared to read "
                                       f"{data_file}, which no file of it names")
                    continue
                self.use(os.path.join(self.root, data_file), reader, owner,
                         f"reads {data_file}, a data file")

    def names_file(self, stage, data_file):
        """Whether a file of the stage's folder, or the CMakeLists.txt that builds its library,
        names `data_file`."""
        name = os.path.basename(data_file)
        folder = self.stages.folder.get(stage)
        directory = os.path.join(self.root, folder) if folder else None
        if directory and os.path.isdir(directory):
            for entry in os.listdir(directory):
                path = os.path.join(directory, entry)
                if os.path.isfile(path) and entry.endswith(CXX_SUFFIXES + (".py",)):
                    if name in read(path):
                        return True
        library = self.stages.library.get(stage)
        return bool(library) and any(
            data_file in text and re.search(r"\b" + re.escape(library) + r"\b", text)
            for text in self.cmake_texts.values())

    # Rule 9: exact lists, one way
    def check_graph(self):
        for stage, allowed in sorted(self.stages.allowed.items()):
            for other in sorted(allowed):
                if (stage, other) not in self.used and other in self.stages.allowed:
                    self.errors.append(f"{ARCHITECTURE_DOC}: stage '{stage}' may use '{other}', "
                                       "but no include, import, link, process or data file "
                                       "of it does (remove it from the list)")
        state = {}

        def visit(stage, trail):
            state[stage] = "open"
            for other in sorted(self.stages.allowed.get(stage, ())):
                if state.get(other) == "open":
                    cycle = trail[trail.index(other):] + [other] if other in trail else [other]
                    self.errors.append(f"{ARCHITECTURE_DOC}: stages depend on each other in a "
                                       f"cycle: {' -> '.join(cycle)}")
                elif other not in state:
                    visit(other, trail + [other])
            state[stage] = "done"

        for stage in sorted(self.stages.allowed):
            if stage not in state:
                visit(stage, [stage])

    def run(self):
        if not self.stages.allowed:
            return self.errors
        self.spawning = set()
        self.cmake_texts = {}
        self.check_public_headers()
        self.check_cxx_folders()
        self.check_links()
        self.check_python()
        self.check_data()
        for relative in sorted(set(self.stages.spawns) - self.spawning):
            if not os.path.isfile(os.path.join(self.root, relative)):
                self.errors.append(f"{ARCHITECTURE_DOC}: declares a process of {relative}, which "
                                   "is not a file of any stage")
        self.check_graph()
        return self.errors


def check_tree(root):
    """Returns the list of violations in the tree at `root`."""
    return Checker(root).run()


def write(root, relative, text):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


SELF_TEST_DOC = """# Architecture

| stage | folder | library | may use | public headers |
|---|---|---|---|---|
| core | `src/core` | `adaptsim_core` | — | `result` |
| solvers | `src/solvers` | `adaptsim_solvers` | core | `lp_problem` |
| policy interface | — | — | core | `policy` |
| gavel | `src/policies/gavel` | `adaptsim_policies_gavel` | core, policy interface, solvers | — |
| pollux | `src/policies/pollux` | `adaptsim_policies_pollux` | core, policy interface | — |
| policies | `src/policies` | `adaptsim_policies` | policy interface, gavel, pollux | `registry` |
| engine | `src/engine` | `adaptsim_engine` | core, policy interface | `simulator` |
| store | `src/store` | `adaptsim_store` | core | `store` |
| analysis | `src/analysis` | `adaptsim_analysis` | store, analysis scripts | `results_analysis` |
| task | `src/task` | `adaptsim_task` | core, policies, engine, store | `task` |
| analysis scripts | `analysis` | — | — | — |
| sweep | `src/sweep` | `adaptsim_sweep` | task, analysis scripts | `sweep` |
| app | `src/app` | `adaptsim` | analysis, sweep | — |
| python module | `python/src` | `adaptsim_core_module` | task | — |
| python package | `python/adaptsim` | — | python module | — |

| file | starts |
|---|---|
| `src/sweep/reproduce.cpp` | `analysis/reproduction_report.py` |
| `analysis/adaptsim_tables.py` | `adaptsim report` |

| data file | read by |
|---|---|
| `analysis/labels.toml` | analysis, analysis scripts |
"""


def self_test():
    """The check passes a clean synthetic tree and reports each kind of violation."""
    clean = {
        "docs/architecture.md": SELF_TEST_DOC,
        "include/adaptsim/result.hpp": "#pragma once\n",
        "include/adaptsim/lp_problem.hpp": '#include "adaptsim/result.hpp"\n',
        "include/adaptsim/policy.hpp": '#include "adaptsim/result.hpp"\n',
        "include/adaptsim/registry.hpp": '#include "adaptsim/policy.hpp"\n',
        "include/adaptsim/simulator.hpp": '#include "adaptsim/policy.hpp"\n',
        "include/adaptsim/store.hpp": '#include "adaptsim/result.hpp"\n',
        "include/adaptsim/task.hpp": '#include "adaptsim/simulator.hpp"\n'
                                     '#include "adaptsim/store.hpp"\n',
        "include/adaptsim/sweep.hpp": '#include "adaptsim/task.hpp"\n',
        "include/adaptsim/results_analysis.hpp": '#include "adaptsim/store.hpp"\n',
        "src/analysis/results_analysis.cpp": '#include "adaptsim/results_analysis.hpp"\n',
        "src/app/main.cpp": '#include "adaptsim/results_analysis.hpp"\n'
                            '#include "adaptsim/sweep.hpp"\n',
        "src/core/result.cpp": '#include "adaptsim/result.hpp"\n',
        "src/solvers/lp_problem.cpp": '#include "adaptsim/lp_problem.hpp"\n'
                                      '#include "CbcModel.hpp"\n',
        "src/policies/gavel/fifo.hpp": '#include "adaptsim/policy.hpp"\n',
        "src/policies/gavel/fifo.cpp": '#include "fifo.hpp"\n#include "adaptsim/lp_problem.hpp"\n',
        "src/policies/pollux/pollux.hpp": '#include "adaptsim/policy.hpp"\n',
        "src/policies/pollux/pollux.cpp": '#include "pollux.hpp"\n#include "adaptsim/result.hpp"\n',
        "src/policies/registry.cpp": '#include "adaptsim/registry.hpp"\n#include "gavel/fifo.hpp"\n'
                                     '#include "pollux/pollux.hpp"\n',
        "src/engine/simulator.cpp": '#include "adaptsim/simulator.hpp"\n#include "placement.hpp"\n'
                                    '#include "adaptsim/result.hpp"\n',
        "src/engine/placement.hpp": "#pragma once\n",
        "src/store/results_file.cpp": '#include "adaptsim/store.hpp"\n',
        "src/task/run_task.cpp": '#include "adaptsim/task.hpp"\n#include "adaptsim/registry.hpp"\n'
                                 '#include "adaptsim/result.hpp"\n',
        "src/sweep/reproduce.cpp": '#include "adaptsim/sweep.hpp"\n#include <spawn.h>\n'
                                   'int Run() { return posix_spawn(0, "python3", 0, 0, '
                                   '0, 0); }  // analysis/reproduction_report.py\n'
                                   'const char* kScript = "reproduction_report.py";\n',
        "src/CMakeLists.txt": "adaptsim_library(adaptsim_core core)\n"
                              "adaptsim_library(adaptsim_policies_gavel policies/gavel)\n"
                              "target_link_libraries(adaptsim_policies_gavel PUBLIC adaptsim_core "
                              "adaptsim_solvers)\n"
                              "target_link_libraries(adaptsim_policies PUBLIC "
                              "adaptsim_policies_gavel adaptsim_policies_pollux)\n"
                              "target_link_libraries(adaptsim_store PUBLIC adaptsim_core)\n"
                              "target_link_libraries(adaptsim_engine PUBLIC adaptsim_core)\n"
                              "target_link_libraries(adaptsim_task PUBLIC adaptsim_store "
                              "adaptsim_engine adaptsim_policies)\n"
                              "target_link_libraries(adaptsim_sweep PUBLIC adaptsim_task)\n"
                              "set(labels ${PROJECT_SOURCE_DIR}/analysis/labels.toml)\n"
                              "target_sources(adaptsim_analysis PRIVATE ${labels})\n",
        "python/CMakeLists.txt": "target_link_libraries(adaptsim_core_module PRIVATE adaptsim_task "
                                 "adaptsim_warnings)\n",
        "python/src/module.cpp": '#include "adaptsim/task.hpp"\n',
        "python/adaptsim/__init__.py": "import json\nfrom . import _core\nfrom .errors import E\n",
        "python/adaptsim/errors.py": "class E(Exception):\n    pass\n",
        "analysis/reproduction_report.py": "import figures\nimport subprocess  # not called\n",
        "analysis/figures.py": "import numpy\nimport adaptsim_tables\nLABELS = 'labels.toml'\n",
        "analysis/adaptsim_tables.py": "import subprocess\n"
                                       "subprocess.run(['adaptsim', 'report'])\n",
        "analysis/labels.toml": "[scenario]\n",
    }
    # Each case: files that make one violation, and the message it must produce.
    cases = [
        ("a family includes another family's header",
         {"src/policies/gavel/fifo.cpp": '#include "fifo.hpp"\n#include "adaptsim/lp_problem.hpp"\n'
                                         '#include "../pollux/pollux.hpp"\n'},
         'includes "../pollux/pollux.hpp", a private header of stage \'pollux\''),
        ("the store includes a task header",
         {"src/store/results_file.cpp": '#include "adaptsim/store.hpp"\n'
                                        '#include "adaptsim/task.hpp"\n'},
         "stage 'store' includes adaptsim/task.hpp of stage 'task'"),
        ("the engine includes a policy family's private header",
         {"src/engine/simulator.cpp": '#include "adaptsim/simulator.hpp"\n'
                                      '#include "placement.hpp"\n#include "adaptsim/result.hpp"\n'
                                      '#include "policies/gavel/fifo.hpp"\n'},
         'includes "policies/gavel/fifo.hpp", a private header of stage \'gavel\''),
        ("a public header includes a wrong-way header",
         {"include/adaptsim/simulator.hpp": '#include "adaptsim/policy.hpp"\n'
                                            '#include "adaptsim/task.hpp"\n'},
         "stage 'engine' includes adaptsim/task.hpp of stage 'task'"),
        ("a public header includes a private header",
         {"include/adaptsim/store.hpp": '#include "adaptsim/result.hpp"\n'
                                        '#include "engine/placement.hpp"\n'},
         'public header includes private header "engine/placement.hpp"'),
        ("an unclassified public header",
         {"include/adaptsim/" + "mystery.hpp": "#pragma once\n"},
         "mystery.hpp: public header of no stage"),
        ("a source folder of no stage",
         {os.path.join("src", "harness", "task.cpp"): '#include "adaptsim/task.hpp"\n'},
         "src/harness: folder of no stage"),
        ("the store links the task library (wrong way)",
         {"src/CMakeLists.txt": clean["src/CMakeLists.txt"] +
          "target_link_libraries(adaptsim_store PRIVATE adaptsim_task)\n"},
         "stage 'store' links adaptsim_task, the library of stage 'task'"),
        ("a family links another family",
         {"src/CMakeLists.txt": clean["src/CMakeLists.txt"] +
          "target_link_libraries(adaptsim_policies_pollux PUBLIC adaptsim_policies_gavel)\n"},
         "stage 'pollux' links adaptsim_policies_gavel, the library of stage 'gavel'"),
        ("a library built from another stage's folder",
         {"src/CMakeLists.txt": clean["src/CMakeLists.txt"] +
          "adaptsim_library(adaptsim_store task)\n"},
         "adaptsim_store is built from src/task, the folder of stage 'store' is src/store"),
        ("the Python module includes a sweep header",
         {"python/src/module.cpp": '#include "adaptsim/task.hpp"\n#include "adaptsim/sweep.hpp"\n'},
         "stage 'python module' includes adaptsim/sweep.hpp of stage 'sweep'"),
        ("the Python package imports an analysis script",
         {"python/adaptsim/errors.py": "import figures\n"},
         "stage 'python package' imports figures, a module of stage 'analysis scripts'"),
        ("an undeclared process",
         {"src/store/results_file.cpp": '#include "adaptsim/store.hpp"\n'
                                        'int F() { return std::system("python3 x.py"); }\n'},
         "src/store/results_file.cpp: starts a process (system) that is not declared"),
        ("an undeclared Python process",
         {"analysis/figures.py": "import subprocess\nsubprocess.run(['adaptsim'])\n"},
         "analysis/figures.py: starts a process (subprocess.run) that is not declared"),
        ("a declared process of a script that does not exist",
         {"docs/architecture.md": SELF_TEST_DOC.replace("reproduction_report.py", "gone" + ".py")},
         "src/sweep/reproduce.cpp starts analysis/" + "gone.py, which does not exist"),
        ("a declared process onto a stage the file may not use",
         {"docs/architecture.md": SELF_TEST_DOC.replace("| task, analysis scripts |", "| task |")},
         "stage 'sweep' starts analysis/reproduction_report.py, a script of stage "
         "'analysis scripts'"),
        ("a stale entry in a may-use list",
         {"docs/architecture.md": SELF_TEST_DOC.replace("| core, policy interface, solvers |",
                                                         "| core, policy interface, solvers, "
                                                         "store |")},
         "stage 'gavel' may use 'store', but no include, import, link, process or data file of "
         "it does"),
        ("a build file names an undeclared data file of another stage",
         {"src/CMakeLists.txt": clean["src/CMakeLists.txt"] +
          "set(style ${PROJECT_SOURCE_DIR}/analysis/figures.py)\n"},
         "src/CMakeLists.txt: names analysis/figures.py, a file of stage 'analysis scripts', "
         "which the data table"),
        ("a declared data file that its reader does not name",
         {"src/CMakeLists.txt": clean["src/CMakeLists.txt"].replace("adaptsim_analysis",
                                                                    "adaptsim_sweep")},
         "stage 'analysis' is declared to read analysis/labels.toml, which no file of it names"),
        ("a data file read by a stage that may not use its stage",
         {"docs/architecture.md": SELF_TEST_DOC.replace("| store, analysis scripts |",
                                                         "| store |")},
         "stage 'analysis' reads analysis/labels.toml, a data file of stage 'analysis scripts'"),
        ("a declared data file that does not exist",
         {"docs/architecture.md": SELF_TEST_DOC.replace("`analysis/labels.toml` |",
                                                         "`analysis/" + "gone.toml` |")},
         "data file analysis/" + "gone.toml does not exist"),
        ("a declared start of the program by a file that does not name it",
         {"analysis/adaptsim_tables.py": "import subprocess\nsubprocess.run(['report'])\n"},
         "analysis/adaptsim_tables.py: declared to start `adaptsim report`, whose program it "
         "does not name"),
        ("a cycle in the stage table",
         {"docs/architecture.md": SELF_TEST_DOC.replace("| — | `result` |",
                                                         "| solvers | `result` |")},
         "stages depend on each other in a cycle: core -> solvers -> core"),
    ]
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        clean_root = os.path.join(scratch, "clean")
        for relative, text in clean.items():
            write(clean_root, relative, text)
        errors = check_tree(clean_root)
        if errors:
            failures.append("clean tree reported: " + "; ".join(errors))
        for number, (what, files, message) in enumerate(cases):
            root = os.path.join(scratch, f"case{number}")
            for relative, text in {**clean, **files}.items():
                write(root, relative, text)
            errors = check_tree(root)
            if not any(message in error for error in errors):
                failures.append(f"{what}: no violation '{message}' in {errors}")
    for failure in failures:
        print("self-test FAILED:", failure)
    if not failures:
        print(f"self-test passed: clean tree accepted, {len(cases)} kinds of violation reported")
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
        print(f"{len(errors)} dependency violation(s); stage table: {ARCHITECTURE_DOC}")
        return 1
    print("include, import, link, process and data graph follow the stage table")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
