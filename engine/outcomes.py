"""How a game ends: why (R16, R17) and who wins (R19), as strings that say which values exist.

Both are `str` enums, so they compare equal to their text and go into JSON as it.

>>> Outcome.LAST_STONE == "last-stone", Winner("draw") is Winner.DRAW
(True, True)
"""
from enum import StrEnum


class Outcome(StrEnum):
    """Why a game is over."""

    LAST_STONE = "last-stone"  # R16
    BLOCKADE = "blockade"  # R17


class Winner(StrEnum):
    """Who won a finished game (R19)."""

    RED = "red"
    WHITE = "white"
    DRAW = "draw"
