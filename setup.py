"""Builds the `adaptsim` Python package for `pip install .` (pyproject.toml, docs/python.md §1).

The extension module is built by CMake, not by setuptools: build_py configures the `release`
preset (unless ADAPTSIM_BUILD_DIR names an existing build folder, which is then reused), builds the
target adaptsim_core_module and copies the package folder `<build>/python/adaptsim` (the Python
sources and _core*.so) into the wheel. Offline: it runs only cmake and the compiler.

Environment:
    ADAPTSIM_BUILD_DIR  a configured CMake build folder to build in and copy from (default:
                        build/release of the checkout, configured with `cmake --preset release`
                        when it has no CMakeCache.txt).
    ADAPTSIM_BUILD_JOBS parallel build jobs (default 2).
"""

import os
import re
import shutil
import subprocess

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


class BuildWithCMake(build_py):
    """build_py that builds the extension module with CMake and copies the whole package."""

    def run(self):
        build_dir = cmake_build_dir()
        jobs = os.environ.get("ADAPTSIM_BUILD_JOBS", "2")
        subprocess.run(["cmake", "--build", build_dir, "--target", "adaptsim_core_module",
                        "-j", jobs], check=True)
        package = os.path.join(build_dir, "python", "adaptsim")
        if not any(name.startswith("_core") for name in os.listdir(package)):
            raise RuntimeError(f"{package}: the build made no _core extension module")
        target = os.path.join(self.build_lib, "adaptsim")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__"))


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
