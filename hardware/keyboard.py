"""The simulator's keyboard: keys press the simulated buttons (a terminal has no key-up, so a
key is a tap; the table acts on a press alone, and a hold, for the self-test's echo, comes
from an input script's `hold`).

A terminal repeats a key held down: once after a delay (a quarter to half a second), then every
30–50 ms. Such repeats are no presses (`Repeats`): a card key held down shows the card's move and
no more, where it used to play the card at once. `S` is the staff's way in: the staff's key switch,
turned and turned back, on a table that has one, else the combination (the steps it is handed).
"""
import math
import os
import select
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import TextIO

from hardware.names import MENU_BUTTON, STAFF_KEY, seat_controls
from hardware.script import Finger, Step, run_script

SEAT_KEYS = ("12345qw", "67890op", "asdfgzx", "jkl;'nb")   # card1–5, hero, draw of up to four seats
MENU_KEY = "m"
STAFF_KEYBOARD = "S"        # the staff's key switch, or their combination
REPEAT_SECONDS = 0.15       # a key that comes again this soon after itself is the terminal repeating it


def key_map(seats: Iterable[str]) -> dict[str, str]:
    """Key → button name for the first four seats and the menu."""
    keys = {k: name for seat, row in zip(seats, SEAT_KEYS) for k, name in zip(row, seat_controls(seat))}
    keys[MENU_KEY] = MENU_BUTTON
    return keys


def legend(keys: Mapping[str, str], staff: bool = False) -> list[str]:
    """Lines that explain `keys` on screen: one per seat, that a card is pressed twice (where there is room: up to
    three seats), then the menu (and with `staff` the staff's key); at most 38 characters wide.

    >>> for line in legend(key_map(["red"]), staff=True): print(line)
    keys: red    12345=cards q=hero w=draw
          a card twice: see, then play
          m=menu S=staff Ctrl-C=quit
    """
    by_seat: dict[str, dict[str, str]] = {}
    for key, name in keys.items():
        seat, _, control = name.rpartition(".")
        by_seat.setdefault(seat, {})[control] = key
    lines = [f"{seat:<6} {''.join(k for c, k in controls.items() if c.startswith('card'))}=cards "
             f"{controls.get('hero', '-')}=hero {controls.get('draw', '-')}=draw"
             for seat, controls in by_seat.items() if seat]
    if len(lines) < 4:          # four seats' lines stand beside a panel of five: no room for the hint
        lines.append("a card twice: see, then play")
    lines.append(f"{by_seat.get('', {}).get(MENU_BUTTON, '-')}=menu{f' {STAFF_KEYBOARD}=staff' if staff else ''} "
                 "Ctrl-C=quit")
    return [("keys: " if i == 0 else " " * 6) + line for i, line in enumerate(lines)]


class Repeats:
    """Tells a terminal's repeats of a held key from a person's presses: a key that comes again within
    REPEAT_SECONDS of its last coming is a repeat, and so is the one that began that run, so the same key
    again is held back REPEAT_SECONDS (`due`) before it counts. A held key is one press, however long; a card
    pressed twice plays, its second press REPEAT_SECONDS late.

    >>> r = Repeats()
    >>> r.key("1", 0.0), r.key("1", 0.5), r.key("1", 0.53), r.due(0.9)    # held: one press
    (['1'], [], [], [])
    >>> r.key("1", 2.0), r.due(2.1), r.due(2.2)                          # pressed again: counts a moment later
    ([], [], ['1'])
    >>> r.key("1", 3.0), r.key("2", 3.05)                                # another key: both, in order
    ([], ['1', '2'])
    """

    def __init__(self) -> None:
        self.last: str | None = None
        self.at = -math.inf
        self.pending: tuple[str, float] | None = None

    def key(self, key: str, now: float) -> list[str]:
        """`key` came at `now`: the keys to press now."""
        out = self.due(now)
        if key == self.last and now - self.at <= REPEAT_SECONDS:
            self.pending = None                 # the held key repeating, and the run's first repeat with it
        elif key == self.last:
            self.pending = (key, now)           # pressed again, or a held key's first repeat: wait and see
        else:
            if self.pending is not None:
                out.append(self.pending[0])
                self.pending = None
            out.append(key)
        self.last, self.at = key, now
        return out

    def due(self, now: float) -> list[str]:
        """The key held back, once REPEAT_SECONDS have passed without its repeating."""
        if self.pending is not None and now >= self.pending[1] + REPEAT_SECONDS:
            key, self.pending = self.pending[0], None
            return [key]
        return []

    def wait(self, now: float) -> float | None:
        """Seconds until `due` may give a key (None: nothing held back)."""
        return None if self.pending is None else max(0.0, self.pending[1] + REPEAT_SECONDS - now)


class Keyboard:
    """Reads single keys from a terminal in cbreak mode on a daemon thread and drives the pins; `S` turns the
    staff's key switch (with `key_switch`) or plays the `staff` steps (the combination)."""

    def __init__(self, stream: TextIO, keys: Mapping[str, str], pins: Finger, tap_seconds: float,
                 staff: Sequence[Step] = (), key_switch: bool = False) -> None:
        import termios   # Unix terminals only; imported here so the package loads anywhere
        import tty
        self._termios = termios
        self._fd = stream.fileno()
        self._keys, self._pins, self._staff, self._key_switch = keys, pins, staff, key_switch
        self._tap = tap_seconds
        self._turned = False
        self._saved = termios.tcgetattr(self._fd)
        self._stop, self._wake = os.pipe()         # `close` writes here: the reader stops before the terminal goes
        tty.setcbreak(self._fd)
        self._thread = threading.Thread(target=self._read, daemon=True, name="sim-keyboard")
        self._thread.start()

    def _read(self) -> None:
        repeats = Repeats()
        while True:
            try:
                ready, _, _ = select.select([self._fd, self._stop], [], [], repeats.wait(time.monotonic()))
                if self._stop in ready:
                    return
                key = os.read(self._fd, 1).decode(errors="replace") if ready else None
            except OSError:
                return
            if key == "":
                return
            now = time.monotonic()
            for pressed in repeats.key(key, now) if key is not None else repeats.due(now):
                self._press(pressed)

    def _press(self, key: str) -> None:
        if key in self._keys:
            self._pins.press(self._keys[key], self._tap)
        elif key == STAFF_KEYBOARD and self._key_switch:
            self._turned = not self._turned
            (self._pins.down if self._turned else self._pins.up)(STAFF_KEY)
        elif key == STAFF_KEYBOARD:
            run_script(self._staff, self._pins, self._tap)

    def close(self) -> None:
        """Stop reading (before the terminal's descriptor may be closed and its number reused), and give the
        terminal back its settings."""
        os.write(self._wake, b"x")
        if self._thread is not threading.current_thread():
            self._thread.join(5.0)
        os.close(self._wake)
        os.close(self._stop)
        self._termios.tcsetattr(self._fd, self._termios.TCSADRAIN, self._saved)


def interactive(stream: TextIO | None) -> bool:
    """True if `stream` is a terminal that keys can be read from."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):    # not a file (a stand-in without isatty), or a closed one
        return False
