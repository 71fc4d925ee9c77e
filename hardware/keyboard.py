"""The simulator's keyboard: keys press the simulated buttons (a terminal has no key-up, so a
key is a tap; the table acts on a press alone, and a hold, for the self-test's echo, comes
from an input script's `hold`)."""
import os
import threading
from collections.abc import Iterable, Mapping
from typing import TextIO

from hardware.names import MENU_BUTTON, seat_controls
from hardware.script import Finger

SEAT_KEYS = ("12345qw", "67890op", "asdfgzx", "jkl;'nb")   # card1–5, hero, draw of up to four seats
MENU_KEY = "m"


def key_map(seats: Iterable[str]) -> dict[str, str]:
    """Key → button name for the first four seats and the menu."""
    keys = {k: name for seat, row in zip(seats, SEAT_KEYS) for k, name in zip(row, seat_controls(seat))}
    keys[MENU_KEY] = MENU_BUTTON
    return keys


def legend(keys: Mapping[str, str]) -> list[str]:
    """Lines that explain `keys` on screen: one per seat, then the menu; at most 36 characters wide.

    >>> legend(key_map(["red"]))
    ['keys: red    12345=cards q=hero w=draw', '      m=menu Ctrl-C=quit']
    """
    by_seat: dict[str, dict[str, str]] = {}
    for key, name in keys.items():
        seat, _, control = name.rpartition(".")
        by_seat.setdefault(seat, {})[control] = key
    lines = [f"{seat:<6} {''.join(k for c, k in controls.items() if c.startswith('card'))}=cards "
             f"{controls.get('hero', '-')}=hero {controls.get('draw', '-')}=draw"
             for seat, controls in by_seat.items() if seat]
    lines.append(f"{by_seat.get('', {}).get(MENU_BUTTON, '-')}=menu Ctrl-C=quit")
    return [("keys: " if i == 0 else " " * 6) + line for i, line in enumerate(lines)]


class Keyboard:
    """Reads single keys from a terminal in cbreak mode on a daemon thread and drives the pins."""

    def __init__(self, stream: TextIO, keys: Mapping[str, str], pins: Finger, tap_seconds: float) -> None:
        import termios   # Unix terminals only; imported here so the package loads anywhere
        import tty
        self._termios = termios
        self._fd = stream.fileno()
        self._keys, self._pins = keys, pins
        self._tap = tap_seconds
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        threading.Thread(target=self._read, daemon=True, name="sim-keyboard").start()

    def _read(self) -> None:
        while True:
            try:
                key = os.read(self._fd, 1).decode(errors="replace")
            except OSError:
                return
            if not key:
                return
            if key in self._keys:
                self._pins.press(self._keys[key], self._tap)

    def close(self) -> None:
        """Give the terminal back its settings."""
        self._termios.tcsetattr(self._fd, self._termios.TCSADRAIN, self._saved)


def interactive(stream: TextIO | None) -> bool:
    """True if `stream` is a terminal that keys can be read from."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):    # not a file (a stand-in without isatty), or a closed one
        return False
