"""Moves as small immutable values (R9–R14), written as in NOTATION.md.

A Move is an int, so the engine can index tables with it: 0–23 play that card,
24–47 play a hero with card − 24, 48 draws, 49 passes.

>>> Move.parse("h+ne2"), str(Move.parse("draw"))
(Move('H+NE2'), 'draw')
"""
from engine.errors import NotationError
from engine.notation import CARD_NAMES, parse_card

HERO = 24
DRAW = 48
PASS = 49


class Move(int):
    """One action: a card, a hero with a card, a draw or the forced pass."""

    __slots__ = ()

    @classmethod
    def parse(cls, text):
        """The move written as `NE2`, `H+NE2`, `draw` (or `draw:SW3`) or `pass`."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be text, not {text!r}")
        word = text.strip().lower()
        if word == "draw":
            return MOVES[DRAW]
        if word.startswith("draw:"):
            _card(word[5:], text)  # a record names the card drawn: it must be a card
            return MOVES[DRAW]
        if word == "pass":
            return MOVES[PASS]
        if word.startswith("h+"):
            return MOVES[HERO + _card(word[2:], text)]
        return MOVES[_card(word, text)]

    @property
    def card(self):
        """The power card played (0–23), or None for draw and pass."""
        return int(self) % HERO if self < DRAW else None

    @property
    def is_hero(self):
        return HERO <= self < DRAW

    @property
    def is_draw(self):
        return self == DRAW

    @property
    def is_pass(self):
        return self == PASS

    def __str__(self):
        if self < HERO:
            return CARD_NAMES[self]
        if self < DRAW:
            return "H+" + CARD_NAMES[self - HERO]
        return "draw" if self == DRAW else "pass"

    def __repr__(self):
        return f"Move({str(self)!r})"


def _card(word, text):
    try:
        return parse_card(word)
    except NotationError:
        raise NotationError(f"unknown move {text!r}") from None


MOVES = tuple(int.__new__(Move, i) for i in range(50))
