"""The Rose King engine: rules, notation, records, players and simulation (standard library only).

>>> from engine import Position
>>> len(Position.new(seed=7).legal_moves())
5
"""
from engine.errors import IllegalMoveError, NotationError, PositionError, RecordError, RoseKingError
from engine.moves import Move
from engine.position import Position, Score

__all__ = ["Position", "Score", "Move", "RoseKingError", "NotationError", "PositionError",
           "IllegalMoveError", "RecordError"]
