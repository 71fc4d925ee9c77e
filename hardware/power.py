"""From frame colours to LED drive levels: gamma, the brightness cap and the supply limit.

Gamma maps each 0–255 colour channel to a PWM level so that dim colours look right;
the levels are then scaled by one factor per frame: the brightness cap, or less if the
estimated current would exceed the supply. Levels are rounded down, but a channel that
is lit in the frame stays at level 1 or more, so no dim colour vanishes on the board;
the supply limit keeps room for those, so the estimate of what is sent never exceeds it.

>>> d = Dimmer(gamma=1.0, brightness=0.5, supply_amps=10.0, count=1)
>>> d.levels([(255, 100, 1)])
[(127, 50, 1)]
>>> Dimmer(gamma=2.6, brightness=0.3, supply_amps=4.0, count=1).levels([(20, 0, 0)])
[(1, 0, 0)]
"""
import math
from collections.abc import Iterable, Sequence

from hardware.frame import RGB

SCREEN_GAMMA = 2.2  # a computer screen's response, for showing drive levels as the LEDs' light
CHANNEL_MA = 20.0   # one colour channel fully lit
IDLE_MA = 1.0       # one LED, dark
LEAST_LIT_MA = 3 * CHANNEL_MA / 255     # one LED with every channel at level 1


def check_level(level: float) -> float:
    """`level` if it is a brightness level: a finite number from 0 (dark, switched off) to 1 (the
    configured brightness); ValueError else.

    >>> check_level(0.5)
    0.5
    >>> check_level(1.5)
    Traceback (most recent call last):
    ...
    ValueError: a brightness level is a number from 0 to 1 (got 1.5)
    """
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not math.isfinite(level) \
            or not 0 <= level <= 1:
        raise ValueError(f"a brightness level is a number from 0 to 1 (got {level!r})")
    return float(level)


def least_amps(count: int) -> float:
    """The current in A that `count` LEDs draw with every channel at its dimmest lit level."""
    return count * (IDLE_MA + LEAST_LIT_MA) / 1000


class Dimmer:
    """Turns frame colours into drive levels for `count` LEDs on a supply of `supply_amps`, at `level`
    (0–1, `set_level`) of the brightness cap: 0 is dark, every LED off."""

    def __init__(self, gamma: float, brightness: float, supply_amps: float, count: int) -> None:
        if supply_amps <= least_amps(count):
            raise ValueError(f"a supply of {supply_amps} A cannot keep {count} LEDs at their dimmest")
        self._lut = (0,) + tuple(max(1, round(255 * (v / 255) ** gamma)) for v in range(1, 256))
        self._cap = self._brightness = brightness
        self.level = 1.0
        self._lit_budget = (supply_amps * 1000 - count * IDLE_MA) * 255 / CHANNEL_MA - 3 * count

    def set_level(self, level: float) -> None:
        """Light at `level` of the brightness cap from now on (`check_level`: 0 dark, 1 the cap)."""
        self.level = check_level(level)
        self._brightness = self._cap * self.level

    def scale(self, lit: float) -> float:
        """The factor for a frame whose gamma-corrected channels sum to `lit`."""
        if lit * self._brightness <= self._lit_budget:
            return self._brightness
        return self._lit_budget / lit

    def levels(self, colours: Iterable[RGB]) -> list[RGB]:
        """Drive levels, one (r, g, b) tuple per colour in `colours`."""
        if self.level == 0:
            return [(0, 0, 0) for _ in colours]
        lut = self._lut
        corrected = [(lut[r], lut[g], lut[b]) for r, g, b in colours]
        s = self.scale(sum(map(sum, corrected)))
        if s >= 1:
            return corrected
        dim = [0] + [max(1, int(v * s)) for v in range(1, 256)]
        return [(dim[r], dim[g], dim[b]) for r, g, b in corrected]


def on_screen(levels: Sequence[RGB]) -> list[RGB]:
    """Screen colours that look as bright as LEDs driven at `levels` (whose light is linear in the level).

    >>> on_screen([(0, 1, 255)])
    [(0, 21, 255)]
    """
    lut = _SCREEN
    return [(lut[r], lut[g], lut[b]) for r, g, b in levels]


_SCREEN = tuple(round(255 * (v / 255) ** (1 / SCREEN_GAMMA)) for v in range(256))
