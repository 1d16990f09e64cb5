"""Builds the `adaptsim` Python package for `pip install .` (pyproject.toml, docs/python.md §1).

The extension module and the command line are built by CMake, not by setuptools: build_py
configures the `release` preset (unless ADAPTSIM_BUILD_DIR names an existing build folder, which
is then reused), builds the targets adaptsim_core_module and adaptsim, and copies the package
folder `<build>/python/adaptsim` (the Python sources and _core*.so) into the wheel with the
command line as adaptsim/bin/adaptsim; the console script `adaptsim` (adaptsim/_cli.py) runs it.
Offline: it runs only cmake and the compiler.

Before anything is built, the interpreter running pip must be the one the build is for: CMake
records it (the Python that pybind11 found, `Python_EXECUTABLE`, /usr/bin/python3 on Debian) in
`<build>/python/build.json`, and a module built for one Python does not load in another. Another
interpreter (a pyenv or conda `python3` first on PATH) stops the install with a message naming
the right one.

Environment:
    ADAPTSIM_BUILD_DIR  a configured CMake build folder to build in and copy from (default:
                        build/release of the checkout, configured with `cmake --preset release`
                        when it has no CMakeCache.txt).
    ADAPTSIM_BUILD_JOBS parallel build jobs (default 2).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

SOURCE_DIR = os.path.dirname(os.path.abspath(__file__))


def project_version():
    """VERSION of project() in CMakeLists.txt (one source for the version)."""
    with open(os.path.join(SOURCE_DIR, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(adaptsim VERSION ([0-9.]+)", f.read())
    if not match:
        raise RuntimeError("CMakeLists.txt: no 'project(adaptsim VERSION x.y.z'")
    return match.group(1)


def cmake_build_dir():
    """The CMake build folder, configured (with the release preset when it is the default)."""
    build_dir = os.environ.get("ADAPTSIM_BUILD_DIR")
    if build_dir:
        build_dir = os.path.abspath(build_dir)
        if not os.path.isfile(os.path.join(build_dir, "CMakeCache.txt")):
            raise RuntimeError(f"ADAPTSIM_BUILD_DIR={build_dir}: not a configured CMake build "
                               "folder (no CMakeCache.txt)")
        return build_dir
    build_dir = os.path.join(SOURCE_DIR, "build", "release")
    if not os.path.isfile(os.path.join(build_dir, "CMakeCache.txt")):
        subprocess.run(["cmake", "--preset", "release"], cwd=SOURCE_DIR, check=True)
    return build_dir


def build_record(build_dir):
    """<build>/python/build.json: the interpreter and command line of the build (CMake writes it
    when it configures, python/CMakeLists.txt)."""
    path = os.path.join(build_dir, "python", "build.json")
    if not os.path.isfile(path):
        subprocess.run(["cmake", build_dir], check=True, stdout=subprocess.DEVNULL)
    with open(path, encoding="utf-8") as f:
        return json.load(f), path


def base_interpreter():
    """The interpreter behind this one: a virtual environment's python is its base's."""
    return os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)


def check_interpreter(record, record_path):
    """Stops (SystemExit with the message) unless this is the interpreter the build is for."""
    built_for = record["python_executable"]
    version = ".".join(map(str, sys.version_info[:3]))
    same = (os.path.realpath(built_for) == base_interpreter()
            and version == record["python_version"]
            and sysconfig.get_config_var("SOABI") == record["python_soabi"])
    if same:
        return
    sys.exit(
        "\nadaptsim: wrong Python interpreter.\n"
        f"  This build's module is for {built_for} (Python {record['python_version']}, "
        f"{record['python_soabi']}; recorded by CMake in {record_path}),\n"
        f"  but pip runs in {sys.executable} (Python {version}, based on {base_interpreter()}).\n"
        "  Make the virtual environment with the build's interpreter, not with the first\n"
        "  `python3` on PATH (a pyenv or conda one is another interpreter):\n"
        f"      {built_for} -m venv --system-site-packages .venv\n"
        "      .venv/bin/pip install --no-build-isolation --no-deps --no-index .\n"
        "  (or build for this interpreter: cmake --preset release "
        f"-DPython_EXECUTABLE={base_interpreter()}; docs/python.md §1)\n")


BUILD_DIR = cmake_build_dir()
RECORD, RECORD_PATH = build_record(BUILD_DIR)
check_interpreter(RECORD, RECORD_PATH)


class BuildWithCMake(build_py):
    """build_py that builds the extension module and the command line with CMake and copies the
    whole package, the command line as adaptsim/bin/adaptsim."""

    def run(self):
        jobs = os.environ.get("ADAPTSIM_BUILD_JOBS", "2")
        subprocess.run(["cmake", "--build", BUILD_DIR, "--target", "adaptsim_core_module",
                        "adaptsim", "-j", jobs], check=True)
        package = os.path.join(BUILD_DIR, "python", "adaptsim")
        if not any(name.startswith("_core") for name in os.listdir(package)):
            raise RuntimeError(f"{package}: the build made no _core extension module")
        command_line = RECORD["command_line"]
        if not os.access(command_line, os.X_OK):
            raise RuntimeError(f"{command_line}: the build made no adaptsim command line")
        target = os.path.join(self.build_lib, "adaptsim")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__"))
        os.makedirs(os.path.join(target, "bin"))
        shutil.copy2(command_line, os.path.join(target, "bin", "adaptsim"))


class BinaryDistribution(Distribution):
    """The wheel holds a compiled module: platform-specific, not pure Python."""

    def has_ext_modules(self):
        return True


setup(
    version=project_version(),
    packages=["adaptsim"],
    package_dir={"adaptsim": "python/adaptsim"},
    cmdclass={"build_py": BuildWithCMake},
    # setuptools' own staging folders, inside the ignored build/ next to CMake's.
    options={"build": {"build_base": "build/setuptools"}},
    distclass=BinaryDistribution,
)
