"""The staff's combination and the staff menu: a new game, the brightness, a clean shutdown, on the buttons.

The combination is MENU with one seat's HERO and DRAW, all three held down together for
`CHORD_SECONDS` on the loop's clock. It is read from the button events that every source makes
by the one rule of `hardware.events` (press, release, stuck): a button taken to be stuck counts as
up, so a jammed key or a leaning visitor never stands in it. Play never holds three buttons at
once, and MENU pressed first opens the game menu, where HERO and DRAW do nothing, so the
combination leaves the game as it was.

>>> from hardware.events import ButtonEvent, PRESS, STUCK
>>> chord = Chord(("red", "white"))
>>> for name in ("menu", "white.hero", "white.draw"):
...     seat, _, control = name.rpartition(".")
...     chord.event(ButtonEvent(seat or None, control, PRESS), 10.0)
>>> chord.due(12.9), chord.due(13.0), chord.due(14.0)
(False, True, False)
"""
from dataclasses import dataclass

from firmware_py.table.messages import Language, say
from hardware.events import PRESS, RELEASE, STUCK, ButtonEvent
from hardware.names import MENU_BUTTON

CHORD_SECONDS = 3.0                 # the combination is held this long
LIGHT_STEPS = (1.0, 0.75, 0.5, 0.25)
"""The brightness levels the staff menu steps through, of the configured brightness."""
ITEMS = ("new", "light", "off")     # on cards 1, 2 and 3 (a teams panel has three)
CONFIRM_SECONDS = 6.0               # the least time to press SHUT DOWN again


class Chord:
    """Whether MENU and one of `seats`' HERO and DRAW have been held together for CHORD_SECONDS: `event` for
    every button event, `due(now)` True once per hold."""

    def __init__(self, seats: tuple[str, ...]) -> None:
        self.chords = [frozenset({MENU_BUTTON, f"{seat}.hero", f"{seat}.draw"}) for seat in seats]
        self.down: set[str] = set()
        self.since: float | None = None      # when the buttons of a chord were last all down

    def event(self, event: ButtonEvent, now: float) -> None:
        if event.kind is PRESS:
            self.down.add(event.name)
        elif event.kind in (RELEASE, STUCK):
            self.down.discard(event.name)
        whole = any(chord <= self.down for chord in self.chords)
        if not whole:
            self.since = None
        elif self.since is None and event.kind is PRESS:
            self.since = now

    def due(self, now: float) -> bool:
        """True when the chord has been held CHORD_SECONDS by `now` (then not again until it is let go)."""
        if self.since is not None and now >= self.since + CHORD_SECONDS:
            self.since = float("inf")
            return True
        return False


@dataclass(frozen=True)
class Confirm:
    """SHUT DOWN pressed once at `since`: a second press until `until` shuts the machine down."""
    since: float
    until: float


class StaffMenu:
    """The staff menu's state: when it opened, the brightness chosen, a shutdown waiting for its second press."""

    def __init__(self) -> None:
        self.since = 0.0
        self.touched = 0.0
        self.confirm: Confirm | None = None

    def open(self, now: float) -> None:
        self.since = self.touched = now
        self.confirm = None

    def labels(self, light: float, language: Language) -> list[str]:
        """The text of cards 1–3: NEW GAME, the brightness now (LIGHT 75%), SHUT DOWN."""
        return [say("staff-new", language), say("staff-light", language, percent=round(light * 100)),
                say("staff-off", language)]

    def press(self, card: int | None, now: float, confirm_seconds: float) -> str | None:
        """Card `card` pressed: `new`, `light` or `off` (SHUT DOWN pressed again in time), else None (nothing
        there, or the first press of SHUT DOWN, which waits `confirm_seconds` for the second)."""
        self.touched = now
        item = ITEMS[card - 1] if card is not None and 1 <= card <= len(ITEMS) else None
        if item != "off":
            self.confirm = None
            return item
        if self.confirm is not None and now <= self.confirm.until:
            self.confirm = None
            return "off"
        self.confirm = Confirm(now, now + confirm_seconds)
        return None


def next_light(light: float) -> float:
    """The staff menu's next brightness after `light`: the next step down, from the dimmest back to full.

    >>> next_light(1.0), next_light(0.25), next_light(0.6)
    (0.75, 1.0, 0.5)
    """
    lower = [step for step in LIGHT_STEPS if step < light - 1e-9]
    return lower[0] if lower else LIGHT_STEPS[0]
