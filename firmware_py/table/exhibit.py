"""The `[exhibit]` section: the table left alone in a museum or a club, each key checked.

What the table does when nothing is saved (`start`), how long it waits on the menu before it
plays itself to draw visitors in (`attract_after`), how long a game may go without a press
before it warns and is left (`walk_away`, 0 in a club), and the day: opening hours outside
which it sleeps, and a night brightness. Times of day are "HH:MM" strings, local time; a span
whose end comes before its start runs across midnight. A table whose configuration has no
`[exhibit]` section (at home, in a café: `make run`) is never left alone that way (`NO_EXHIBIT`):
no attract mode, no walk-away; a game waits, saved, however long nobody presses.

>>> e = parse_exhibit({"opens": "22:00", "closes": "02:00", "walk_away": 0})
>>> e.is_open(datetime.time(23, 30)), e.is_open(datetime.time(12, 0)), e.walk_away
(True, False, 0.0)
>>> parse_exhibit({"closes": "25:00"}, "roseking.toml")
Traceback (most recent call last):
...
hardware.errors.ConfigError: roseking.toml: exhibit.closes: must be a time of day "HH:MM", 00:00 to 23:59 (got "25:00")
"""
import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from hardware.config import DEFAULTS, Config, ConfigTable, Invalid, Reader, boolean, choice, number

ATTRACT_LEVELS = ("random", "greedy", "easy", "medium")
"""The computer players cheap enough to play the table's attract games all day."""
TIME_OF_DAY = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")


class Start(StrEnum):
    """What the table does when it starts with no game saved: the new-game menu, attract mode
    (games of the computer against itself, an invitation, never kept), or a demonstration (games
    of the computer against itself, kept and archived like any game)."""

    MENU = "menu"
    ATTRACT = "attract"
    DEMO = "demo"


@dataclass(frozen=True)
class Span:
    """The times of day from `start` up to `end` (local time); across midnight when `end` is not after `start`.

    >>> Span(datetime.time(20), datetime.time(7)).contains(datetime.time(3, 15))
    True
    """
    start: datetime.time
    end: datetime.time

    def contains(self, t: datetime.time) -> bool:
        if self.start < self.end:
            return self.start <= t < self.end
        return t >= self.start or t < self.end


@dataclass(frozen=True)
class Exhibit:
    """What the `[exhibit]` section says (times in seconds; 0 turns `attract_after` and `walk_away` off)."""
    start: Start = Start.MENU
    attract_after: float = 120.0
    """Seconds without a press on the new-game menu or a game's end before attract mode (0: never)."""
    attract_level: str = "easy"
    how_to_play: bool = True
    """Between attract games, the short "how to play" sequence."""
    walk_away: float = 300.0
    """Seconds without a press in a visitor's game before the warning (0: club mode, never)."""
    warning: float = 30.0
    """Seconds the warning counts down before the game is archived (`unfinished`) and left."""
    hours: Span | None = None
    """The opening hours (None: always open); outside them the table sleeps."""
    sleep_after: float = 60.0
    """Outside the opening hours, seconds without a press before a woken table sleeps again."""
    night: Span | None = None
    """When the night brightness applies (None: never)."""
    day_brightness: float = 1.0
    night_brightness: float = 0.4

    def summary(self) -> str:
        """The section in a line, for `roseking config`.

        >>> print(Exhibit(hours=Span(datetime.time(10), datetime.time(18))).summary())
        nothing saved: menu; attract mode after 120 s (easy, how to play); walk-away warning after 300 s, \
for 30 s; open 10:00 to 18:00 (asleep after 60 s outside); brightness 100%
        """
        attract = (f"attract mode after {self.attract_after:g} s ({self.attract_level}"
                   f"{', how to play' if self.how_to_play else ''})" if self.attract_after else "no attract mode")
        walk = (f"walk-away warning after {self.walk_away:g} s, for {self.warning:g} s" if self.walk_away
                else "no walk-away (club mode)")
        hours = (f"open {self.hours.start:%H:%M} to {self.hours.end:%H:%M} (asleep after {self.sleep_after:g} s "
                 "outside)" if self.hours else "always open")
        light = f"brightness {self.day_brightness:.0%}" + (
            f", {self.night_brightness:.0%} from {self.night.start:%H:%M} to {self.night.end:%H:%M}" if self.night
            else "")
        return f"nothing saved: {self.start}; {attract}; {walk}; {hours}; {light}"

    def is_open(self, t: datetime.time) -> bool:
        """True at time of day `t` within the opening hours."""
        return self.hours is None or self.hours.contains(t)

    def brightness(self, t: datetime.time) -> float:
        """The schedule's brightness at time of day `t` (0–1 of the configured brightness)."""
        return self.night_brightness if self.night is not None and self.night.contains(t) else self.day_brightness


