"""`--snapshot DIR`: PNG pictures of the board and the card displays (Pillow).

The first seat's displays sit below the board (its side of the table), the other
seats' above. Each shown frame becomes `DIR/frame-000001.png`, … written to a
temporary name and renamed, so no half-written picture is ever seen.
"""
import os
from pathlib import Path

from PIL import Image, ImageDraw

from hardware.errors import HardwareError
from hardware.frame import SIZE
from hardware.names import slots_by_seat

MARGIN, CELL, LED = 16, 28, 24          # board: cell pitch and lit square
DOT, DOT_PITCH, SLOT_GAP, ROW_GAP = 4, 5, 10, 14
DISPLAY = 8 * DOT_PITCH
BACKGROUND = (24, 24, 24)
DOT_ON, DOT_OFF = (255, 48, 32), (56, 12, 8)


class Picture:
    """Where the board cells and the display dots go in a snapshot, and how to draw one."""

    def __init__(self, slots, seats):
        rows = slots_by_seat(slots, seats)
        board_px = SIZE * CELL
        row_px = max([len(r) * (DISPLAY + SLOT_GAP) - SLOT_GAP for _, r in rows] + [board_px])
        width = row_px + 2 * MARGIN
        self.slot_origin = {}
        y = MARGIN
        for _, row in rows[1:] + [(None, None)] + rows[:1]:
            if row is None:
                self.board_origin = ((width - board_px) // 2, y)
                y += board_px + ROW_GAP
                continue
            x = (width - (len(row) * (DISPLAY + SLOT_GAP) - SLOT_GAP)) // 2
            for slot in row:
                self.slot_origin[slot] = (x, y)
                x += DISPLAY + SLOT_GAP
            y += DISPLAY + ROW_GAP
        self.size = (width, y - ROW_GAP + MARGIN)

    def cell_box(self, row, col):
        """The lit square of board cell (row 0 = rank 9, col 0 = file a)."""
        x, y = self.board_origin[0] + col * CELL, self.board_origin[1] + row * CELL
        return (x, y, x + LED - 1, y + LED - 1)

    def dot_box(self, slot, x, y):
        """The dot at column x, row y of display `slot`."""
        ox, oy = self.slot_origin[slot]
        return (ox + x * DOT_PITCH, oy + y * DOT_PITCH, ox + x * DOT_PITCH + DOT - 1, oy + y * DOT_PITCH + DOT - 1)

    def render(self, frame):
        """An RGB image of `frame`."""
        image = Image.new("RGB", self.size, BACKGROUND)
        draw = ImageDraw.Draw(image)
        for i, colour in enumerate(frame.board):
            draw.rectangle(self.cell_box(*divmod(i, SIZE)), fill=colour)
        for slot in self.slot_origin:
            for y, byte in enumerate(frame.bitmap(slot)):
                for x in range(8):
                    draw.rectangle(self.dot_box(slot, x, y), fill=DOT_ON if byte & (0x80 >> x) else DOT_OFF)
        return image


class Snapshots:
    """Writes one numbered PNG per shown frame into a directory (created if missing)."""

    def __init__(self, directory, slots, seats):
        self.directory = Path(directory)
        self.picture = Picture(slots, seats)
        self.count = 0
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise HardwareError(f"--snapshot {directory}: cannot create ({exc.strerror})") from None

    def write(self, frame):
        """Save `frame` as the next picture; returns its path."""
        self.count += 1
        path = self.directory / f"frame-{self.count:06d}.png"
        temp = path.with_name(path.name + ".tmp")
        try:
            self.picture.render(frame).save(temp, format="PNG")
            os.replace(temp, path)
        except OSError as exc:
            raise HardwareError(f"--snapshot {self.directory}: cannot write ({exc.strerror})") from None
        return path
