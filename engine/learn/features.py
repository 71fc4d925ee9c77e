"""What a position holds for one colour beyond its score: the features of the learned evaluation.

Each feature is seen from `colour` (0 red, 1 white), the side to move when the search asks:
most are a difference, mine minus the opponent's, so that they change sign with the colours
(R18 scores, R5 heroes); `pile` and `supply` are the same for both and let the model weigh
whose turn it is near the end. What the classical evaluation (score and heroes, R18, R5)
does not see, beside its own two (`score`, `heroes`):

- `largest`, `stones`: the tie-breaks of R19;
- `liberties`: empty squares beside one's own stones, where regions can still grow (R18);
- `reach`, `grow`: cards in hand whose target from the crown is empty, and of those the ones
  that land beside one's own stones (R10);
- `threats`: cards in hand whose target holds an opposing stone, with a hero left to flip it (R12);
- `hand`, `full`: cards in hand, and a full hand that cannot draw (R11);
- `pile`, `supply`: cards left to draw and stones left before the end (R11, R16).

>>> from engine.position import Position
>>> pos = Position.new(seed=1)
>>> pos.push(pos.legal_moves()[0])    # Red places a stone
>>> dict(zip(NAMES, features(pos, 0)))["score"], dict(zip(NAMES, features(pos, 1)))["score"]
(1, -1)
"""
from __future__ import annotations

from typing import Final

from engine.players.evaluate import heroes
from engine.position import TARGETS, Position
from engine.scoring import Figures, figures
from engine.variants import STONES

NAMES: Final = ("score", "heroes", "largest", "stones", "liberties", "reach", "grow", "threats",
                "hand", "full", "pile", "supply")
"""The features in the order `features` returns them."""

FULL: Final = (1 << 81) - 1
"""Every square of the board, bit 9 * rank + file (NOTATION.md)."""
FILE_A: Final = sum(1 << (9 * r) for r in range(9))
NOT_A: Final = FULL & ~FILE_A
NOT_I: Final = FULL & ~(FILE_A << 8)

PHASES: Final = (18, 36)
"""The model has one set of weights for each stage of the game: before 18 stones on the board,
before 36, and after (R16 ends it at 52)."""


def phase(stones: int) -> int:
    """The stage of the game (0, 1 or 2) with `stones` on the board.

    >>> phase(0), phase(18), phase(51)
    (0, 1, 2)
    """
    return 0 if stones < PHASES[0] else 1 if stones < PHASES[1] else 2


def neighbours(bits: int) -> int:
    """The squares beside (by an edge, R18) any square of `bits`."""
    return ((bits << 9) | (bits >> 9) | ((bits << 1) & NOT_A) | ((bits >> 1) & NOT_I)) & FULL


class Features:
    """`features(pos, colour)` with each bitboard's figures remembered (siblings in a search share one
    colour's stones); the memory is cleared when it holds more than `keep` boards."""

    def __init__(self, keep: int = 200_000) -> None:
        self.keep = keep
        self.known: dict[int, Figures] = {}

    def figures(self, bits: int) -> Figures:
        """`scoring.figures(bits)`, remembered."""
        known = self.known
        found = known.get(bits)
        if found is None:
            if len(known) >= self.keep:
                known.clear()
            found = known[bits] = figures(bits)
        return found

    def __call__(self, pos: Position, colour: int) -> list[int]:
        """The values of NAMES for `colour` in `pos`."""
        mine, theirs = pos.bits[colour], pos.bits[1 - colour]
        a, b = self.figures(mine), self.figures(theirs)
        empty = FULL & ~(mine | theirs)
        near_mine, near_theirs = neighbours(mine) & empty, neighbours(theirs) & empty
        targets = TARGETS[pos.crown]
        reach = grow = threats = hand = full = 0
        limit = pos.hand_limit
        for seat, cards in enumerate(pos.hands):
            sign = 1 if seat & 1 == colour else -1
            other, near = (theirs, near_mine) if sign == 1 else (mine, near_theirs)
            hero = pos.heroes[seat] > 0
            for card in cards:
                t = targets[card]
                if t < 0:
                    continue
                bit = 1 << t
                if empty & bit:
                    reach += sign
                    if near & bit:
                        grow += sign
                elif hero and other & bit:
                    threats += sign
            hand += sign * len(cards)
            if len(cards) >= limit:
                full += sign
        return [a[0] - b[0], heroes(pos, colour) - heroes(pos, 1 - colour), a[1] - b[1], a[2] - b[2],
                near_mine.bit_count() - near_theirs.bit_count(), reach, grow, threats, hand, full,
                len(pos.pile), STONES - pos.stones]


features = Features()
"""The features of a position for a colour, with a shared memory of figures."""
