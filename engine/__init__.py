"""The Rose King engine: rules, notation, records, players and simulation (standard library only).

>>> from engine import Position
>>> len(Position.new(seed=7).legal_moves())
5
"""
__version__ = "0.1.0"  # the one source of the package version (pyproject.toml reads it)

from engine.errors import IllegalMoveError, NotationError, PositionError, RecordError, RoseKingError
from engine.moves import Move
from engine.position import Position, Score

__all__ = ["__version__", "Position", "Score", "Move", "RoseKingError", "NotationError", "PositionError",
           "IllegalMoveError", "RecordError"]
