"""Regions and scores (R18) and the winner with its tie-breaks (R19), on bitboards.

A bitboard is an int whose bit `sq` is set when square `sq` holds a stone of one colour.
Regions are found rank by rank: a rank's 9 bits split into runs of adjacent stones (a
table), and a run joins the regions of the runs it touches in the rank below (R18: an
edge is shared across ranks only by squares of the same file). Small ints throughout, which
the compiled core keeps unboxed.

>>> figures(0b111 | 1 << 9)        # a1 b1 c1 a2: one region of four
(16, 4, 4)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, final

from engine.outcomes import Winner

Figures = tuple[int, int, int]
"""(score, largest region, stones) of one colour: what R19 compares, in that order."""

_DIGITS: Final = (bytes.maketrans(b"\0\1\2", b"010"), bytes.maketrans(b"\0\1\2", b"001"))


def bitboards(board: list[int]) -> tuple[int, int]:
    """The bitboards of red's and white's stones on a board of 81 squares holding 0, 1 or 2.

    >>> [bin(b) for b in bitboards([1, 2, 1] + [0] * 78)]
    ['0b101', '0b10']
    """
    stones = bytes(board)[::-1]
    return int(stones.translate(_DIGITS[0]), 2), int(stones.translate(_DIGITS[1]), 2)


def _runs(rank: int) -> tuple[int, ...]:
    """The runs of adjacent set bits of a rank's 9 bits, each a mask, lowest first."""
    out = []
    run = 0
    for f in range(10):
        if rank >> f & 1:
            run |= 1 << f
        elif run:
            out.append(run)
            run = 0
    return tuple(out)


RUNS: Final = tuple(_runs(rank) for rank in range(512))
"""A rank's 9 bits -> its runs (R18: neighbours along the rank)."""
STONES_IN: Final = tuple(rank.bit_count() for rank in range(512))
"""A rank's 9 bits (or a run) -> how many stones."""
_SPLIT: Final = 54  # ranks 1-6 below, 7-9 above: both halves small ints (below 2**62)
_LOW: Final = (1 << _SPLIT) - 1


def _label(bits: int, shapes: list[int] | None) -> list[int]:
    """The regions of `bits` in the order of their lowest square: its size where a region stands,
    below 0 where it was joined to another; with `shapes`, each region's bitboard at the same index.

    A union-find over runs: a region joined to region `r` holds `~r`, and a join keeps the region
    with the lower square, so the order holds. The runs' regions of the rank below are packed in
    `labels`, six bits a run; the ranks come from two halves of the bitboard, small ints both."""
    node: list[int] = []
    below: tuple[int, ...] = ()  # the runs of the rank below, their regions in `labels`
    labels = 0
    half = bits & _LOW
    for shift in range(0, 81, 9):
        if shift == _SPLIT:
            half = bits >> _SPLIT
        runs = RUNS[half & 511]
        half >>= 9
        here = 0
        k = 0
        for run in runs:
            me = -1
            j = 0
            for under in below:
                if under & run:
                    r = labels >> j & 63
                    while node[r] < 0:
                        r = ~node[r]
                    if me < 0:
                        me = r
                        node[r] += STONES_IN[run]
                        if shapes is not None:
                            shapes[r] |= run << shift
                    elif r != me:
                        low, high = (me, r) if me < r else (r, me)
                        node[low] += node[high]
                        node[high] = ~low
                        if shapes is not None:
                            shapes[low] |= shapes[high]
                        me = low
                j += 6
            if me < 0:
                me = len(node)
                node.append(STONES_IN[run])
                if shapes is not None:
                    shapes.append(run << shift)
            here |= me << k
            k += 6
        below, labels = runs, here
    return node


def regions(bits: int) -> list[int]:
    """The regions of a bitboard, each a bitboard: largest first, equal sizes by their lowest square."""
    shapes: list[int] = []
    node = _label(bits, shapes)
    order = [(81 - n) << 6 | r for r, n in enumerate(node) if n > 0]  # larger first, then the lower square
    order.sort()
    return [shapes[key & 63] for key in order]


def figures(bits: int) -> Figures:
    """(score, largest region, stones) of one colour: the tie-break figures of R19."""
    score = largest = 0
    for n in _label(bits, None):
        if n > 0:
            score += n * n
            if n > largest:
                largest = n
    return score, largest, bits.bit_count()


def squares(bits: int) -> list[int]:
    """The square indexes set in a bitboard, ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def winner(red: Figures, white: Figures) -> Winner:
    """R19: higher score, then larger single region, then more stones, else a draw.

    `red` and `white` are (score, largest, stones) tuples.
    """
    if red == white:
        return Winner.DRAW
    return Winner.RED if red > white else Winner.WHITE


@final
@dataclass(slots=True, repr=False)
class Side:
    """One colour's standing: score, largest region, stones, and its regions (bitboards, largest
    first), found when first asked for: a game's result needs only the figures."""

    score: int
    largest: int
    stones: int
    bits: int
    found: tuple[int, ...] | None = field(default=None, init=False, compare=False)  # the regions, once asked for

    @classmethod
    def of(cls, bits: int) -> Side:
        """The standing of the colour whose stones are `bits`."""
        score, largest, stones = figures(bits)
        return cls(score, largest, stones, bits)

    @property
    def regions(self) -> tuple[int, ...]:
        """The regions, each a bitboard, largest first (equal sizes by their lowest square)."""
        if self.found is None:
            self.found = tuple(regions(self.bits))
        return self.found

    @property
    def figures(self) -> Figures:
        """(score, largest region, stones): what R19 compares."""
        return self.score, self.largest, self.stones

    def __repr__(self) -> str:
        return f"Side(score={self.score}, largest={self.largest}, stones={self.stones}, regions={self.regions})"
