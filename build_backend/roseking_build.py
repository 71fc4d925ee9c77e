"""roseking's build backend: setuptools', and with ROSEKING_COMPILE=1 the engine's core compiled by mypyc.

`ROSEKING_COMPILE=1 pip install .` asks the build for mypy (the wheel's build requirements, only
then) and compiles the modules of `COMPILED` to C extensions beside their pure-Python sources, as
black and mypy ship themselves. The sources stay the source and the fallback: they are in the
wheel either way, `ROSEKING_PURE=1` makes a process use them, and a build that cannot compile (no
C compiler, say) says why on one line and installs roseking in pure Python.
"""
import os
import shutil
import sys

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook of setuptools', three of them wrapped below)
from setuptools.command.build_ext import build_ext

MYPY = "mypy>=1.10"  # mypyc comes with it
COMPILED = [  # the hot loop: position, moves, playout, scoring, the players with their searches, the learned evaluation
    "engine/position.py",
    "engine/playout.py",
    "engine/scoring.py",
    "engine/players/base.py",
    "engine/players/evaluate.py",
    "engine/players/simple.py",
    "engine/players/expectimax.py",
    "engine/players/ab7.py",
    "engine/players/mcts.py",
    "engine/players/ismcts.py",
    "engine/players/negamax.py",
    "engine/learn/features.py",
    "engine/learn/model.py",
]


def compiling() -> bool:
    """Whether this build compiles the core: ROSEKING_COMPILE is set and not 0."""
    return os.environ.get("ROSEKING_COMPILE", "0") not in ("", "0")


def get_requires_for_build_wheel(config_settings=None):
    return _setuptools.get_requires_for_build_wheel(config_settings) + ([MYPY] if compiling() else [])


def get_requires_for_build_editable(config_settings=None):
    return _setuptools.get_requires_for_build_editable(config_settings) + ([MYPY] if compiling() else [])


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """setuptools' wheel, built afresh: pip builds in the tree, and an earlier build's compiled modules
    left in build/ would otherwise go into a pure-Python wheel, or stand in for a failed compile."""
    shutil.rmtree("build", ignore_errors=True)
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


class BuildExt(build_ext):
    """build_ext that gives up as a whole: when any extension fails to build, none is installed."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # the compiler's and the linker's errors have no common class
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            shutil.rmtree(self.build_temp, ignore_errors=True)
            print(f"roseking: the compiled core could not be built ({exc}); installing the pure-Python engine",
                  file=sys.stderr)
            self.extensions = []


def setup_arguments() -> dict:
    """What setup.py hands setuptools: the compiled core's extensions when compiling, else nothing."""
    if not compiling():
        return {}
    try:
        from mypyc.build import mypycify
    except ImportError:  # setuptools asking for the build's requirements: mypy comes next
        return {}
    try:
        modules = mypycify(COMPILED, opt_level="3", group_name="roseking")
    except (Exception, SystemExit) as exc:  # mypyc refused the sources: say why, build the pure engine
        print(f"roseking: mypyc could not compile the core ({exc}); installing the pure-Python engine",
              file=sys.stderr)
        return {}
    return {"ext_modules": modules, "cmdclass": {"build_ext": BuildExt}}
