"""Button events, and the one rule that makes them from a button's level: press, hold, release.

Any source of presses uses the rule: the GPIO buttons (`hardware.buttons`, from gpiozero's
edges) and a source without pins (a web page's presses and releases) alike, so a hold is the
same hold wherever the finger is. A `Contact` is told whenever its button's level may have
changed and reads the level itself: a change is believed once it has lasted
`min_pulse_seconds` (shorter glitches are ignored); after each event, changes within
`debounce_seconds` are ignored and the level is read again when that window closes, so a tap
shorter than the window still ends in a release; a button still down `hold_seconds` after its
press sends one `hold`, and one still down `stuck_seconds` after it (a jammed key, a visitor leaning
on the panel) sends one `stuck`: from then on it counts as up, whatever its level, until it really
comes up (its `release`), so it never makes a stream of presses nor stands in a combination of
buttons. Timers come from an injectable `after(delay, callback)`, so tests run
the rule on a fake clock.

>>> from types import SimpleNamespace
>>> events, timers, down = [], [], [False]
>>> def after(delay, call):
...     timers.append((delay, call))
...     return SimpleNamespace(cancel=lambda: None)
>>> contact = Contact("red.hero", ButtonTiming(1.0, 0.02, 0.0), events.append, lambda: down[0], after)
>>> down[0] = True; contact.changed()
>>> [delay for delay, _ in timers]    # the hold, and the debounce window
[1.0, 0.02]
>>> timers[0][1]()                    # a second later, still down
>>> [str(e) for e in events]
['red.hero press', 'red.hero hold']
"""
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple, Protocol

from hardware.names import split_name


MIN_TAP_SECONDS = 0.05


class ButtonKind(StrEnum):
    """What a button did: went down, stayed down for the hold time, stayed down so long it is taken to be
    stuck (it counts as up until its release), came up."""

    PRESS = "press"
    HOLD = "hold"
    STUCK = "stuck"
    RELEASE = "release"


PRESS, HOLD, STUCK, RELEASE = ButtonKind.PRESS, ButtonKind.HOLD, ButtonKind.STUCK, ButtonKind.RELEASE


class Origin(StrEnum):
    """Where a press comes from: a button of the table itself (a GPIO pin, the simulator's keys or input
    script), or the network (a web page). What only the staff may do is never done from the network."""

    PANEL = "panel"
    NETWORK = "network"


class ButtonEvent(NamedTuple):
    """`(seat, control, kind, origin)`: seat is None for the table-wide menu (and the staff's key); kind
    press|hold|stuck|release; origin the table's own buttons unless said otherwise."""
    seat: str | None
    control: str
    kind: ButtonKind
    origin: Origin = Origin.PANEL

    @property
    def name(self) -> str:
        """The button's name, e.g. `red.card3` or `menu`."""
        return f"{self.seat}.{self.control}" if self.seat else self.control

    def __str__(self) -> str:
        return f"{self.name} {self.kind}"


class InputEnded(Exception):
    """Raised by a button source's `get` once a finished input script's events are all read."""


class Timer(Protocol):
    """What `after(delay, callback)` returns: a pending call that can be cancelled."""

    def cancel(self) -> None: ...


After = Callable[[float, Callable[[], None]], Timer]


def start_timer(delay: float, callback: Callable[[], None]) -> Timer:
    """Call `callback` on a daemon thread `delay` seconds from now: the real `after`."""
    timer = threading.Timer(delay, callback)
    timer.daemon = True
    timer.start()
    return timer


@dataclass(frozen=True)
class ButtonTiming:
    """The timing of the rule: how long a button is down before it holds, how long after an event
    changes are ignored, the shortest change believed, and how long a button is down before it is
    taken to be stuck (`[buttons]` of the configuration; `stuck_seconds` is above `hold_seconds`)."""
    hold_seconds: float = 1.0
    debounce_seconds: float = 0.02
    min_pulse_seconds: float = 0.005
    stuck_seconds: float = 60.0

    @property
    def tap_seconds(self) -> float:
        """The shortest press a source without a finger makes (the simulator's keys and script, a web
        page's click): long enough to pass the glitch filter and to outlast the debounce window.

        >>> ButtonTiming().tap_seconds, ButtonTiming(debounce_seconds=0.1, min_pulse_seconds=0.05).tap_seconds
        (0.05, 0.2)
        """
        return max(2 * self.debounce_seconds, self.min_pulse_seconds + self.debounce_seconds, MIN_TAP_SECONDS)


class Contact:
    """One button's events by `timing`: `changed()` whenever the level may have changed, `level()`
    True while the button is down, each event to `put` (saying it comes from `origin`). Safe to call
    from any thread."""

    def __init__(self, name: str, timing: ButtonTiming, put: Callable[[ButtonEvent], None],
                 level: Callable[[], bool], after: After = start_timer, origin: Origin = Origin.PANEL) -> None:
        self.seat, self.control = split_name(name)
        self.origin = origin
        self.timing, self._put, self._level, self._after = timing, put, level, after
        self._lock = threading.Lock()
        self._down = False
        self._presses = 0                   # which press a hold timer belongs to
        self._closed = False
        self._timer: Timer | None = None    # the minimum-pulse check or the debounce window
        self._hold: Timer | None = None     # the press's hold timer, then its stuck timer

    def changed(self) -> None:
        """The level may have changed (an edge, a press or a release from the source)."""
        with self._lock:
            if self._closed or self._timer is not None:     # a check or the debounce window is running
                return
            if self.timing.min_pulse_seconds > 0:
                self._timer = self._after(self.timing.min_pulse_seconds, self._settle)
            else:
                self._settle_locked()

    @property
    def down(self) -> bool:
        """The level last reported: True from the button's press to its release."""
        return self._down

    def close(self) -> None:
        """Cancel the pending timers; later calls do nothing."""
        with self._lock:
            self._closed = True
            for timer in (self._timer, self._hold):
                if timer is not None:
                    timer.cancel()
            self._timer = self._hold = None

    def _emit(self, kind: ButtonKind) -> None:
        self._put(ButtonEvent(self.seat, self.control, kind, self.origin))

    def _settle(self) -> None:
        with self._lock:
            self._timer = None
            if not self._closed:
                self._settle_locked()

    def _settle_locked(self) -> None:
        down = self._level()
        if down == self._down:
            return
        self._down = down
        if down:
            self._presses += 1
            self._emit(PRESS)
            press = self._presses
            self._hold = self._after(self.timing.hold_seconds, lambda: self._held(press))
        else:
            if self._hold is not None:
                self._hold.cancel()
                self._hold = None
            self._emit(RELEASE)
        self._timer = self._after(self.timing.debounce_seconds, self._settle)

    def _held(self, press: int) -> None:
        with self._lock:
            if self._down and press == self._presses and not self._closed:
                self._emit(HOLD)
                self._hold = self._after(max(0.0, self.timing.stuck_seconds - self.timing.hold_seconds),
                                         lambda: self._stuck(press))

    def _stuck(self, press: int) -> None:
        with self._lock:
            if self._down and press == self._presses and not self._closed:
                self._hold = None
                self._emit(STUCK)
