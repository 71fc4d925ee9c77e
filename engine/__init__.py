"""The Rose King engine: rules, notation, records, players and simulation (standard library only).

The names below load their module on first use, so importing one engine module
never runs the others.

>>> from engine import Position
>>> len(Position.new(seed=7).legal_moves())
5
"""
from importlib import import_module
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


def __getattr__(name: str) -> Any:
    """Load the module that defines `name` (PEP 562)."""
    if name not in _HOME:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(import_module(f"engine.{_HOME[name]}"), name)
