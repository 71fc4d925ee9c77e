"""From frame colours to LED drive levels: gamma, the brightness cap and the supply limit.

Gamma maps each 0–255 colour channel to a PWM level so that dim colours look right;
the levels are then scaled by one factor per frame: the brightness cap, or less if the
estimated current would exceed the supply. Levels are rounded down, so the estimate
of what is sent never exceeds the supply.

>>> d = Dimmer(gamma=1.0, brightness=0.5, supply_amps=10.0, count=1)
>>> d.levels([(255, 100, 0)])
[(127, 50, 0)]
"""

from collections.abc import Iterable

from hardware.frame import RGB

CHANNEL_MA = 20.0   # one colour channel fully lit
IDLE_MA = 1.0       # one LED, dark


def idle_amps(count: int) -> float:
    """The current in A that `count` dark LEDs draw."""
    return count * IDLE_MA / 1000


class Dimmer:
    """Turns frame colours into drive levels for `count` LEDs on a supply of `supply_amps`."""

    def __init__(self, gamma: float, brightness: float, supply_amps: float, count: int) -> None:
        if supply_amps <= idle_amps(count):
            raise ValueError(f"a supply of {supply_amps} A cannot even keep {count} dark LEDs")
        self._lut = tuple(round(255 * (v / 255) ** gamma) for v in range(256))
        self._brightness = brightness
        self._lit_budget = (supply_amps * 1000 - count * IDLE_MA) * 255 / CHANNEL_MA

    def scale(self, lit: float) -> float:
        """The factor for a frame whose gamma-corrected channels sum to `lit`."""
        if lit * self._brightness <= self._lit_budget:
            return self._brightness
        return self._lit_budget / lit

    def levels(self, colours: Iterable[RGB]) -> list[RGB]:
        """Drive levels, one (r, g, b) tuple per colour in `colours`."""
        lut = self._lut
        corrected = [(lut[r], lut[g], lut[b]) for r, g, b in colours]
        s = self.scale(sum(map(sum, corrected)))
        if s >= 1:
            return corrected
        return [(int(r * s), int(g * s), int(b * s)) for r, g, b in corrected]
