"""The new-game menu on the card displays: card 1 mode, card 2 level, card 3 who plays red, the last card start.

On a panel of three cards (a teams table) card 3 is the start. While a game walked away from
may be brought back, the card before the start offers it (RESUME, `resume_card`: card 4, or
card 2 on a teams panel, whose games have no level). Each card shows its
title and its value (`MODE 2 PLAYERS`), from its first letter whenever it changes (`since`).
Leaving a game that is not over asks for a second press of start (`leave`) within
`confirm_seconds`: `CONFIRM_SECONDS`, or as long as the question takes to read in the
table's language at its scroll speed, counted down on the display; once that time has
passed, the menu says `not-started`, and a press asks again rather than starting.

>>> menu = Menu(Setup(), Table(("red", "white"), cards=5), speed=20.0, language=Language.EN)
>>> menu.press(1, 0.0), menu.setup.mode
(None, <Mode.VS_COMPUTER: 'vs-computer'>)
>>> menu.labels(Language.EN)[:3], menu.labels(Language.DE)[1]
(['MODE COMPUTER', 'LEVEL MEDIUM', 'RED YOU'], 'STUFE MITTEL')
>>> menu.press(5, 1.0)
Setup(mode=<Mode.VS_COMPUTER: 'vs-computer'>, level='medium', human='red', seed=0)
"""
from dataclasses import dataclass, replace

from firmware_py.table.game import Mode, Setup, Table, why_unplayable
from firmware_py.table.messages import Language, Phrase, Words, say, say_words
from firmware_py.table.reading import window
from firmware_py.table.settings import LEVELS

CONFIRM_SECONDS = 5.0       # the least time to press start again
MODES = tuple(Mode)


def level_name(level: str, language: Language) -> str:
    """A computer player's name as the displays write it: a menu level in `language`, any other player as named.

    >>> level_name("hard", Language.ES), level_name("random", Language.ES)
    ('DIFÍCIL', 'RANDOM')
    """
    return say_words(level_words(level), language)


def level_words(level: str) -> Words:
    """A computer player's name as the displays write it: a menu level's words, any other player as named."""
    return Phrase(f"level-{level}") if level in LEVELS else level.upper()


@dataclass(frozen=True)
class Refusal:
    """Why a menu did not do what was asked, shown from `since`."""
    text: str
    since: float


class Menu:
    """The choices for the next game; `press(k, now)` returns the Setup to start, or None."""

    def __init__(self, setup: Setup, table: Table, speed: float, language: Language) -> None:
        self.setup, self.table, self.language = setup, table, language
        self.confirm_seconds = window([say("leave", language)], table.cards - 1, speed, CONFIRM_SECONDS)
        self.confirm_since: float | None = None     # a game is in progress: start asks twice
        self.refusal: Refusal | None = None
        self.in_progress = False
        self.resumable = False                      # a game walked away from is offered back
        self.since = 0.0                            # when the labels were last shown anew

    def labels(self, language: Language) -> list[str]:
        """The text of each card display in `language`, card 1 first; the last one starts."""
        return [words.say(language) if words is not None else "" for words in self.words()]

    def words(self) -> list[Phrase | None]:
        """The words of each card display, card 1 first (None: it shows nothing); the last one starts."""
        s = self.setup
        level = Phrase.of("menu-level", level=level_words(s.level)) \
            if s.mode in (Mode.VS_COMPUTER, Mode.DEMO) else Phrase("menu-no-computer")
        red = {Mode.VS_COMPUTER: "menu-red-you" if s.human == "red" else "menu-red-computer",
               Mode.DEMO: "menu-red-computer"}.get(s.mode, "menu-red-person")
        cards = self.table.cards
        mode = Phrase.of("menu-mode", mode=Phrase(f"mode-{s.mode}"))
        shown: list[Phrase | None] = ([mode, level, Phrase(red), None] + [None] * cards)[:cards - 1] + \
            [Phrase("menu-start")]
        if self.resume_card is not None:
            shown[self.resume_card - 1] = Phrase("menu-resume")
        return shown

    @property
    def resume_card(self) -> int | None:
        """The card that brings back the game walked away from, while there is one (else None)."""
        return self.table.cards - 1 if self.resumable else None

    def open(self, in_progress: bool, now: float, resumable: bool = False) -> None:
        """Show the menu at `now`; `in_progress` means starting a game leaves one that is not over; `resumable`,
        that a game walked away from may be brought back."""
        self.in_progress, self.confirm_since, self.refusal, self.since = in_progress, None, None, now
        self.resumable = resumable

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
            self.refusal = Refusal(say(why.value, self.language), now)
            return None
        if self.in_progress and self.confirming(now) is None:
            self.confirm_since = now    # leaving a game needs a confirmation, shown counting down
            return None
        self.confirm_since = None
        return self.setup
