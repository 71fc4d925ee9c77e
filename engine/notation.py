"""Squares, directions, cards and moves as written in docs/NOTATION.md.

Squares are integers 0–80: `a1` is 0, `b1` is 1, `a2` is 9, `i9` is 80 (R1).
Cards are integers 0–23: direction index × 3 + distance − 1 (R3).

>>> square_name(40), parse_square("E5")
('e5', 40)
>>> card_name(parse_card("sw3"))
'SW3'
"""
from typing import Final

from engine.errors import NotationError
from engine.jsonio import brief

FILES = "abcdefghi"
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
# R2: directions are absolute board directions, (file step, rank step).
STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
CENTRE: Final = 40  # e5 (R1, R6)

SQUARE_NAMES = tuple(f + str(r + 1) for r in range(9) for f in FILES)
CARD_NAMES = tuple(d + str(n) for d in DIRECTIONS for n in (1, 2, 3))
_SQUARES = {name: i for i, name in enumerate(SQUARE_NAMES)}
_CARDS = {name: i for i, name in enumerate(CARD_NAMES)}


def square_name(sq: int) -> str:
    """The name of square index `sq`, e.g. `e5`."""
    return SQUARE_NAMES[sq]


def parse_square(text: object) -> int:
    """The index of a square name (case-insensitive); NotationError if malformed."""
    square = _SQUARES.get(text.lower()) if isinstance(text, str) else None
    if square is None:
        raise NotationError(f"unknown square {brief(text)}")
    return square


def card_name(card: int) -> str:
    """The name of card index `card`, e.g. `NE2`."""
    return CARD_NAMES[card]


def parse_card(text: object) -> int:
    """The index of a card name (case-insensitive); NotationError if malformed."""
    card = _CARDS.get(text.upper()) if isinstance(text, str) else None
    if card is None:
        raise NotationError(f"unknown card {brief(text)}")
    return card


def _target(sq: int, card: int) -> int:
    df, dr = STEPS[card // 3]
    n = card % 3 + 1
    f, r = sq % 9 + df * n, sq // 9 + dr * n
    return r * 9 + f if 0 <= f < 9 and 0 <= r < 9 else -1


# TARGET[sq * 24 + card]: the square a card sends the crown to from `sq`, or -1 off the board (R10).
TARGET: Final = tuple(_target(sq, card) for sq in range(81) for card in range(24))
