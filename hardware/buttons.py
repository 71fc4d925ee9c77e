"""Buttons: gpiozero `Button`s whose callbacks only put debounced events on a queue.

Debouncing is ours (gpiozero's mock pins ignore `bounce_time`). An edge after a quiet
spell starts a short check: `min_pulse` seconds later the pin's level is read, and
only a level that still differs from the last one reported becomes an event, so a
glitch shorter than that is ignored. After each event, edges within the debounce
window are ignored, and when the window closes the level is read again, so a tap
shorter than the window still ends in a release. gpiozero's own `when_held` (its
thread, after `hold_time`) becomes a `hold` event while the button is down. Each
button keeps its own state and timers, so one held down for minutes holds up no
other; `close()` cancels every pending timer before releasing the pins.
"""
import queue
import threading
from collections.abc import Callable
from enum import StrEnum
from typing import Any, NamedTuple, Protocol

from gpiozero import Button

from hardware.names import split_name



class ButtonKind(StrEnum):
    """What a button did: went down, stayed down for the hold time, came up."""

    PRESS = "press"
    HOLD = "hold"
    RELEASE = "release"


PRESS, HOLD, RELEASE = ButtonKind.PRESS, ButtonKind.HOLD, ButtonKind.RELEASE


class ButtonEvent(NamedTuple):
    """`(seat, control, kind)`: seat is None for the table-wide menu; kind press|hold|release."""
    seat: str | None
    control: str
    kind: ButtonKind

    @property
    def name(self) -> str:
        """The button's name, e.g. `red.card3` or `menu`."""
        return f"{self.seat}.{self.control}" if self.seat else self.control

    def __str__(self) -> str:
        return f"{self.name} {self.kind}"


class InputEnded(Exception):
    """Raised by `Buttons.get` once a finished input script's events are all read."""


class Timer(Protocol):
    """What `after(delay, callback)` returns: a pending call that can be cancelled."""

    def cancel(self) -> None: ...


After = Callable[[float, Callable[[], None]], Timer]


def _start_timer(delay: float, callback: Callable[[], None]) -> Timer:
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()
    return timer


class _Debounced:
    """One button's debounce state; its methods are gpiozero callbacks and timer callbacks."""

    def __init__(self, name: str, button: Any, window: float, min_pulse: float, put: Callable[[ButtonEvent], None],
                 after: After) -> None:
        self.seat, self.control = split_name(name)
        self._button, self._window, self._min_pulse = button, window, min_pulse
        self._put, self._after = put, after
        self._lock = threading.Lock()
        self._down = False
        self._held = False
        self._closed = False
        self._timer: Timer | None = None
        button.when_activated = self._edge
        button.when_deactivated = self._edge
        button.when_held = self._hold

    def _emit(self, kind: ButtonKind) -> None:
        self._put(ButtonEvent(self.seat, self.control, kind))

    def _edge(self) -> None:
        with self._lock:
            if self._closed or self._timer is not None:     # a check or the debounce window is running
                return
            if self._min_pulse > 0:
                self._timer = self._after(self._min_pulse, self._settle)
            else:
                self._settle_locked()

    def _settle(self) -> None:
        with self._lock:
            self._timer = None
            if not self._closed:
                self._settle_locked()

    def _settle_locked(self) -> None:
        down = self._button.is_active
        if down == self._down:
            return
        self._down, self._held = down, False
        self._emit(PRESS if down else RELEASE)
        self._timer = self._after(self._window, self._settle)

    def _hold(self) -> None:
        with self._lock:
            if self._down and not self._held and not self._closed:
                self._held = True
                self._emit(HOLD)

    def close(self) -> None:
        """Cancel the pending timer; later callbacks do nothing."""
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


class Buttons:
    """The table's buttons (name → BCM pin) on a gpiozero pin factory, as a queue of events.

    `min_pulse_seconds` is the shortest level change taken as real (shorter glitches
    are ignored). `after(delay, callback) -> Timer` is the debounce's timer; tests pass
    a fake one, so no test depends on real time.
    """

    def __init__(self, pins: dict[str, int], hold_seconds: float, debounce_seconds: float, pin_factory: Any,
                 after: After = _start_timer, min_pulse_seconds: float = 0.0) -> None:
        self.pins = dict(pins)
        self._queue: queue.Queue[ButtonEvent | None] = queue.Queue()  # None: the end of input
        self._buttons: list[Button] = []
        self._debounced: list[_Debounced] = []
        try:
            for name, pin in self.pins.items():
                button = Button(pin, pull_up=True, hold_time=hold_seconds, pin_factory=pin_factory)
                self._buttons.append(button)
                self._debounced.append(_Debounced(name, button, debounce_seconds, min_pulse_seconds,
                                                  self._queue.put, after))
        except BaseException:
            self.close()
            raise

    def get(self, timeout: float | None = None) -> ButtonEvent | None:
        """The next event, or None after `timeout` seconds; InputEnded once input has ended."""
        try:
            event = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if event is None:
            self._queue.put(None)
            raise InputEnded()
        return event

    def end(self) -> None:
        """Mark the end of input (a finished script): `get` raises InputEnded after the last event."""
        self._queue.put(None)

    def close(self) -> None:
        """Cancel the debounce timers, then release every pin (in parallel: each gpiozero hold
        thread takes up to 0.1 s to stop)."""
        for debounced in self._debounced:
            debounced.close()
        self._debounced = []
        closing = [threading.Thread(target=button.close) for button in self._buttons]
        for thread in closing:
            thread.start()
        for thread in closing:
            thread.join()
        self._buttons = []
