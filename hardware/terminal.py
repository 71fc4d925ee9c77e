"""The simulator's terminal picture: the board in true-colour blocks, the card displays
with the same bitmaps the matrices show, and the key map.

The picture is redrawn in place at the top of the screen; everything else printed
(e.g. the self-test's messages) scrolls in the region below it.
"""
from hardware.frame import SIZE, Frame, bitmap_rows
from hardware.names import slots_by_seat
from hardware.snapshot import DOT_OFF, DOT_ON

RESET = "\x1b[0m"
DARK = (70, 70, 70)


def _fg(c):
    return "\x1b[38;2;%d;%d;%dm" % tuple(c)


def _bg(c):
    return "\x1b[48;2;%d;%d;%dm" % tuple(c)


def board_lines(frame):
    """Nine lines, rank 9 first, each cell two columns wide, with rank and file labels."""
    lines = []
    for row in range(SIZE):
        cells = []
        for colour in frame.board[row * SIZE:(row + 1) * SIZE]:
            cells.append(_fg(DARK) + "··" if colour == (0, 0, 0) else _bg(colour) + "  ")
        lines.append(f"{SIZE - row} " + (RESET + " ").join(cells) + RESET)
    return lines + ["  " + "  ".join("abcdefghi")]


def display_lines(frame, seat, slots):
    """A seat's displays side by side: a label line, then 4 lines of half blocks (8 rows)."""
    label = f"{seat}:".ljust(7)
    lines = [label + " ".join(s.rpartition(".")[2].center(8) for s in slots)]
    pictures = [bitmap_rows(frame.bitmap(s)) for s in slots]
    for y in range(0, 8, 2):
        parts = []
        for rows in pictures:
            parts.append("".join(_fg(DOT_ON if top == "#" else DOT_OFF) + _bg(DOT_ON if bottom == "#" else DOT_OFF)
                                 + "▀" for top, bottom in zip(rows[y], rows[y + 1])) + RESET)
        lines.append(" " * 7 + " ".join(parts))
    return lines


def picture_lines(frame, slots, seats, legend):
    """The whole picture: other seats' displays, the board, the first seat's displays, the key map."""
    rows = slots_by_seat(slots, seats)
    lines = []
    for seat, row in rows[1:]:
        lines += display_lines(frame, seat, row)
    lines += [""] + ["       " + ln for ln in board_lines(frame)] + [""]
    for seat, row in rows[:1]:
        lines += display_lines(frame, seat, row)
    return lines + legend


class TerminalView:
    """Draws frames in place at the top of a true-colour terminal."""

    def __init__(self, out, slots, seats, legend):
        self.out, self.slots, self.seats, self.legend = out, slots, seats, legend
        self.height = len(picture_lines(Frame(), slots, seats, legend)) + 1
        # clear, reserve the picture's lines, let the rest scroll below them
        out.write(f"\x1b[2J\x1b[{self.height + 1};r\x1b[{self.height + 1};1H")
        out.flush()

    def draw(self, frame):
        lines = picture_lines(frame, self.slots, self.seats, self.legend)
        body = "".join(f"\x1b[{i + 1};1H\x1b[2K{ln}" for i, ln in enumerate(lines))
        self.out.write("\x1b7" + body + "\x1b8")
        self.out.flush()

    def close(self):
        self.out.write("\x1b[r\x1b[999;1H\n")
        self.out.flush()

