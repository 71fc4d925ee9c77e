"""The new-game menu on the card displays: card 1 mode, card 2 level, card 3 who plays red, the last card start.

On a panel of three cards (a teams table) card 3 is the start. Each card shows its
title and its value (`MODE 2 PLAYERS`), from its first letter whenever it changes (`since`).
Leaving a game that is not over asks for a second press of start (`LEAVE`) within
`confirm_seconds`: `CONFIRM_SECONDS`, or as long as the question takes to read at the
table's scroll speed, counted down on the display; once that time has passed, the menu
says `NOT STARTED`, and a press asks again rather than starting.

>>> menu = Menu(Setup(), Table(("red", "white"), cards=5), speed=20.0)
>>> menu.press(1, 0.0), menu.setup.mode
(None, <Mode.VS_COMPUTER: 'vs-computer'>)
>>> menu.labels()[:3]
['MODE COMPUTER', 'LEVEL MEDIUM', 'RED YOU']
>>> menu.press(5, 1.0)
Setup(mode=<Mode.VS_COMPUTER: 'vs-computer'>, level='medium', human='red', seed=0)
"""
from dataclasses import dataclass, replace

from firmware_py.table.game import Mode, Setup, Table, why_unplayable
from firmware_py.table.reading import window
from firmware_py.table.settings import LEVELS

CONFIRM_SECONDS = 5.0       # the least time to press start again
LEAVE = "LEAVE THIS GAME? PRESS START AGAIN"
NOT_STARTED = "NOT STARTED"
MODE_NAMES = {Mode.HUMANS: "2 PLAYERS", Mode.VS_COMPUTER: "COMPUTER", Mode.DEMO: "DEMO", Mode.TEAMS: "TEAMS"}
MODES = tuple(Mode)


@dataclass(frozen=True)
class Refusal:
    """Why a menu did not do what was asked, shown from `since`."""
    text: str
    since: float


class Menu:
    """The choices for the next game; `press(k, now)` returns the Setup to start, or None."""

    def __init__(self, setup: Setup, table: Table, speed: float) -> None:
        self.setup, self.table = setup, table
        self.confirm_seconds = window([LEAVE], table.cards - 1, speed, CONFIRM_SECONDS)
        self.confirm_since: float | None = None     # a game is in progress: start asks twice
        self.refusal: Refusal | None = None
        self.in_progress = False
        self.since = 0.0                            # when the labels were last shown anew

    def labels(self) -> list[str]:
        """The text of each card display, card 1 first; the last one starts."""
        s = self.setup
        level = f"LEVEL {s.level.upper()}" if s.mode in (Mode.VS_COMPUTER, Mode.DEMO) else "NO COMPUTER"
        red = {Mode.VS_COMPUTER: "RED YOU" if s.human == "red" else "RED COMPUTER",
               Mode.DEMO: "RED COMPUTER"}.get(s.mode, "RED PERSON")
        cards = self.table.cards
        return ([f"MODE {MODE_NAMES[s.mode]}", level, red, ""] + [""] * cards)[:cards - 1] + ["START"]

    def open(self, in_progress: bool, now: float) -> None:
        """Show the menu at `now`; `in_progress` means starting a game leaves one that is not over."""
        self.in_progress, self.confirm_since, self.refusal, self.since = in_progress, None, None, now

    def confirming(self, now: float) -> float | None:
        """Seconds left to press start again and leave the game in progress, or None."""
        if self.confirm_since is None or now > self.confirm_since + self.confirm_seconds:
            return None
        return self.confirm_since + self.confirm_seconds - now

    def press(self, card: int, now: float) -> Setup | None:
        """Card button `card` (1–5) pressed on any seat."""
        s = self.setup
        self.refusal = None
        if card == self.table.cards:
            return self._start(now)
        if card == 1:
            self.setup = replace(s, mode=MODES[(MODES.index(s.mode) + 1) % len(MODES)])
        elif card == 2:
            self.setup = replace(s, level=LEVELS[(LEVELS.index(s.level) + 1) % len(LEVELS)]
                                 if s.level in LEVELS else LEVELS[0])
        elif card == 3:
            self.setup = replace(s, human="white" if s.human == "red" else "red")
        if self.setup != s:
            self.since = now
        self.confirm_since = None
        return None

    def _start(self, now: float) -> Setup | None:
        why = why_unplayable(self.setup, self.table)
        if why is not None:
            self.refusal = Refusal(why.value, now)
            return None
        if self.in_progress and self.confirming(now) is None:
            self.confirm_since = now    # leaving a game needs a confirmation, shown counting down
            return None
        self.confirm_since = None
        return self.setup
