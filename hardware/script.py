"""`--input-script FILE`: button presses for reproducible demos, bug reports and tests.

One step per line; `#` starts a comment:

    red.card3 press        # a tap: down, then up
    white.draw hold 2.0    # down for 2.0 seconds, then up
    menu press
    wait 0.5               # nothing for 0.5 seconds
    menu down              # down, and kept down while the next steps run …
    red.hero press
    menu up                # … until it is let go: several buttons held at once
"""
import time
from collections.abc import Callable, Collection, Iterable
from typing import NamedTuple, Protocol

from hardware.errors import HardwareError


class Step(NamedTuple):
    """One script line: `action` press|hold|down|up|wait, the button `name` (None for wait), `seconds`."""
    action: str
    name: str | None
    seconds: float


class Finger(Protocol):
    """What a script drives: something that holds a named button down for some seconds, or down until it lets it
    go (`hardware.sim.SimPins`)."""

    def press(self, name: str, seconds: float) -> None: ...

    def down(self, name: str) -> None: ...

    def up(self, name: str) -> None: ...


def seconds(text: str, most: float = 3600) -> float:
    """`text` as a number of seconds from 0 to `most`; ValueError otherwise (also for nan and inf).

    >>> seconds("0.5")
    0.5
    >>> seconds("61", most=60)
    Traceback (most recent call last):
    ...
    ValueError: '61' is not a number of seconds from 0 to 60
    """
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= most:
        raise ValueError(f"{text!r} is not a number of seconds from 0 to {most:g}")
    return value


def _seconds(text: str, where: str) -> float:
    try:
        return seconds(text)
    except ValueError:
        raise HardwareError(f"{where}: {text!r} is not a number of seconds") from None


def parse_step(line: str, names: Collection[str], where: str) -> Step | None:
    """The step on one line (None for a blank or comment line); `names` are the known buttons."""
    words = line.split("#", 1)[0].split()
    if not words:
        return None
    if words[0] == "wait":
        if len(words) == 2:
            return Step("wait", None, _seconds(words[1], where))
    elif words[0] not in names:
        raise HardwareError(f"{where}: unknown button {words[0]!r} (buttons: {', '.join(names)})")
    elif words[1:] in (["press"], ["down"], ["up"]):
        return Step(words[1], words[0], 0.0)
    elif len(words) == 3 and words[1] == "hold":
        return Step("hold", words[0], _seconds(words[2], where))
    raise HardwareError(f"{where}: expected 'BUTTON press', 'BUTTON hold SECONDS', 'BUTTON down', 'BUTTON up' or "
                        "'wait SECONDS'")


def parse_script(text: str, names: Collection[str], where: str) -> list[Step]:
    """Every step of the script `text` of file `where`; errors name the file and line.

    >>> parse_script("menu press\\nwait 0.5  # a pause", ["menu"], "demo.txt")
    [Step(action='press', name='menu', seconds=0.0), Step(action='wait', name=None, seconds=0.5)]
    """
    steps = (parse_step(line, names, f"{where}:{n}") for n, line in enumerate(text.splitlines(), 1))
    return [s for s in steps if s is not None]


def run_script(steps: Iterable[Step], pins: Finger, tap_seconds: float,
               sleep: Callable[[float], object] = time.sleep) -> None:
    """Drive `pins` through `steps`; a press is held down `tap_seconds`."""
    for step in steps:
        if step.name is None:  # a wait
            sleep(step.seconds)
        elif step.action == "down":
            pins.down(step.name)
        elif step.action == "up":
            pins.up(step.name)
        else:
            pins.press(step.name, tap_seconds if step.action == "press" else step.seconds)
