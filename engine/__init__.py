"""The Rose King engine: rules, notation, records, players and simulation (standard library only).

The names below load their module on first use, so importing one engine module
never runs the others.

The core (position, playout, scoring, the players) may be installed compiled by mypyc
(`ROSEKING_COMPILE=1 pip install .`, see build_backend/roseking_build.py): `COMPILED` says
whether this process uses the compiled modules. `ROSEKING_PURE=1` in the environment makes it
use the pure-Python sources, which are always installed beside them.

>>> from engine import Position
>>> len(Position.new(seed=7).legal_moves())
5
"""
import os
import sys
from importlib import import_module
from importlib.machinery import BYTECODE_SUFFIXES, SOURCE_SUFFIXES, FileFinder, SourceFileLoader, SourcelessFileLoader
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.errors import IllegalMoveError, NotationError, PositionError, RecordError, RoseKingError
    from engine.moves import Move
    from engine.position import Position, Score

__version__ = "0.1.0"  # the one source of the package version (pyproject.toml reads it)

_HOME = {"Position": "position", "Score": "position", "Move": "moves", "RoseKingError": "errors",
         "NotationError": "errors", "PositionError": "errors", "IllegalMoveError": "errors", "RecordError": "errors"}
__all__ = ["__version__", "IllegalMoveError", "Move", "NotationError", "Position", "PositionError", "RecordError",
           "RoseKingError", "Score"]


PURE = os.environ.get("ROSEKING_PURE", "0") not in ("", "0")
"""Whether ROSEKING_PURE asks for the pure-Python engine, compiled modules installed or not."""

if PURE:  # the engine's folders found with loaders for sources only, before any engine module is imported
    for _folder in (__path__[0], os.path.join(__path__[0], "players"), os.path.join(__path__[0], "bench")):
        sys.path_importer_cache[_folder] = FileFinder(_folder, (SourceFileLoader, SOURCE_SUFFIXES),
                                                      (SourcelessFileLoader, BYTECODE_SUFFIXES))


def __getattr__(name: str) -> Any:
    """Load the module that defines `name` (PEP 562); `COMPILED`, whether the core in use is compiled."""
    if name == "COMPILED":
        return not (import_module("engine.position").__file__ or "").endswith(tuple(SOURCE_SUFFIXES))
    if name not in _HOME:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(import_module(f"engine.{_HOME[name]}"), name)
