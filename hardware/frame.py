"""The picture both backends show: 81 board colours and one 8 × 8 bitmap per card display.

A colour is an `(r, g, b)` tuple of 0–255 integers. The board lists its 81 cells
row by row, rank 9 first and file a first (row 0 is the top of the frame as seen
from red's side of the table). A bitmap is a tuple of 8 row bytes, top row first,
bit 7 the leftmost column.

>>> f = Frame.solid((255, 0, 0))
>>> f.hex_board()[:2]
['#ff0000', '#ff0000']
>>> bitmap_rows((0x81,) + (0,) * 7)[0]
'#......#'
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

RGB = tuple[int, int, int]
"""A colour: red, green, blue, each 0–255."""
Bitmap = tuple[int, ...]
"""An 8 × 8 picture: 8 row bytes, top row first, bit 7 the leftmost column."""

SIZE = 9
CELLS = SIZE * SIZE
BLACK: RGB = (0, 0, 0)
BLANK: Bitmap = (0,) * 8


@dataclass(frozen=True)
class Frame:
    """One complete picture: `board` (81 colours), `displays` (slot name → bitmap), the display slots
    lit at the dim intensity (`dimmed`, every dot still lit), and a `caption`: a line of text for the
    views that have room for one (the simulator's terminal; the Pi shows none).

    Display slots missing from `displays` are shown blank. Any sequence of 81 colours
    will do for `board`; the frame keeps it as a tuple, and `dimmed` as a frozenset.

    >>> Frame(dimmed=["white.card1"]).dimmed
    frozenset({'white.card1'})
    """
    board: Sequence[RGB] = (BLACK,) * CELLS
    displays: Mapping[str, Bitmap] = field(default_factory=dict)
    dimmed: frozenset[str] = frozenset()
    caption: str = ""

    def __post_init__(self) -> None:
        board = tuple(self.board)
        if len(board) != CELLS:
            raise ValueError(f"a frame has {CELLS} board colours, got {len(board)}")
        object.__setattr__(self, "board", board)
        for slot, bitmap in self.displays.items():
            if len(bitmap) != 8:
                raise ValueError(f"display {slot}: a bitmap has 8 rows, got {len(bitmap)}")
        object.__setattr__(self, "displays", MappingProxyType(dict(self.displays)))
        object.__setattr__(self, "dimmed", frozenset(self.dimmed))

    @classmethod
    def solid(cls, colour: Iterable[int], displays: Mapping[str, Bitmap] | None = None) -> Frame:
        """A frame with every board cell in `colour`."""
        r, g, b = colour
        return cls(((r, g, b),) * CELLS, displays or {})

    def hex_board(self) -> list[str]:
        """The board as 81 `#rrggbb` strings, rank 9 first, file a first."""
        return [hex_colour(c) for c in self.board]

    def bitmap(self, slot: str) -> Bitmap:
        """The bitmap shown on `slot` (blank when the frame leaves it out)."""
        return self.displays.get(slot, BLANK)


def hex_colour(colour: RGB) -> str:
    """`colour` as `#rrggbb`, as web pages and the frame dump write it.

    >>> hex_colour((255, 150, 0))
    '#ff9600'
    """
    return "#%02x%02x%02x" % colour


def bitmap_rows(bitmap: Bitmap) -> list[str]:
    """A bitmap as 8 strings of `#` (lit) and `.` (dark), top row first."""
    return ["".join("#" if byte & (0x80 >> x) else "." for x in range(8)) for byte in bitmap]


def bitmap_from_rows(rows: Sequence[str]) -> Bitmap:
    """The bitmap drawn by 8 strings of `#` and `.` (the inverse of `bitmap_rows`)."""
    if len(rows) != 8 or any(len(r) != 8 for r in rows):
        raise ValueError("a bitmap is drawn as 8 rows of 8 characters")
    return tuple(sum(0x80 >> x for x, ch in enumerate(r) if ch == "#") for r in rows)


def check_slots(displays: Iterable[str], slots: Iterable[str]) -> None:
    """Raise ValueError if `displays` names a slot that is not in `slots`."""
    unknown = set(displays).difference(slots)
    if unknown:
        raise ValueError(f"no display slot {sorted(unknown)[0]!r} (slots: {', '.join(slots)})")


@lru_cache(maxsize=4096)
def turn(bitmap: Bitmap, rotation: int, flip: bool = False) -> Bitmap:
    """`bitmap` turned clockwise by `rotation` degrees (0, 90, 180, 270), then mirrored left–right if `flip`.

    >>> bitmap_rows(turn(bitmap_from_rows(["#......."] + ["........"] * 7), 90))[0]
    '.......#'
    >>> turn((0x80,) + (0,) * 7, 180, flip=True)[7]
    128
    """
    rows = bitmap_rows(bitmap)
    for _ in range(rotation // 90 % 4):
        rows = ["".join(rows[7 - y][x] for y in range(8)) for x in range(8)]
    if flip:
        rows = [row[::-1] for row in rows]
    return bitmap_from_rows(rows)
