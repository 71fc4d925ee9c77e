"""Moves as small immutable values (R9–R14), written as in NOTATION.md.

A Move is an int, so the engine can index tables with it: 0–23 play that card,
24–47 play a hero with card − 24, 48 draws, 49 passes. `Move(…)` is the checked door
(notation or a number 0–49); the engine itself takes its moves from `MOVES`.

>>> Move.parse("h+ne2"), str(Move.parse("draw"))
(Move('H+NE2'), 'draw')
>>> Move("W1") == Move(18) == 18, Move(49)
(True, Move('pass'))
"""
from __future__ import annotations

from typing import Final

from engine.errors import NotationError
from engine.jsonio import brief
from engine.notation import CARD_NAMES, parse_card

HERO: Final = 24
DRAW: Final = 48
PASS: Final = 49


class Move(int):
    """One action: a card, a hero with a card, a draw or the forced pass."""

    __slots__ = ()

    def __new__(cls, value: int | str) -> Move:
        """The move written `value` (see `parse`) or numbered `value` (0–49); NotationError otherwise."""
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(MOVES):
            return MOVES[value]
        raise NotationError(f"not a move: {brief(value)} (a move is its notation or a number 0–{len(MOVES) - 1})")

    @classmethod
    def parse(cls, text: object) -> Move:
        """The move written as `NE2`, `H+NE2`, `draw` (or `draw:SW3`) or `pass`."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be text, not {brief(text)}")
        word = text.strip().lower()
        if word == "draw":
            return MOVES[DRAW]
        if word.startswith("draw:"):
            drawn_card(text)  # a record names the card drawn: it must be a card
            return MOVES[DRAW]
        if word == "pass":
            return MOVES[PASS]
        if word.startswith("h+"):
            return MOVES[HERO + _card(word[2:], text)]
        return MOVES[_card(word, text)]

    @property
    def card(self) -> int | None:
        """The power card played (0–23), or None for draw and pass."""
        return int(self) % HERO if self < DRAW else None

    @property
    def is_hero(self) -> bool:
        """Whether a hero goes with the card (R12)."""
        return HERO <= self < DRAW

    @property
    def is_draw(self) -> bool:
        """Whether this is a draw (R11)."""
        return self == DRAW

    @property
    def is_pass(self) -> bool:
        """Whether this is the forced pass (R14)."""
        return self == PASS

    def __str__(self) -> str:
        if self < HERO:
            return CARD_NAMES[self]
        if self < DRAW:
            return "H+" + CARD_NAMES[self - HERO]
        return "draw" if self == DRAW else "pass"

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


def drawn_card(text: str) -> int | None:
    """The card a record's draw names (`draw:SW3`); None for any other move, a bare `draw` too.
    NotationError if what follows `draw:` is not a card.

    >>> CARD_NAMES[drawn_card("draw:sw3")], drawn_card("draw"), drawn_card("NE2")
    ('SW3', None, None)
    """
    word = text.strip().lower()
    return _card(word[5:], text) if word.startswith("draw:") else None


def _card(word: str, text: str) -> int:
    try:
        return parse_card(word)
    except NotationError:
        raise NotationError(f"unknown move {brief(text)}") from None


MOVES: tuple[Move, ...] = tuple(int.__new__(Move, i) for i in range(50))
"""Every move, indexed by its number: the engine's unchecked way to make one."""
