"""Buttons: gpiozero `Button`s whose callbacks only put debounced events on a queue.

Debouncing is ours (gpiozero's mock pins ignore `bounce_time`): the first edge after
a quiet spell is taken from the pin's level and reported at once; edges within the
debounce window after it are ignored, and when the window closes the level is read
again, so a tap shorter than the window still ends in a release. gpiozero's own
`when_held` (its thread, after `hold_time`) becomes a `hold` event while the button
is down.
"""
import queue
import threading
import time
from enum import StrEnum
from typing import NamedTuple

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


def _start_timer(delay, callback):
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()


class _Debounced:
    """One button's debounce state; its methods are gpiozero callbacks."""

    def __init__(self, name, button, window, put, clock, after):
        self.seat, self.control = split_name(name)
        self._button, self._window, self._put, self._clock, self._after = button, window, put, clock, after
        self._lock = threading.Lock()
        self._down = False
        self._held = False
        self._quiet_from = float("-inf")
        button.when_activated = self._edge
        button.when_deactivated = self._edge
        button.when_held = self._hold

    def _emit(self, kind):
        self._put(ButtonEvent(self.seat, self.control, kind))

    def _edge(self):
        with self._lock:
            now = self._clock()
            if now < self._quiet_from:
                return
            self._settle_locked(now)

    def _settle(self):
        with self._lock:
            self._settle_locked(self._clock())

    def _settle_locked(self, now):
        down = self._button.is_active
        if down == self._down:
            return
        self._down, self._held = down, False
        self._emit(PRESS if down else RELEASE)
        self._quiet_from = now + self._window
        self._after(self._window, self._settle)

    def _hold(self):
        with self._lock:
            if self._down and not self._held:
                self._held = True
                self._emit(HOLD)


class Buttons:
    """The table's buttons (name → BCM pin) on a gpiozero pin factory, as a queue of events.

    `clock` and `after(delay, callback)` are the time source and the timer of the
    debounce; tests pass a fake pair, so no test depends on real time.
    """

    def __init__(self, pins, hold_seconds, debounce_seconds, pin_factory, clock=time.monotonic,
                 after=_start_timer):
        self.pins = dict(pins)
        self._queue: queue.Queue[ButtonEvent | None] = queue.Queue()  # None: the end of input
        self._buttons = []
        try:
            for name, pin in self.pins.items():
                button = Button(pin, pull_up=True, hold_time=hold_seconds, pin_factory=pin_factory)
                self._buttons.append(button)
                _Debounced(name, button, debounce_seconds, self._queue.put, clock, after)
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
        """Release every pin (in parallel: each gpiozero hold thread takes up to 0.1 s to stop)."""
        closing = [threading.Thread(target=button.close) for button in self._buttons]
        for thread in closing:
            thread.start()
        for thread in closing:
            thread.join()
        self._buttons = []
