"""What the table service is handed at start-up, whichever backend it is."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from types import TracebackType

from hardware.frame import Frame
from hardware.roles import ButtonSource, CardDisplays, Lights


class Devices:
    """`.lights` (9 × 9 board), `.displays` (card matrices, `.slots`), `.buttons` (event queue).

    Each is typed by its role (`hardware.roles`), never by its backend. `show(frame)`
    puts a whole `Frame` on the board and the displays, `set_brightness(level)` dims or
    darkens both; `close()` turns everything off and releases it. Also a context manager.
    """

    def __init__(self, backend: str, lights: Lights, displays: CardDisplays, buttons: ButtonSource,
                 closers: Iterable[Callable[[], object]] = ()) -> None:
        self.backend, self.lights, self.displays, self.buttons = backend, lights, displays, buttons
        self._closers = list(closers)

    @property
    def slots(self) -> tuple[str, ...]:
        """The display slot names, in chain order."""
        return self.displays.slots

    def show(self, frame: Frame) -> None:
        """Show `frame` on the board and every display (its caption has no place on the table)."""
        self.lights.show(frame.board)
        self.displays.show(frame.displays, frame.dimmed)

    def set_brightness(self, level: float) -> None:
        """Light the board and the displays at `level` of their configured brightness (0: dark and off,
        1: as configured; `hardware.power.check_level`), the picture shown now included."""
        self.lights.set_brightness(level)
        self.displays.set_brightness(level)

    def close(self) -> None:
        """Release the buttons, blank and release the displays and the lights: every one of them,
        even if one fails; then raise the first failure."""
        errors = []
        for close in [self.buttons.close, self.displays.close, self.lights.close, *self._closers]:
            try:
                close()
            except Exception as exc:  # noqa: BLE001  (whatever it is, the others still close)
                errors.append(exc)
        if errors:
            raise errors[0]

    def __enter__(self) -> Devices:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
