"""The card displays on a Pi: chained MAX7219 8 × 8 matrices through luma.led_matrix.

The chain is one luma `max7219` device `8 × n` pixels wide; the matrix nearest the
Pi shows the leftmost 8 columns, so slot i of the configured chain is columns 8i–8i+7.
Each bitmap is first turned as its seat's `[displays.<seat>]` rotation and flip say.
luma sets one intensity for the whole chain (`contrast`); a frame's dimmed slots get
their own, written to each matrix's intensity register in one pass down the chain
through luma's serial interface, whenever the set of dimmed slots changes. At run time
`set_brightness(level)` scales both intensities (level 0 puts the chain in the MAX7219's
shutdown mode through luma's `hide()`, any other level wakes it with `show()`).
"""
from collections.abc import Mapping
from typing import Protocol

from luma.led_matrix.const import max7219 as registers
from luma.led_matrix.device import max7219
from PIL import Image

from hardware.config import DisplayConfig
from hardware.frame import BLANK, Bitmap, check_slots, turn
from hardware.power import check_level


class Matrices(Protocol):
    """What is used of luma.led_matrix's `max7219` device (luma has no type information)."""

    size: tuple[int, int]

    def data(self, data: list[int]) -> None: ...

    def display(self, image: Image.Image) -> None: ...

    def show(self) -> None: ...

    def hide(self) -> None: ...

    def cleanup(self) -> None: ...


class MatrixDisplays:
    """Shows one bitmap per slot on a MAX7219 chain behind a luma serial interface."""

    def __init__(self, config: DisplayConfig, serial: object) -> None:
        self.slots = config.chain
        self._turns = [config.turn_of(slot) for slot in self.slots]
        self._levels = (config.intensity, config.dim_intensity)
        self._device: Matrices = max7219(serial, cascaded=len(self.slots),
                               block_orientation=config.block_orientation,
                               blocks_arranged_in_reverse_order=config.reverse_order,
                               contrast=config.intensity << 4)
        # the first register pair written shifts through to the far end of the chain
        self._far_first = self.slots if config.reverse_order else self.slots[::-1]
        self._dimmed: frozenset[str] = frozenset()
        self.level = 1.0

    def show(self, bitmaps: Mapping[str, Bitmap], dimmed: frozenset[str] = frozenset()) -> None:
        """Show `bitmaps` (slot → bitmap), the `dimmed` slots at the dim intensity; slots left out go blank."""
        check_slots(bitmaps, self.slots)
        check_slots(dimmed, self.slots)
        if dimmed != self._dimmed:
            self._dimmed = dimmed
            self._intensities()
        rows = [turn(bitmaps.get(slot, BLANK), *t) for slot, t in zip(self.slots, self._turns)]
        data = bytes(bitmap[y] for y in range(8) for bitmap in rows)
        self._device.display(Image.frombytes("1", self._device.size, data))

    def set_brightness(self, level: float) -> None:
        """Light the displays at `level` (`hardware.power.check_level`) of their configured intensities
        (`[displays] intensity` and `dim_intensity`), at once; 0 switches them off (shutdown mode, their
        dots kept), any other level back on."""
        level = check_level(level)
        if level == self.level:
            return
        if level == 0:
            self._device.hide()
        elif self.level == 0:
            self._device.show()
        self.level = level
        if level:
            self._intensities()

    def _intensities(self) -> None:
        """Write each matrix's intensity register: the dimmed slots' and the others', at the level."""
        full, dim = (round(intensity * self.level) for intensity in self._levels)
        self._device.data([b for slot in self._far_first
                           for b in (registers.INTENSITY, dim if slot in self._dimmed else full)])

    def close(self) -> None:
        """Switch the matrices off and release the SPI bus."""
        self._device.cleanup()
