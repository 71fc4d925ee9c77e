"""The three device roles a backend provides: the board's lights, the card displays, a source of button events.

The Pi backend, the simulated backend and (later) the web backend each satisfy these
protocols; the table service is typed against the roles only and never asks which
backend it was handed (gpiozero's pin factories are the model).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from hardware.frame import RGB, Bitmap

if TYPE_CHECKING:
    from hardware.events import ButtonEvent


@runtime_checkable
class Lights(Protocol):
    """The 9 × 9 board."""

    def show(self, board: Sequence[RGB]) -> None:
        """Show 81 colours, rank 9 first, file a first."""

    def set_brightness(self, level: float) -> None:
        """Light the board at `level` of its configured brightness, the board shown now included: 0 is
        dark, 1 the `[board] brightness` cap, never more (`hardware.power.check_level`)."""

    def close(self) -> None:
        """Turn every light off and release the hardware."""


@runtime_checkable
class CardDisplays(Protocol):
    """The 8 × 8 card displays, one per slot name (e.g. `red.card1`, `white.hero`)."""

    @property
    def slots(self) -> tuple[str, ...]:
        """The slot names, in chain order."""

    def show(self, bitmaps: Mapping[str, Bitmap], dimmed: frozenset[str] = frozenset()) -> None:
        """Show one bitmap per slot, the `dimmed` slots at the dim intensity; slots left out go blank."""

    def set_brightness(self, level: float) -> None:
        """Light the displays at `level` of their configured intensities, at once: 0 is off, 1 as configured."""

    def close(self) -> None:
        """Blank the displays and release the hardware."""


@runtime_checkable
class ButtonSource(Protocol):
    """Button events, in the order they happened; callbacks only enqueue."""

    def get(self, timeout: float | None = None) -> ButtonEvent | None:
        """The next event, or None after `timeout` seconds; `InputEnded` once a finished script is read."""

    def close(self) -> None:
        """Release the buttons."""
