"""The staff's way in and the staff menu: a new game, the brightness, a clean shutdown, on the buttons.

The way in (`Access`) is one no visitor makes, whatever he presses:

- **the combination**: MENU held down and, while it stays down, the four taps of `Access.sequence`
  in order (the first seat's HERO, the second seat's HERO, the first seat's DRAW, the second
  seat's DRAW), each let go before the next, nothing else down, at most `STEP_SECONDS` apart. A
  hand flat on the panel holds a set of neighbouring buttons down at once and lets them go
  together: it never taps one button while MENU stays down, so no palm, however often it comes
  down, makes the combination. A button taken to be stuck counts as up (`hardware.events`), so a
  jammed MENU never holds the door open. MENU pressed first opens the game menu, where HERO and
  DRAW do nothing: the combination leaves the game as it was.
- **the key switch**, where the table has one (`[staff] key_pin`): turned, the staff menu opens;
  turned back, it closes. A table with a key has no combination.

Only the table's own buttons count (`Origin.PANEL`): a press from the network (a web page) never
opens the staff menu, nor does anything in it. SHUT DOWN is confirmed by holding its button down
for `HOLD_SECONDS`, which no play gesture does (a button acts when it goes down; holding it
changes nothing in a game).

>>> from hardware.events import ButtonEvent, PRESS, RELEASE
>>> access = Access(("red", "white"), key=False)
>>> def tap(name, now, kind=PRESS):
...     seat, _, control = name.rpartition(".")
...     return access.event(ButtonEvent(seat or None, control, kind), now)
>>> tap("menu", 0.0)
False
>>> [tap(name, t) or tap(name, t + 0.1, RELEASE) for t, name in enumerate(access.sequence, 1)]
[False, False, False, True]
"""
from dataclasses import dataclass, replace

from firmware_py.table.messages import Language, say
from hardware.events import PRESS, RELEASE, STUCK, ButtonEvent, Origin
from hardware.names import MENU_BUTTON
from hardware.script import Step

STEP_SECONDS = 5.0                  # the longest pause between two taps of the combination
LIGHT_STEPS = (1.0, 0.75, 0.5, 0.25)
"""The brightness levels the staff menu steps through, of the configured brightness."""
ITEMS = ("new", "light", "off")     # on cards 1, 2 and 3 (a teams panel has three)
HOLD_SECONDS = 3.0                  # SHUT DOWN is held down this long to shut the machine down


class Access:
    """The staff's way in on the table's own buttons: `event(e, now)` for every button event, True when it
    completes the combination (never on a table with a `key`, which is the way in there)."""

    def __init__(self, seats: tuple[str, ...], key: bool) -> None:
        first, second = seats[0], seats[1 % len(seats)]
        self.sequence: tuple[str, ...] = () if key else (
            f"{first}.hero", f"{second}.hero", f"{first}.draw", f"{second}.draw")
        self.down: set[str] = set()
        self.done = 0           # taps of the sequence made so far, while MENU is down
        self.last = 0.0         # when the last of them was

    def steps(self) -> list[Step]:
        """The combination as input-script steps (`hardware.script`): MENU down, the taps, MENU up; none on a
        table with a key."""
        if not self.sequence:
            return []
        return [Step("down", MENU_BUTTON, 0.0), *(Step("press", name, 0.0) for name in self.sequence),
                Step("up", MENU_BUTTON, 0.0)]

    def event(self, event: ButtonEvent, now: float) -> bool:
        if event.origin is not Origin.PANEL:
            return False
        name = event.name
        if event.kind in (RELEASE, STUCK):
            self.down.discard(name)
            if name == MENU_BUTTON:
                self.done = 0
            return False
        if event.kind is not PRESS:
            return False
        alone = self.down <= {MENU_BUTTON}      # nothing but MENU was down: a tap of one button
        self.down.add(name)
        if not self.sequence or name == MENU_BUTTON or MENU_BUTTON not in self.down or not alone:
            self.done = 0
            return False
        if self.done and now > self.last + STEP_SECONDS:
            self.done = 0
        if name != self.sequence[self.done]:
            self.done = 0
        if name == self.sequence[self.done]:
            self.done, self.last = self.done + 1, now
        if self.done == len(self.sequence):
            self.done = 0
            return True
        return False


@dataclass(frozen=True)
class Confirm:
    """SHUT DOWN's button `name` went down at `since`: held until `since + HOLD_SECONDS`, the machine shuts
    down; let go before (`let_go`: when), it does not."""
    name: str
    since: float
    let_go: float | None = None

    def left(self, now: float) -> float | None:
        """Seconds it must still be held at `now`, or None once let go."""
        return None if self.let_go is not None else max(0.0, self.since + HOLD_SECONDS - now)


class StaffMenu:
    """The staff menu's state: when it opened, the brightness chosen, SHUT DOWN being held."""

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

    def press(self, card: int | None, name: str, now: float) -> str | None:
        """Card `card` (button `name`) went down: `new` or `light`, else None (nothing there, or SHUT DOWN,
        which waits to be held `HOLD_SECONDS`: `due`)."""
        self.touched = now
        item = ITEMS[card - 1] if card is not None and 1 <= card <= len(ITEMS) else None
        self.confirm = Confirm(name, now) if item == "off" else None
        return item if item != "off" else None

    def release(self, name: str, now: float) -> None:
        """Button `name` came up: SHUT DOWN let go before its time is not confirmed."""
        if self.confirm is not None and self.confirm.name == name and self.confirm.let_go is None:
            self.confirm = replace(self.confirm, let_go=now)
            self.touched = now

    def due(self, now: float) -> bool:
        """True once SHUT DOWN has been held `HOLD_SECONDS` (then not again)."""
        confirm = self.confirm
        if confirm is not None and confirm.let_go is None and now >= confirm.since + HOLD_SECONDS:
            self.confirm = None
            return True
        return False


def next_light(light: float) -> float:
    """The staff menu's next brightness after `light`: the next step down, from the dimmest back to full.

    >>> next_light(1.0), next_light(0.25), next_light(0.6)
    (0.75, 1.0, 0.5)
    """
    lower = [step for step in LIGHT_STEPS if step < light - 1e-9]
    return lower[0] if lower else LIGHT_STEPS[0]
