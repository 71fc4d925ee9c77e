"""The two ways to play: `classic` (two players, R1–R19) and `teams` (four players, R20–R22),
and the options of a game: when the discard pile is reshuffled (R11) and who starts (R8).

Seats are listed in turn order; a seat's colour is its index mod 2 (0 red, 1 white),
so Red moves first in both (R8, R22).
"""
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from engine.errors import RoseKingError

COLOURS = ("red", "white")
STONES: Final = 52  # R4: one shared supply


@dataclass(frozen=True)
class Variant:
    """A way to play: its seats in turn order, hand limit and heroes per seat."""

    name: str
    seats: tuple[str, ...]
    hand_limit: int  # R11, R21
    heroes: int  # R5, R21


CLASSIC = Variant("classic", ("red", "white"), 5, 4)
TEAMS = Variant("teams", ("red1", "white1", "red2", "white2"), 3, 2)
VARIANTS = {v.name: v for v in (CLASSIC, TEAMS)}
VARIANT_NAMES = tuple(VARIANTS)


class Reshuffle(StrEnum):
    """When the discard pile becomes the draw pile (R11): at the next draw, or on the last card."""

    LAZY = "lazy"
    EAGER = "eager"


class First(StrEnum):
    """Who starts: Red (R8, R22) or a seat drawn from the deal's seed."""

    RED = "red"
    RANDOM = "random"


def variant(name: str) -> Variant:
    """The variant called `name`; RoseKingError names the choices otherwise."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise RoseKingError(f"unknown variant {name!r} (choose classic or teams)") from None
