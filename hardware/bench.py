"""`roseking bench --only frame`: building and pushing one complete frame through the Pi
backend's code (NeoPixel buffer + MAX7219 register writes), the hardware writes captured.

Runs under `BLINKA_OS_AGNOSTIC=1` (set here) with `neopixel.neopixel_write` replaced by
a function that copies the buffer, luma's `noop()` serial and the buttons on gpiozero's
mock pins; target ≤ 2 ms a frame.

The drivers' own time is not in that figure, so `pi4_budget_ms` and `pi5_budget_ms` add it, from the
drivers' code: on a Pi 4, Blinka's rpi_ws281x `show()` starts the DMA and then sleeps
1 ms per 100 bytes, plus 1 (3 ms for 81 LEDs) so that the LEDs latch; on a Pi 5 the PIO
driver's write lasts about the wire time (24 bits × 1.25 µs per LED, 2.43 ms for 81),
and it keeps the next write 1 ms after the last one. The displays' SPI writes (8 of 2
bytes per matrix) take their bits' time at `spi_speed_hz`.
"""
import os
import statistics
import timeit
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from gpiozero.pins.mock import MockFactory
from luma.core.interface.serial import noop

from hardware.buttons import Buttons
from hardware.config import parse_config
from hardware.devices import Devices
from hardware.frame import CELLS, RGB, Bitmap, Frame
from hardware.glyphs import DIRECTIONS, glyph
from hardware.lights import NeoPixelLights
from hardware.matrices import MatrixDisplays

RUNS = 300
TARGET_MS = 2.0
T = TypeVar("T")
WIRE_MS = CELLS * 24 * 1.25e-3                  # 800 kHz, 24 bits an LED
PI4_SLEEP_MS = float(3 * CELLS // 100 + 1)      # Blinka's bcm283x neopixel_write: 1 ms per 100 bytes, plus 1


def driver_ms(displays: int, spi_speed_hz: int) -> dict[str, float]:
    """Each model's time in the drivers for one frame: the NeoPixel write, then the displays' SPI bits."""
    spi = 8 * displays * 2 * 8 / spi_speed_hz * 1000
    return {"pi4": round(PI4_SLEEP_MS + spi, 3), "pi5": round(WIRE_MS + spi, 3)}


def busy_picture(slots: Sequence[str], i: int) -> tuple[list[RGB], dict[str, Bitmap]]:
    """`(board, displays)`: every LED in a different colour (over the supply limit), a card on every display."""
    board = [((i + 7 * c) % 256, (3 * c) % 256, (255 - c - i) % 256) for c in range(CELLS)]
    cards = [glyph(f"{DIRECTIONS[(i + n) % 8]}{1 + (i + n) % 3}") for n in range(len(slots))]
    return board, dict(zip(slots, cards))


def median_ms(action: Callable[[T], object], inputs: Sequence[T]) -> float:
    """The median milliseconds of `action(x)` over the `inputs`, one timing each (timeit, collection on)."""
    todo = iter(inputs)
    times = timeit.repeat(lambda: action(next(todo)), "gc.enable()", number=1, repeat=len(inputs))
    return statistics.median(times) * 1000


def figures(quick: bool = False) -> Mapping[str, float]:
    """Median milliseconds: a whole frame (building the `Frame` and showing it), its board part, its displays part
    (`quick`: over 20 pictures, not RUNS)."""
    runs = 20 if quick else RUNS
    os.environ["BLINKA_OS_AGNOSTIC"] = "1"     # Blinka's board detection reads it on first import
    import board
    import neopixel

    def capture(pin: object, buf: bytearray) -> None:
        bytes(buf)   # what the driver does with the buffer: read it whole

    real_write, neopixel.neopixel_write = neopixel.neopixel_write, capture
    try:
        config = parse_config({"board": {"supply_amps": 2.0}})
        lights = NeoPixelLights(config.board, board.NEOPIXEL)
        displays = MatrixDisplays(config.displays, noop())
        b = config.buttons
        factory = MockFactory()
        buttons = Buttons(b.pins, b.timing, factory)
        with Devices("pi", lights, displays, buttons, [factory.close]) as devices:
            pictures = [busy_picture(displays.slots, i) for i in range(runs)]
            frame_ms = median_ms(lambda picture: devices.show(Frame(*picture)), pictures)
            frames = [Frame(*picture) for picture in pictures]
            drivers = driver_ms(len(displays.slots), config.displays.spi_speed_hz)
            return {
                "frame_ms": round(frame_ms, 3),
                **{f"{model}_driver_ms": ms for model, ms in drivers.items()},
                **{f"{model}_budget_ms": round(frame_ms + ms, 3) for model, ms in drivers.items()},
                "board_ms": round(median_ms(lambda f: lights.show(f.board), frames), 3),
                "displays_ms": round(median_ms(lambda f: displays.show(f.displays), frames), 3),
                "displays": len(displays.slots),
                "target_ms": TARGET_MS,
                "runs": runs,
            }
    finally:
        neopixel.neopixel_write = real_write
