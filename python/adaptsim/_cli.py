"""The `adaptsim` command of an installed package (`pip install .`, docs/python.md §1).

pip puts a console script named `adaptsim` into the environment's bin/ that calls main(): it runs
the command line the wheel ships (adaptsim/bin/adaptsim, the build's `adaptsim` binary) with the
same arguments, so `adaptsim run ...`, `adaptsim sweep ...` and `mpirun -n 4 adaptsim sweep ...`
behave exactly as build/release/src/app/adaptsim. The binary embeds the Python it was built for
(the same interpreter as this environment's, which setup.py checks): main() adds this
environment's site-packages to PYTHONPATH so that `--policy py:MODULE:CLASS` imports what the
environment's python imports.
"""

import os
import site
import sys


def command_line():
    """Path of the shipped command line."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "adaptsim")


def main():
    binary = command_line()
    if not os.access(binary, os.X_OK):
        sys.exit(f"adaptsim: {binary} is missing: this package was not installed by "
                 "`pip install .` from a build (docs/python.md §1); run the build's "
                 "build/release/src/app/adaptsim instead")
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    paths += [p for p in site.getsitepackages() if p not in paths]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    os.execve(binary, ["adaptsim"] + sys.argv[1:], env)


if __name__ == "__main__":
    main()
