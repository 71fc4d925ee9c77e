"""Buttons: gpiozero input devices whose edges go through the one rule of `hardware.events`,
each event put on a queue.

The rule's debounce and hold replace gpiozero's own (its mock pins ignore `bounce_time`, and
its `when_held` runs on a thread of its own with its own clock), so each pin is a plain
`DigitalInputDevice` with the pull-up a push button to ground needs. Each button keeps its
own state and timers, so one held down for minutes holds up no other; `close()` cancels
every pending timer before releasing the pins.
"""
import queue
import threading
from collections.abc import Callable
from typing import Protocol

from gpiozero import DigitalInputDevice

from hardware.events import After, ButtonEvent, ButtonTiming, Contact, InputEnded, start_timer


class PinFactory(Protocol):
    """What is used of a gpiozero pin factory (lgpio's on a Pi, `MockFactory` in the simulator): it is
    handed to the input devices, and closed once they are."""

    def close(self) -> None: ...


class InputDevice(Protocol):
    """What is used here of gpiozero's `DigitalInputDevice` (gpiozero has no type information)."""

    when_activated: Callable[[], None] | None
    when_deactivated: Callable[[], None] | None

    @property
    def is_active(self) -> bool: ...

    def close(self) -> None: ...


class Buttons:
    """The table's buttons (name → BCM pin) on a gpiozero pin factory, as a queue of events.

    `after(delay, callback) -> Timer` is the rule's timer; tests pass a fake one, so no test
    depends on real time.
    """

    def __init__(self, pins: dict[str, int], timing: ButtonTiming, pin_factory: PinFactory,
                 after: After = start_timer) -> None:
        self.pins = dict(pins)
        self._queue: queue.Queue[ButtonEvent | None] = queue.Queue()  # None: the end of input
        self._devices: list[InputDevice] = []
        self._contacts: dict[str, Contact] = {}
        self._reported = threading.Condition()      # notified after each event
        self._closed = False
        try:
            for name, pin in self.pins.items():
                device: InputDevice = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
                self._devices.append(device)
                contact = Contact(name, timing, self._put, _level_of(device), after)
                self._contacts[name] = contact
                device.when_activated = device.when_deactivated = contact.changed
        except BaseException:
            self.close()
            raise

    def _put(self, event: ButtonEvent) -> None:
        self._queue.put(event)
        with self._reported:
            self._reported.notify_all()

    def reported(self, name: str, down: bool, timeout: float) -> bool:
        """Wait until button `name` has been reported `down` (its press came) or up (its release came), for
        at most `timeout` seconds; False if it has not been by then, or the buttons are closed. A simulated
        finger waits so before it moves on: the rule's timers may run late on a busy machine, and a tap
        over before they run would be no press at all."""
        contact = self._contacts[name]
        with self._reported:
            return self._reported.wait_for(lambda: contact.down == down or self._closed, timeout) \
                and not self._closed

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
        """Cancel the rule's timers, then release every pin."""
        for contact in self._contacts.values():
            contact.close()
        with self._reported:
            self._closed = True
            self._reported.notify_all()
        for device in self._devices:
            device.close()
        self._devices = []


def _level_of(device: InputDevice) -> Callable[[], bool]:
    return lambda: bool(device.is_active)
