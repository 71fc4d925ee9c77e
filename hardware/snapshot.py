"""`--snapshot DIR`: PNG pictures of the board and the card displays (Pillow).

The picture is the table seen from above, rank 9 at the top: each seat's displays lie
along its edge of the board (`hardware.names.panels_by_side`), dimmed displays at a dim
red. Each shown frame becomes a PNG named `frame-000001.png`, … handed to a
`save(name, png)` callable: the caller decides where and how the file is written.
"""
import io
from collections.abc import Callable, Collection, Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from hardware.frame import RGB, SIZE, Bitmap, Frame
from hardware.names import panels_by_side

MARGIN, CELL, LED = 16, 28, 24          # board: cell pitch and lit square
DOT, DOT_PITCH, SLOT_GAP, ROW_GAP = 4, 5, 10, 14
DISPLAY = 8 * DOT_PITCH
BACKGROUND = (24, 24, 24)
DOT_ON, DOT_DIM, DOT_OFF = (255, 48, 32), (150, 28, 19), (56, 12, 8)
Box = tuple[int, int, int, int]
"""A rectangle in a picture: left, top, right, bottom (inclusive)."""


def _dot(x: int, y: int) -> Box:
    """The dot at column x, row y of a display whose top left corner is at (0, 0)."""
    return (x * DOT_PITCH, y * DOT_PITCH, x * DOT_PITCH + DOT - 1, y * DOT_PITCH + DOT - 1)


@lru_cache(maxsize=256)
def _display(bitmap: Bitmap, lit: RGB) -> Image.Image:
    """One display showing `bitmap` in the colour `lit`, on the background: drawn once, pasted into every picture
    that shows it (a game's displays show the same few cards again and again)."""
    tile = Image.new("RGB", (DISPLAY, DISPLAY), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    for y, byte in enumerate(bitmap):
        for x in range(8):
            draw.rectangle(_dot(x, y), fill=lit if byte & (0x80 >> x) else DOT_OFF)
    return tile


def _run(count: int) -> int:
    """The length in pixels of `count` displays in a row or a column."""
    return max(0, count * (DISPLAY + SLOT_GAP) - SLOT_GAP)


class Picture:
    """Where the board cells and the display dots go in a snapshot, and how to draw one."""

    def __init__(self, slots: Collection[str], sides: Mapping[str, str]) -> None:
        panels = panels_by_side(slots, sides)
        north, south, west, east = (panels.get(side, ()) for side in ("north", "south", "west", "east"))
        board_px = SIZE * CELL
        left = DISPLAY + ROW_GAP if west else 0
        middle = max(board_px, _run(len(north)), _run(len(south)))
        band = max(board_px, _run(len(west)), _run(len(east)))
        top = MARGIN + (DISPLAY + ROW_GAP if north else 0)
        self.size = (MARGIN + left + middle + (ROW_GAP + DISPLAY if east else 0) + MARGIN,
                     top + band + (ROW_GAP + DISPLAY if south else 0) + MARGIN)
        centre = MARGIN + left + middle // 2
        self.board_origin = (centre - board_px // 2, top + (band - board_px) // 2)
        self.slot_origin: dict[str, tuple[int, int]] = {}
        for row, y in ((north, MARGIN), (south, top + band + ROW_GAP)):
            for i, slot in enumerate(row):
                self.slot_origin[slot] = (centre - _run(len(row)) // 2 + i * (DISPLAY + SLOT_GAP), y)
        for column, x in ((west, MARGIN), (east, MARGIN + left + middle + ROW_GAP)):
            for i, slot in enumerate(column):
                self.slot_origin[slot] = (x, top + (band - _run(len(column))) // 2 + i * (DISPLAY + SLOT_GAP))

    def cell_box(self, row: int, col: int) -> Box:
        """The lit square of board cell (row 0 = rank 9, col 0 = file a)."""
        x, y = self.board_origin[0] + col * CELL, self.board_origin[1] + row * CELL
        return (x, y, x + LED - 1, y + LED - 1)

    def dot_box(self, slot: str, x: int, y: int) -> Box:
        """The dot at column x, row y of display `slot`."""
        ox, oy = self.slot_origin[slot]
        left, top, right, bottom = _dot(x, y)
        return (ox + left, oy + top, ox + right, oy + bottom)

    def render(self, frame: Frame) -> Image.Image:
        """An RGB image of `frame`."""
        image = Image.new("RGB", self.size, BACKGROUND)
        draw = ImageDraw.Draw(image)
        for i, colour in enumerate(frame.board):
            draw.rectangle(self.cell_box(*divmod(i, SIZE)), fill=colour)
        for slot, origin in self.slot_origin.items():
            image.paste(_display(frame.bitmap(slot), DOT_DIM if slot in frame.dimmed else DOT_ON), origin)
        return image


class Snapshots:
    """Hands one numbered PNG per shown frame to `save(name, png bytes)`."""

    def __init__(self, save: Callable[[str, bytes], None], slots: tuple[str, ...], sides: Mapping[str, str]) -> None:
        self.save = save
        self.picture = Picture(slots, sides)
        self.count = 0

    def write(self, frame: Frame) -> str:
        """Save `frame` as the next picture; returns its name."""
        self.count += 1
        name = f"frame-{self.count:06d}.png"
        png = io.BytesIO()
        self.picture.render(frame).save(png, format="PNG", compress_level=1)   # fast: a picture a frame
        self.save(name, png.getvalue())
        return name
