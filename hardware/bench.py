"""`roseking bench --only frame`: building and pushing one complete frame through the Pi
backend's code (NeoPixel buffer + MAX7219 register writes), the hardware writes captured.

Runs under `BLINKA_OS_AGNOSTIC=1` (set here) with `neopixel.neopixel_write` replaced by
a function that copies the buffer, and luma's `noop()` serial; target ≤ 2 ms a frame.
"""
import os
import statistics
import time

from luma.core.interface.serial import noop

from hardware.config import parse_config
from hardware.devices import Devices
from hardware.frame import CELLS, Frame
from hardware.glyphs import DIRECTIONS, glyph
from hardware.lights import NeoPixelLights
from hardware.matrices import MatrixDisplays

RUNS = 300
TARGET_MS = 2.0


def busy_picture(slots, i):
    """`(board, displays)`: every LED in a different colour (over the supply limit), a card on every display."""
    board = [((i + 7 * c) % 256, (3 * c) % 256, (255 - c - i) % 256) for c in range(CELLS)]
    cards = [glyph(f"{DIRECTIONS[(i + n) % 8]}{1 + (i + n) % 3}") for n in range(len(slots))]
    return board, dict(zip(slots, cards))


def _median_ms(action, frames):
    times = []
    for frame in frames:
        start = time.perf_counter()
        action(frame)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def figures():
    """Median milliseconds: a whole frame (building the `Frame` and showing it), its board part, its displays part."""
    os.environ["BLINKA_OS_AGNOSTIC"] = "1"     # Blinka's board detection reads it on first import
    import board
    import neopixel

    def capture(pin, buf):
        capture.last = bytes(buf)

    real_write, neopixel.neopixel_write = neopixel.neopixel_write, capture
    try:
        config = parse_config({"board": {"supply_amps": 2.0}})
        lights = NeoPixelLights(config.board, board.NEOPIXEL)
        displays = MatrixDisplays(config.displays, noop())
        devices = Devices("pi", lights, displays, buttons=None)
        pictures = [busy_picture(displays.slots, i) for i in range(RUNS)]
        frame_ms = _median_ms(lambda picture: devices.show(Frame(*picture)), pictures)
        frames = [Frame(*picture) for picture in pictures]
        return {
            "frame_ms": round(frame_ms, 3),
            "board_ms": round(_median_ms(lambda f: lights.show(f.board), frames), 3),
            "displays_ms": round(_median_ms(lambda f: displays.show(f.displays), frames), 3),
            "displays": len(displays.slots),
            "target_ms": TARGET_MS,
            "runs": RUNS,
        }
    finally:
        neopixel.neopixel_write = real_write
