"""`--snapshot DIR`: PNG pictures of the board and the card displays (Pillow).

The first seat's displays sit below the board (its side of the table), the other
seats' above. Each shown frame becomes a PNG named `frame-000001.png`, … handed to a
`save(name, png)` callable: the caller decides where and how the file is written.
"""
import io
from collections.abc import Callable, Collection, Iterable

from PIL import Image, ImageDraw

from hardware.frame import SIZE, Frame
from hardware.names import slots_by_seat

MARGIN, CELL, LED = 16, 28, 24          # board: cell pitch and lit square
DOT, DOT_PITCH, SLOT_GAP, ROW_GAP = 4, 5, 10, 14
DISPLAY = 8 * DOT_PITCH
BACKGROUND = (24, 24, 24)
DOT_ON, DOT_OFF = (255, 48, 32), (56, 12, 8)
Box = tuple[int, int, int, int]
"""A rectangle in a picture: left, top, right, bottom (inclusive)."""


class Picture:
    """Where the board cells and the display dots go in a snapshot, and how to draw one."""

    def __init__(self, slots: Collection[str], seats: Iterable[str]) -> None:
        rows = slots_by_seat(slots, seats)
        board_px = SIZE * CELL
        row_px = max([len(r) * (DISPLAY + SLOT_GAP) - SLOT_GAP for _, r in rows] + [board_px])
        width = row_px + 2 * MARGIN
        self.slot_origin: dict[str, tuple[int, int]] = {}
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

    def cell_box(self, row: int, col: int) -> Box:
        """The lit square of board cell (row 0 = rank 9, col 0 = file a)."""
        x, y = self.board_origin[0] + col * CELL, self.board_origin[1] + row * CELL
        return (x, y, x + LED - 1, y + LED - 1)

    def dot_box(self, slot: str, x: int, y: int) -> Box:
        """The dot at column x, row y of display `slot`."""
        ox, oy = self.slot_origin[slot]
        return (ox + x * DOT_PITCH, oy + y * DOT_PITCH, ox + x * DOT_PITCH + DOT - 1, oy + y * DOT_PITCH + DOT - 1)

    def render(self, frame: Frame) -> Image.Image:
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
    """Hands one numbered PNG per shown frame to `save(name, png bytes)`."""

    def __init__(self, save: Callable[[str, bytes], None], slots: tuple[str, ...], seats: tuple[str, ...]) -> None:
        self.save = save
        self.picture = Picture(slots, seats)
        self.count = 0

    def write(self, frame: Frame) -> str:
        """Save `frame` as the next picture; returns its name."""
        self.count += 1
        name = f"frame-{self.count:06d}.png"
        png = io.BytesIO()
        self.picture.render(frame).save(png, format="PNG")
        self.save(name, png.getvalue())
        return name