NO_EXHIBIT = Exhibit(attract_after=0.0, walk_away=0.0)
"""A table without an `[exhibit]` section: no attract mode, no walk-away, always open."""


def time_of_day(v: object) -> datetime.time:
    """A time of day written "HH:MM" (24 hours).

    >>> time_of_day("07:30")
    datetime.time(7, 30)
    """
    match = TIME_OF_DAY.fullmatch(v) if isinstance(v, str) else None
    if match is None:
        shown = f'"{v}"' if isinstance(v, str) else repr(v)
        raise Invalid(f'must be a time of day "HH:MM", 00:00 to 23:59 (got {shown[:40]})')
    return datetime.time(int(match[1]), int(match[2]))


def _seconds_or_off(least: float, most: float) -> Reader[float]:
    """0 (off), or from `least` to `most` seconds.

    >>> _seconds_or_off(30, 600)(5)
    Traceback (most recent call last):
    ...
    hardware.config.Invalid: must be 0 (off) or from 30 to 600 seconds (got 5)
    """
    within = number(least, most)

    def read(v: object) -> float:
        if v == 0 and not isinstance(v, bool):
            return 0.0
        try:
            return within(v)
        except Invalid:
            raise Invalid(f"must be 0 (off) or from {least:g} to {most:g} seconds (got {v!r})") from None
    return read


def _span(t: ConfigTable, first: str, second: str) -> Span | None:
    """The span from key `first` to key `second`: both given, or neither; never empty."""
    start, end = t.get(first, None, time_of_day), t.get(second, None, time_of_day)
    if start is None and end is None:
        return None
    if start is None or end is None:
        missing = first if start is None else second
        raise t.error(missing, f"missing: {first} and {second} go together")
    if start == end:
        raise t.error(second, f"must differ from {first} ({start:%H:%M})")
    return Span(start, end)


def parse_exhibit(data: Mapping[str, object], where: str = DEFAULTS) -> Exhibit:
    """The `Exhibit` of a parsed `[exhibit]` table; ConfigError names the file and the key at fault."""
    t = ConfigTable(data, "exhibit.", where)
    e = Exhibit(
        start=Start(t.get("start", Exhibit.start.value, choice(*(str(s) for s in Start)))),
        attract_after=t.get("attract_after", Exhibit.attract_after, _seconds_or_off(10, 86400)),
        attract_level=t.get("attract_level", Exhibit.attract_level, choice(*ATTRACT_LEVELS)),
        how_to_play=t.get("how_to_play", Exhibit.how_to_play, boolean),
        walk_away=t.get("walk_away", Exhibit.walk_away, _seconds_or_off(30, 86400)),
        warning=t.get("warning", Exhibit.warning, number(5, 600)),
        hours=_span(t, "opens", "closes"),
        sleep_after=t.get("sleep_after", Exhibit.sleep_after, number(10, 3600)),
        night=_span(t, "night_starts", "night_ends"),
        day_brightness=t.get("day_brightness", Exhibit.day_brightness, number(0, 1, open_low=True)),
        night_brightness=t.get("night_brightness", Exhibit.night_brightness, number(0, 1, open_low=True)),
    )
    t.finish()
    return e


def exhibit_settings(config: Config) -> Exhibit:
    """The `Exhibit` of a configured table (`NO_EXHIBIT` without the section).

    >>> from hardware.config import parse_config
    >>> exhibit_settings(parse_config({})).walk_away, exhibit_settings(parse_config({"exhibit": {}})).walk_away
    (0.0, 300.0)
    """
    return NO_EXHIBIT if config.exhibit is None else parse_exhibit(config.exhibit, config.source)
