"""The board on a Pi: 81 WS2812 LEDs through adafruit-circuitpython-neopixel.

Frames go through the layout map, gamma, the brightness cap (at the level set at run time) and
the supply limit, then into one `NeoPixel` buffer (`auto_write=False`) that is sent with one `show()`.
"""
from collections.abc import Sequence
from typing import Protocol

from hardware.config import BoardConfig
from hardware.frame import BLACK, CELLS, RGB
from hardware.layout import cell_of_led
from hardware.power import Dimmer


class DataPin(Protocol):
    """What is used of the NeoPixel's data pin (a Blinka `DigitalInOut`)."""

    def deinit(self) -> None: ...


class Pixels(Protocol):
    """What is used of adafruit-circuitpython-neopixel's `NeoPixel` (it has no type information)."""

    pin: DataPin

    def __setitem__(self, index: slice, colours: Sequence[RGB]) -> None: ...

    def show(self) -> None: ...

    def deinit(self) -> None: ...


class NeoPixelLights:
    """Shows 9 × 9 frames on a NeoPixel chain on `pin` (a `board` pin object).

    Opening blanks the board once, so that a driver that cannot start fails now, not
    mid-game; if it fails, only the data pin is released: a driver whose start failed
    is never written to again (rpi_ws281x would follow a null pointer, the Pi 5 driver
    would retry and replace the first error with its own).
    """

    def __init__(self, config: BoardConfig, pin: object) -> None:
        import neopixel   # needs Blinka's board detection: a Pi, or BLINKA_OS_AGNOSTIC=1
        self._pixels: Pixels = neopixel.NeoPixel(pin, CELLS, brightness=1.0, auto_write=False,
                                                 pixel_order=config.pixel_order)
        self._cells = cell_of_led(config.start, config.serpentine, config.rotation)
        self._dimmer = Dimmer(config.gamma, config.brightness, config.supply_amps, CELLS)
        self._board: Sequence[RGB] = (BLACK,) * CELLS
        try:
            self._pixels.show()          # a new buffer is all zeros: every LED off
        except BaseException:
            self._pixels.pin.deinit()
            raise

    def show(self, board: Sequence[RGB]) -> None:
        """Send `board` (81 colours, rank 9 first, file a first) to the LEDs."""
        self._board = board
        levels = self._dimmer.levels(board)
        self._pixels[:] = [levels[c] for c in self._cells]
        self._pixels.show()

    def set_brightness(self, level: float) -> None:
        """Light the board at `level` of the configured brightness (`hardware.power.check_level`: 0 dark,
        1 the `[board] brightness` cap, never more), the board shown now included."""
        self._dimmer.set_level(level)
        self.show(self._board)

    def close(self) -> None:
        """Turn every LED off and release the pin."""
        self._pixels.deinit()
