"""Regions and scores (R18) and the winner with its tie-breaks (R19), on bitboards.

A bitboard is an int whose bit `sq` is set when square `sq` holds a stone of one colour.

>>> figures(0b111 | 1 << 9)        # a1 b1 c1 a2: one region of four
(16, 4, 4)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.outcomes import Winner

Figures = tuple[int, int, int]
"""(score, largest region, stones) of one colour: what R19 compares, in that order."""

FULL: Final = (1 << 81) - 1
FILE_A: Final = sum(1 << (9 * r) for r in range(9))
FILE_I: Final = FILE_A << 8
NOT_A: Final = FULL & ~FILE_A
NOT_I: Final = FULL & ~FILE_I


_DIGITS: Final = (bytes.maketrans(b"\0\1\2", b"010"), bytes.maketrans(b"\0\1\2", b"001"))


def bitboard(board: list[int], colour: int) -> int:
    """The bitboard of the stones of `colour` (1 red, 2 white) on a board of 81 squares holding 0, 1 or 2.

    >>> bin(bitboard([1, 2, 1] + [0] * 78, 1))
    '0b101'
    """
    return int(bytes(board).translate(_DIGITS[colour - 1])[::-1], 2)


def _grow(region: int, bits: int) -> int:
    """The region of `bits` connected by edges (R18) to the seed `region`."""
    while True:
        grown = (region | (region << 9) | (region >> 9)
                 | ((region << 1) & NOT_A) | ((region >> 1) & NOT_I)) & bits
        if grown == region:
            return region
        region = grown


def _alone(bits: int) -> int:
    """The stones of `bits` with no neighbour in `bits`: regions of one, found without a flood fill."""
    return bits & ~((bits << 9) | (bits >> 9) | ((bits << 1) & NOT_A) | ((bits >> 1) & NOT_I))


def regions(bits: int) -> list[int]:
    """The regions of a bitboard, each a bitboard, largest first."""
    alone = _alone(bits)
    bits ^= alone
    out = []
    while bits:
        region = _grow(bits & -bits, bits)
        out.append(region)
        bits ^= region
    out.sort(key=int.bit_count, reverse=True)
    while alone:  # regions of one come last, in square order
        low = alone & -alone
        out.append(low)
        alone ^= low
    return out


def figures(bits: int) -> Figures:
    """(score, largest region, stones) of one colour: the tie-break figures of R19."""
    stones = bits.bit_count()
    alone = _alone(bits)
    score, largest = alone.bit_count(), 1 if alone else 0
    bits ^= alone
    while bits:
        region = _grow(bits & -bits, bits)
        n = region.bit_count()
        score += n * n
        if n > largest:
            largest = n
        bits ^= region
    return score, largest, stones


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


@dataclass(frozen=True)
class Side:
    """One colour's standing: score, largest region, stones, and its regions (bitboards, largest first)."""

    score: int
    largest: int
    stones: int
    regions: tuple[int, ...]

    @classmethod
    def of(cls, bits: int) -> Side:
        """The standing of the colour whose stones are `bits`."""
        found = regions(bits)
        return cls(sum(r.bit_count() ** 2 for r in found), found[0].bit_count() if found else 0,
                   bits.bit_count(), tuple(found))

    @property
    def figures(self) -> Figures:
        """(score, largest region, stones): what R19 compares."""
        return self.score, self.largest, self.stones
