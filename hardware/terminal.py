"""The simulator's terminal picture: the board in true-colour blocks, the card displays
with the same bitmaps the matrices show, the key map and the frame's caption.

The picture is the table seen from above, rank 9 at the top, as the snapshots draw it:
each seat's displays along its edge (those along the west and east edges folded two
wide), dimmed displays in a dim red, and the frame's caption in two lines at the bottom.
Two seats and a teams table fit a terminal of 80 × 24. The picture is redrawn in place at
the top of the screen; everything else printed scrolls in the region below it. A terminal
too small for it is told, instead of the picture, what size it needs, until it is made larger
(its size is read at every frame).
"""
import os
import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import TextIO

from hardware.frame import RGB, SIZE, Frame, bitmap_rows
from hardware.names import panels_by_side, split_name
from hardware.snapshot import DOT_DIM, DOT_OFF, DOT_ON

RESET = "\x1b[0m"
DARK = (70, 70, 70)
LABEL = 7               # the seat's name before its displays
WIDTH = 80
CAPTION_LINES = 2
_ESCAPES = re.compile(r"\x1b\[[0-9;]*m")


def _fg(c: RGB) -> str:
    return "\x1b[38;2;%d;%d;%dm" % tuple(c)


def _bg(c: RGB) -> str:
    return "\x1b[48;2;%d;%d;%dm" % tuple(c)


def visible_width(line: str) -> int:
    """The columns `line` takes on screen (its colour escapes take none)."""
    return len(_ESCAPES.sub("", line))


def beside(*blocks: list[str], gap: int = 2) -> list[str]:
    """Blocks of lines side by side, each padded to its widest line, tops aligned."""
    shown = [b for b in blocks if b]
    widths = [max(map(visible_width, b)) for b in shown]
    rows = max(map(len, shown), default=0)
    padded = [[*b, *[""] * (rows - len(b))] for b in shown]
    return [(" " * gap).join(b[i] + " " * (w - visible_width(b[i])) for b, w in zip(padded, widths)).rstrip()
            for i in range(rows)]


def board_lines(frame: Frame) -> list[str]:
    """Nine lines, rank 9 first, each cell two columns wide, with rank and file labels."""
    lines = []
    for row in range(SIZE):
        cells = []
        for colour in frame.board[row * SIZE:(row + 1) * SIZE]:
            cells.append(_fg(DARK) + "··" if colour == (0, 0, 0) else _bg(colour) + "  ")
        lines.append(f"{SIZE - row} " + (RESET + " ").join(cells) + RESET)
    return lines + ["  " + "  ".join("abcdefghi")]


def dots(frame: Frame, slot: str) -> list[str]:
    """A display's 8 rows as 4 lines of half blocks, 8 columns wide."""
    rows = bitmap_rows(frame.bitmap(slot))
    lit = DOT_DIM if slot in frame.dimmed else DOT_ON
    return ["".join(_fg(lit if top == "#" else DOT_OFF) + _bg(lit if bottom == "#" else DOT_OFF) + "▀"
                    for top, bottom in zip(rows[y], rows[y + 1])) + RESET for y in range(0, 8, 2)]


def panel_lines(frame: Frame, slots: Sequence[str], across: int) -> list[str]:
    """A seat's displays, `across` side by side in each fold: a label line (the seat's name first, then
    each display's control), then their 4 lines of dots."""
    lines: list[str] = []
    for i in range(0, len(slots), max(1, across)):
        fold = slots[i:i + across]
        head = f"{split_name(slots[0])[0]}:".ljust(LABEL) if i == 0 else " " * LABEL
        pictures = [dots(frame, s) for s in fold]
        lines += [head + " ".join(split_name(s)[1].center(8) for s in fold)] + [
            " " * LABEL + " ".join(p[y] for p in pictures) for y in range(4)]
    return lines


def caption_lines(caption: str) -> list[str]:
    """`caption` in `CAPTION_LINES` lines of at most `WIDTH` columns, broken between words (what would
    not fit ends in `…`).

    >>> caption_lines("red to move · red 3, white 1 · 50 stones left")
    ['red to move · red 3, white 1 · 50 stones left', '']
    """
    lines = textwrap.wrap(caption, WIDTH, max_lines=CAPTION_LINES, placeholder=" …", break_on_hyphens=False)
    return lines + [""] * (CAPTION_LINES - len(lines))


def picture_lines(frame: Frame, slots: Sequence[str], sides: Mapping[str, str], legend: list[str]) -> list[str]:
    """The whole picture: the north row, then the west displays, the board and the east displays,
    then the south row, the key map beside whichever leaves room, and the caption last."""
    panels = panels_by_side(slots, sides)
    west, east = (panel_lines(frame, panels.get(side, ()), 2) for side in ("west", "east"))
    north, south = (panel_lines(frame, row, len(row)) for row in (panels.get("north", ()), panels.get("south", ())))
    board = board_lines(frame)
    if not west:
        board = [" " * LABEL + line for line in board]
    if east:
        top = beside(north, legend)
        middle = beside(west, board, east)
    else:
        top = north
        middle = beside(west, board, legend)
    return top + middle + south + caption_lines(frame.caption)


class TerminalView:
    """Draws frames in place at the top of a true-colour terminal."""

    def __init__(self, out: TextIO, slots: Sequence[str], sides: Mapping[str, str], legend: list[str]) -> None:
        self.out, self.slots, self.sides, self.legend = out, slots, sides, legend
        lines = picture_lines(Frame(), slots, sides, legend)
        self.height = len(lines)
        self.need = (max(WIDTH, *map(visible_width, lines)), self.height + 2)
        self.told: tuple[int, int] | None = None    # the size a too small terminal was told about
        self._reserve()

    def _reserve(self) -> None:
        """Clear, reserve the picture's lines, let the rest scroll below them."""
        self.out.write(f"\x1b[2J\x1b[{self.height + 1};r\x1b[{self.height + 1};1H")
        self.out.flush()

    def draw(self, frame: Frame) -> None:
        have = _size(self.out)
        if have is not None and (have[0] < self.need[0] or have[1] < self.need[1]):
            if have != self.told:       # said once for each size, on a clear screen: nothing draws over it
                self.out.write(f"\x1b[r\x1b[2J\x1b[H{too_small(self.need, have)}\n")
                self.out.flush()
                self.told = have
            return
        if self.told is not None:       # made larger: the picture comes back
            self.told = None
            self._reserve()
        lines = picture_lines(frame, self.slots, self.sides, self.legend)
        body = "".join(f"\x1b[{i + 1};1H\x1b[2K{ln}" for i, ln in enumerate(lines))
        self.out.write("\x1b7" + body + "\x1b8")
        self.out.flush()

    def close(self) -> None:
        """Give the whole screen back to scrolling text and put the cursor below the picture."""
        self.out.write("\x1b[r\x1b[999;1H\n")
        self.out.flush()


def too_small(need: tuple[int, int], have: tuple[int, int]) -> str:
    """What a terminal too small for the picture is told.

    >>> too_small((80, 25), (70, 20))
    'roseking: the picture needs a terminal of 80 x 25 (this one is 70 x 20): make it larger'
    """
    return (f"roseking: the picture needs a terminal of {need[0]} x {need[1]} (this one is {have[0]} x {have[1]}): "
            "make it larger")


def _size(out: TextIO) -> tuple[int, int] | None:
    """(columns, lines) of the terminal `out` writes to, or None when it is not one."""
    try:
        size = os.get_terminal_size(out.fileno())
    except (AttributeError, ValueError, OSError):
        return None
    return size.columns, size.lines
