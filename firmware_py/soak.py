"""`roseking soak`: the table service for many simulated hours in minutes, visited by people at random.

The real service runs: `firmware_py.table.service.start`'s loop, session, saves and computer's
worker, on the simulated board and displays (no terminal view), each guarded as on the Pi. The
soak reaches it only by the loop's own ways in: visitors press the buttons as the web page
does (`RemoteButtons`, the GPIO buttons' rule), whose events go to `submit`; the soak moves the
loop's clock on and `step`s it; it watches what is shown as a receiver and a ticker.

The clock is the loop's one injectable clock, moved on by the soak, and so are the buttons'
timers: while somebody is at the table, in the loop's own ticks (20 a second); while nobody is,
a second at a time. The computer's worker thinks in real time, at `LEVEL` within
`THINK_SECONDS`: while it has a question the clock stands still and the soak waits for its
answer, so a move takes as long on the table as it would at any speed of the worker.

Visitors (`Visitors`) come after idle stretches: some play a game to its end (legal moves, a
choice shown, then made, as a person does), some walk away in the middle, a child mashes the
buttons (bursts, holds, illegal choices, the menus), a hand lies flat on the panel again and
again (`palm`: runs of neighbouring buttons held down together, MENU beside both DRAWs, the worst
place for it), the staff open the staff menu with their combination (or key) and start a new
game, step the light or shut the table down (a harmless command stands in for the poweroff).
Errors are whatever goes wrong: an exception, a line in the service's log (it logs only trouble),
a frame the devices refused, a visitor who could not get a game started, the staff menu opened
(or a shutdown asked) while no staff member is at the table, a game dealt as the one before it.

SIGKILL rounds (`--kills`, one per KILL_EVERY_HOURS by default): at seeded moments between visits
the soak's service stops, a real `roseking play` process takes over the same data directory and
is killed with SIGKILL at a random moment (while it starts, or while it plays), and the soak's
service starts again from what that one left: it must resume the very moves saved, every archived
game must replay. The table's writes to the disk are read from the kernel (`/proc/self/io`); the
status file goes where the service puts it (the runtime directory under systemd, else the data
directory). A `stop` event (the command sets it on SIGINT or SIGTERM) ends a soak before its hours;
the report says the hours it ran.
"""
import asyncio
import collections
import datetime
import itertools
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeAlias

from gpiozero.pins.mock import MockFactory

from engine.moves import DRAW, MOVES, PASS
from engine.record import replay
from firmware_py.bench.play import process_usage
from firmware_py.errors import UsageError
from firmware_py.table import service
from firmware_py.table.exhibit import exhibit_settings
from firmware_py.table.game import HUMAN, Game, Mode, Setup
from firmware_py.table.loop import TICK_SECONDS, TableLoop, wall_from
from firmware_py.table.messages import Language
from firmware_py.table.saves import CURRENT
from firmware_py.table.session import OVER_GUARD_SECONDS, Screen, Session
from firmware_py.table.settings import table_settings
from firmware_py.table.staff import HOLD_SECONDS
from firmware_py.table.state import TableState
from firmware_py.table.status import StatusCollector, StatusFile, runtime_directory
from firmware_py.web.remote import RemoteButtons
from firmware_py.web.settings import parse_web
from hardware.buttons import Buttons
from hardware.config import Config, parse_config
from hardware.devices import Devices
from hardware.events import PRESS, ButtonEvent, Origin, Timer
from hardware.frame import RGB, Bitmap, Frame
from hardware.names import MENU_BUTTON, STAFF_KEY
from hardware.roles import CardDisplays, Lights
from hardware.sim import SimDisplays, SimLights, SimScreen

START = datetime.datetime(2026, 12, 1, 9, 0)    # the wall clock when a soak starts: before opening time
EXHIBIT = {"opens": "10:00", "closes": "18:00"}   # a museum's day: the table sleeps at night, a press wakes it
LEVEL = "easy"              # the computer's level in the soak: cheap
THINK_SECONDS = 0.2         # and its limit (a hint asks `hard`: it stops here too)
IDLE_TICK_SECONDS = 1.0     # the clock's step while nobody is at the table
MEAN_IDLE_SECONDS = 15 * 60.0
MOST_IDLE_SECONDS = 3 * 3600.0
PERSON_THINKS = (1.0, 6.0)  # the seconds a person thinks before a move: from, to
WORKER_WAIT_SECONDS = 60.0  # the longest the soak waits (really) for the worker's answer or the loop's turn
NAVIGATION_PRESSES = 40     # presses a visitor needs at most to start a game from any screen
WARM_SHARE = 0.1            # memory is also read after this share of the hours: the bounded caches fill first
MAX_HOURS = 2000.0          # about three months of an exhibit open every day
VISITS = {"player": 45, "walk-away": 25, "child": 15, "staff": 15}      # how often each kind comes
PALM_VISITS = 10            # and how often a hand flat on the panel
KILL_EVERY_HOURS = 25.0     # a SIGKILL round this often, by default
KILL_WITHIN_SECONDS = (0.2, 5.0)    # a killed service lives this long (real seconds): from its start-up into play
STAFF_COMMAND = ("true",)   # the shutdown command in the soak: the table asks, nothing powers off
SHUTDOWN_LINE = "roseking: the staff menu shuts the table down"
SHOWN_ERRORS = 10


@dataclass(frozen=True)
class Hold:
    """`who` holds button `name` down for `seconds` (a tap is short), then lets go."""
    name: str
    seconds: float
    who: str


@dataclass(frozen=True)
class Wait:
    """Nothing is pressed for `seconds`; `present`: somebody is at the table (the clock ticks finely)."""
    seconds: float
    present: bool = True


@dataclass(frozen=True)
class Press:
    """`who` pushes button `name` down (`down`) or lets it go, and goes on at once: buttons held together."""
    name: str
    down: bool
    who: str


Action: TypeAlias = Hold | Wait | Press
Actions: TypeAlias = Iterator[Action]


@dataclass
class Tally:
    """What the visitors did, and what went wrong."""
    visits: dict[str, int] = field(default_factory=dict)
    walked_away: int = 0
    staff_resets: int = 0
    presses: int = 0
    errors: list[str] = field(default_factory=list)
    palms: int = 0
    staff_menus: collections.Counter[str] = field(default_factory=collections.Counter)
    """Staff menus opened, by who was at the table (the staff, or a kind of visitor)."""
    shutdowns: collections.Counter[str] = field(default_factory=collections.Counter)
    """Shutdowns asked, by who was at the table."""
    deals: int = 0
    repeated_deals: int = 0
    kills: int = 0


def default_toml(language: str) -> str:
    """The configuration file of the soak's own table (a museum's day), as `roseking play` reads it.

    >>> print(default_toml("de"), end="")
    [table]
    language = "de"
    [exhibit]
    opens = "10:00"
    closes = "18:00"
    """
    return f'[table]\nlanguage = "{language}"\n[exhibit]\n' + "".join(f'{key} = "{value}"\n'
                                                                      for key, value in EXHIBIT.items())


def check_hours(hours: float) -> float:
    """`hours` if it is a number of simulated hours the soak can run, else UsageError.

    >>> check_hours(0.5)
    0.5
    >>> check_hours(float("nan"))
    Traceback (most recent call last):
    ...
    firmware_py.errors.UsageError: --hours: must be above 0 and at most 2000 (got nan)
    """
    if not (math.isfinite(hours) and 0 < hours <= MAX_HOURS):
        raise UsageError(f"--hours: must be above 0 and at most {MAX_HOURS:g} (got {hours:g})")
    return hours


def palm_row(config: Config) -> tuple[str, ...]:
    """The table's buttons in one row, the worst a builder could place them for a hand flat on the panel:
    each seat's cards, HERO and DRAW, and MENU between the first two seats' DRAWs (beside both). A palm holds
    a run of neighbours of this row down at once.

    >>> palm_row(parse_config({}))[5:10]
    ('red.hero', 'red.draw', 'menu', 'white.draw', 'white.hero')
    """
    cards = config.cards_per_seat
    rows = [[f"{seat}.card{k}" for k in range(1, cards + 1)] + [f"{seat}.hero", f"{seat}.draw"]
            for seat in config.seats]
    row = rows[0] + [MENU_BUTTON] + (rows[1][::-1] if len(rows) > 1 else [])
    return tuple(row + [name for seat_row in rows[2:] for name in seat_row])


class Visitors:
    """The people who come to the table, one after another, and what each does: a stream of actions,
    each decided from what the table shows when the one before it is done."""

    def __init__(self, session: Session, buttons: tuple[str, ...], rng: random.Random, tally: Tally,
                 row: tuple[str, ...] = ()) -> None:
        self.session, self.buttons, self.rng, self.tally = session, buttons, rng, tally
        self.row = row          # the buttons as a palm finds them (`palm_row`); none: no palm visits
        self.kinds: Mapping[str, Callable[[], Actions]] = {
            "player": self.player, "walk-away": self.walk_away, "child": self.child, "staff": self.staff,
            "palm": self.palm}
        self.visits = {**VISITS, **({"palm": PALM_VISITS} if row else {})}
        self.kind = ""
        """Who is at the table now (a kind of visitor, or "" for nobody)."""

    def __iter__(self) -> Actions:
        while True:
            self.kind = ""
            yield Wait(min(self.rng.expovariate(1 / MEAN_IDLE_SECONDS), MOST_IDLE_SECONDS), present=False)
            kind = self.kind = self.rng.choices(list(self.visits), list(self.visits.values()))[0]
            self.tally.visits[kind] = self.tally.visits.get(kind, 0) + 1
            yield from self.kinds[kind]()

    # --- the visits ---------------------------------------------------------------------------------

    def player(self) -> Actions:
        """Plays a game to its end (the one on the table, if a person may go on with it, else a new one)."""
        yield from self._sit_down()
        yield from self._play(None)

    def walk_away(self) -> Actions:
        """Plays a few moves and leaves the game unfinished."""
        yield from self._sit_down()
        yield from self._play(self.rng.randint(1, 25))
        game = self.session.game
        if game is not None and not game.over:
            self.tally.walked_away += 1

    def child(self) -> Actions:
        """Mashes buttons: bursts of taps anywhere, now and then one held down, whatever the table shows."""
        for _ in range(self.rng.randint(1, 4)):
            yield from self._mash(self.rng.randint(3, 30))
            yield Wait(self.rng.uniform(0.5, 5.0))

    def staff(self) -> Actions:
        """Opens the staff menu (the combination, or the key), and there most often NEW GAME, then starts a new
        game for the next visitors; now and then steps the light, or holds SHUT DOWN."""
        s, key = self.session, not self.session.access.sequence
        yield from self._staff_way_in()
        if s.screen is not Screen.STAFF:
            self.tally.errors.append(f"the staff could not open the staff menu (the table shows {s.screen})")
            return
        seat, chance = s.seats[0], self.rng.random()
        if chance < 0.1:
            for _ in range(self.rng.randint(1, 4)):
                yield from self._tap(f"{seat}.card2", "staff")          # LIGHT, a step at a time
            yield from self._tap(MENU_BUTTON, "staff")
        elif chance < 0.15:
            yield Press(f"{seat}.card3", True, "staff")                 # SHUT DOWN, held
            yield Wait(HOLD_SECONDS + 0.5)
            yield Press(f"{seat}.card3", False, "staff")
        else:
            yield from self._tap(f"{seat}.card1", "staff")              # NEW GAME
            if (yield from self._new_game(self.rng.choice((Mode.HUMANS, Mode.VS_COMPUTER)), "staff")):
                self.tally.staff_resets += 1
        if key:
            yield Press(STAFF_KEY, False, "staff")                      # the key turned back, taken out

    def palm(self) -> Actions:
        """A hand flat on the panel, again and again: a run of neighbouring buttons (`row`) held down together,
        for a moment or for seconds, whatever the table shows."""
        for _ in range(self.rng.randint(3, 30)):
            width = self.rng.randint(2, 5)
            first = self.rng.randrange(len(self.row) - width + 1)
            hand = self.row[first:first + width]
            for name in self.rng.sample(hand, len(hand)):              # the buttons go down within moments
                self.tally.presses += 1
                yield Press(name, True, "palm")
                yield Wait(self.rng.uniform(0.0, 0.04))
            yield Wait(self.rng.uniform(0.05, 0.5) if self.rng.random() < 0.6 else self.rng.uniform(1.0, 8.0))
            for name in hand:
                yield Press(name, False, "palm")
            yield Wait(self.rng.uniform(0.05, 1.5))
            self.tally.palms += 1

    # --- what the visits are made of ------------------------------------------------------------------

    def _tap(self, name: str, who: str) -> Actions:
        self.tally.presses += 1
        yield Hold(name, self.rng.uniform(0.06, 0.2), who)
        yield Wait(self.rng.uniform(0.1, 0.4))

    def _staff_way_in(self) -> Actions:
        """The staff's combination (MENU held, the four taps in order), or the key turned where there is one."""
        sequence = self.session.access.sequence
        if not sequence:
            yield Press(STAFF_KEY, True, "staff")
            yield Wait(0.5)
            return
        yield Press(MENU_BUTTON, True, "staff")
        yield Wait(self.rng.uniform(0.2, 0.6))
        for name in sequence:
            yield from self._tap(name, "staff")
        yield Press(MENU_BUTTON, False, "staff")
        yield Wait(0.3)

    def _mash(self, taps: int) -> Actions:
        for _ in range(taps):
            self.tally.presses += 1
            held = self.rng.random() < 0.1
            yield Hold(self.rng.choice(self.buttons), self.rng.uniform(1.0, 3.0) if held else
                       self.rng.uniform(0.02, 0.15), "child")
            yield Wait(self.rng.uniform(0.02, 0.4))

    def _sit_down(self) -> Actions:
        """Goes on with the game on the table if a person plays in it and it is not over (half the time),
        else starts a new one: two people, or one against the computer."""
        game = self.session.game
        if (game is not None and not game.over and HUMAN in game.players and self.rng.random() < 0.5
                and self.session.screen is not Screen.MENU):
            return
        yield from self._new_game(self.rng.choice((Mode.HUMANS, Mode.VS_COMPUTER)), "visitor")

    def _new_game(self, mode: Mode, who: str) -> Generator[Action, None, bool]:
        """Starts a new game of `mode` from whatever the table shows, through the menus; True once it has.
        A visitor who cannot in NAVIGATION_PRESSES presses is an error."""
        s = self.session
        seat = s.seats[0]
        cards = s.settings.cards_per_seat
        number = s.games
        for _ in range(NAVIGATION_PRESSES):
            if s.games != number and s.screen is Screen.PLAY:
                break
            if s.screen is Screen.OVER:
                yield Wait(OVER_GUARD_SECONDS)
                yield from self._tap(f"{seat}.card1", who)
            elif s.screen is Screen.PLAY:
                yield from self._tap(MENU_BUTTON, who)
            elif s.screen is Screen.OPTIONS:
                items = s.options.page_items()
                card = items.index("new") + 1 if "new" in items else len(items)  # else MORE
                yield from self._tap(f"{seat}.card{card}", who)
            elif s.screen is Screen.MENU:
                setup = s.menu.setup
                card = 1 if setup.mode is not mode else 2 if mode is Mode.VS_COMPUTER and setup.level != LEVEL \
                    else cards         # START (twice to leave a game in progress)
                yield from self._tap(f"{seat}.card{card}", who)
            else:                      # any other screen: a card button brings the menu
                yield from self._tap(f"{seat}.card1", who)
        if s.games != number and s.screen is Screen.PLAY:
            return True
        self.tally.errors.append(f"a visitor could not start a game of {mode} in {NAVIGATION_PRESSES} presses "
                                 f"(the table shows {s.screen})")
        return False

    def _play(self, moves: int | None) -> Actions:
        """Plays the game on the table, the seats a person plays, until it ends (or `moves` are made)."""
        s, made = self.session, 0
        while moves is None or made < moves:
            game = s.game
            if game is None or s.screen is Screen.OVER or (s.screen is Screen.MENU and game.over):
                return
            if s.screen is not Screen.PLAY:
                yield from self._tap(MENU_BUTTON, "visitor")        # MENU again: back to the game
                continue
            seat = game.pos.to_move
            if game.is_computer(seat) or game.shown is not None or game.pos.legal_moves() == [MOVES[PASS]]:
                yield Wait(0.5)                                     # the computer, or a pass shown (R14)
                continue
            yield Wait(self.rng.uniform(*PERSON_THINKS))           # a person thinks
            if s.game is not game or s.screen is not Screen.PLAY or game.pos.to_move != seat:
                continue
            if self.rng.random() < 0.05:
                yield from self._mash(self.rng.randint(2, 6))      # a slip of the hand, an impatient child
                continue
            yield from self._make(s.seats[seat])
            made += 1

    def _make(self, seat: str) -> Actions:
        """The presses of `seat` that make a legal move of the game on the table: DRAW (R11); a card,
        then the same card again (R10), or HERO for a hero move (R12)."""
        game = self.session.game
        assert game is not None
        move, ply = self.rng.choice(game.pos.legal_moves()), len(game.pos.stack)
        slots = game.slots[game.pos.to_move]
        if move == MOVES[DRAW]:
            yield from self._tap(f"{seat}.draw", seat)
            return
        card = f"{seat}.card{slots.index(move.card) + 1}"
        yield from self._tap(card, seat)
        if game is self.session.game and game is not None and len(game.pos.stack) == ply:  # not made at once
            yield from self._tap(f"{seat}.hero" if move.is_hero else card, seat)


class Clock:
    """The loop's clock, and the buttons' timers on it (`after`), moved on by the soak only."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[tuple[float, int, Callable[[], None]]] = []
        self._count = itertools.count()

    def __call__(self) -> float:
        return self.now

    def after(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Call `callback` once the clock has been moved on by `delay` (`hardware.events.After`)."""
        entry = (self.now + delay, next(self._count), callback)
        self.timers.append(entry)
        return _Pending(self, entry)

    def due(self) -> float:
        """When the next timer is due (infinity: none)."""
        return min((t[0] for t in self.timers), default=math.inf)

    def fire(self) -> None:
        """Call every timer due by now, in their order."""
        while due := [t for t in self.timers if t[0] <= self.now]:
            first = min(due)
            self.timers.remove(first)
            first[2]()


class _Pending:
    def __init__(self, clock: Clock, entry: tuple[float, int, Callable[[], None]]) -> None:
        self.clock, self.entry = clock, entry

    def cancel(self) -> None:
        if self.entry in self.clock.timers:
            self.clock.timers.remove(self.entry)


class Refusals:
    """Counts what the devices refused: puts `devices`' lights and displays behind counters (before the
    loop guards them)."""

    def __init__(self, devices: Devices) -> None:
        self.count = 0
        devices.lights = _CountedLights(devices.lights, self)
        devices.displays = _CountedDisplays(devices.displays, self)

    def call(self, action: Callable[[], None]) -> None:
        try:
            action()
        except Exception:
            self.count += 1
            raise


class _CountedLights:
    def __init__(self, inner: Lights, refusals: Refusals) -> None:
        self.inner, self.refusals = inner, refusals

    def show(self, board: Sequence[RGB]) -> None:
        self.refusals.call(lambda: self.inner.show(board))

    def set_brightness(self, level: float) -> None:
        self.refusals.call(lambda: self.inner.set_brightness(level))

    def close(self) -> None:
        self.inner.close()


class _CountedDisplays:
    def __init__(self, inner: CardDisplays, refusals: Refusals) -> None:
        self.inner, self.refusals = inner, refusals
        self.slots = inner.slots

    def show(self, bitmaps: Mapping[str, Bitmap], dimmed: frozenset[str] = frozenset()) -> None:
        self.refusals.call(lambda: self.inner.show(bitmaps, dimmed))

    def set_brightness(self, level: float) -> None:
        self.refusals.call(lambda: self.inner.set_brightness(level))

    def close(self) -> None:
        self.inner.close()


class Witness:
    """A receiver and a ticker of the loop: when it turns, and the wall time from each press's submit to the
    frame shown after it (none when the press changed nothing to see)."""

    def __init__(self) -> None:
        self.owed = 0                       # events submitted whose step has not been seen
        self.since: float | None = None     # the first press submitted since the last frame
        self.press = ""                     # and its button
        self.worst, self.worst_press = 0.0, ""
        self.turned = asyncio.Event()
        self.screen: str | None = None
        self.entered: dict[str, int] = {}   # screen → how often the table went to it (attract mode, …)

    def submitted(self, event: ButtonEvent) -> None:
        self.owed += 1
        if event.kind is PRESS and self.since is None:
            self.since, self.press = time.perf_counter(), event.name

    def show(self, frame: Frame, state: TableState) -> None:
        if state.screen != self.screen:
            self.screen = state.screen
            self.entered[state.screen] = self.entered.get(state.screen, 0) + 1
        if self.since is not None:
            latency = time.perf_counter() - self.since
            if latency > self.worst:
                self.worst, self.worst_press = latency, f"{self.press} on the {state.screen} screen"
            self.since = None

    def __call__(self, now: float) -> None:
        self.owed = max(0, self.owed - 1)
        if self.owed == 0:
            self.since = None
        self.turned.set()

    async def turn(self) -> None:
        """Until the loop has stepped once more; TimeoutError after WORKER_WAIT_SECONDS."""
        self.turned.clear()
        await asyncio.wait_for(self.turned.wait(), WORKER_WAIT_SECONDS)


@dataclass(frozen=True)
class Report:
    """What a soak found."""
    hours: float
    wall_seconds: float
    games_completed: int
    with_a_person: int
    unfinished: int
    tally: Tally
    refused_frames: int
    start_mb: float
    warm_mb: float
    end_mb: float
    worst_latency_ms: float
    worst_press: str
    said: tuple[str, ...] = ()
    """What the service logged as it started (a save resumed or set aside)."""
    entered: tuple[tuple[str, int], ...] = ()
    """How often the table went to each screen (attract mode, the staff menu, asleep, …)."""
    language: str = "en"
    written_per_day: float | None = None
    """Bytes the table wrote to disks a simulated day (None where the kernel does not say)."""
    status_in: str = "the data directory"
    """Where the status file was kept."""
    asked_hours: float | None = None
    """The hours asked for, when the soak was stopped before them (`hours` is what it ran)."""

    @property
    def errors(self) -> int:
        return len(self.tally.errors) + self.refused_frames

    def lines(self) -> list[str]:
        t = self.tally
        minutes, seconds = divmod(round(self.wall_seconds), 60)
        visits = ", ".join(f"{n} {kind}" for kind, n in sorted(t.visits.items()))
        asked = self.asked_hours or self.hours
        ran = f"{self.hours:g} hours" if self.asked_hours is None else \
            f"{self.hours:.2f} hours of the {self.asked_hours:g} asked (stopped by a signal)"
        return [*(f"at the start: {line}" for line in self.said),
                f"simulated: {ran} in {minutes} min {seconds} s of wall time",
                f"games completed: {self.games_completed} ({self.with_a_person} with a person)",
                f"games walked away from: {t.walked_away} (archived unfinished: {self.unfinished}); "
                f"staff resets: {t.staff_resets}",
                f"visits: {visits}; presses: {t.presses}",
                f"the table went to: {', '.join(f'{screen} {n} times' for screen, n in self.entered)}",
                f"palms flat on the panel: {t.palms}; the staff menu opened {t.staff_menus['staff']} times by the "
                f"staff, {sum(t.staff_menus.values()) - t.staff_menus['staff']} by visitors; shutdowns asked: "
                f"{t.shutdowns['staff']} by the staff, {sum(t.shutdowns.values()) - t.shutdowns['staff']} by visitors",
                f"deals: {t.deals}, {t.repeated_deals} dealt as the game before; SIGKILL rounds: {t.kills}; "
                f"the table's language: {self.language}",
                "writes to the disk: " + (f"{self.written_per_day / 1e6:.2f} MB a simulated day (the status file in "
                                          f"{self.status_in})" if self.written_per_day is not None else "unknown"),
                f"errors: {self.errors} ({len(t.errors)} logged or raised, {self.refused_frames} frames refused)",
                *(f"  {line}" for line in t.errors[:SHOWN_ERRORS]),
                f"resident memory: {self.start_mb:.1f} MB at the start, " + (
                    f"{self.warm_mb:.1f} MB after {WARM_SHARE * asked:g} h, {self.end_mb:.1f} MB at the end "
                    f"({_growth(self.start_mb, self.end_mb)} from the start, {_growth(self.warm_mb, self.end_mb)} "
                    f"from {WARM_SHARE * asked:g} h)" if self.hours >= WARM_SHARE * asked else
                    f"{self.end_mb:.1f} MB at the end ({_growth(self.start_mb, self.end_mb)} from the start)"),
                f"worst press → frame latency: {self.worst_latency_ms:.1f} ms ({self.worst_press})"]


def _growth(before: float, after: float) -> str:
    """
    >>> _growth(40.0, 42.0)
    '+5.0%'
    """
    return f"{100 * (after - before) / before:+.1f}%"


def sim_devices(config: Config) -> Devices:
    """The simulated board and displays, no terminal view, as the Pi's are put together: the board's
    lights and the displays each shown (and guarded by the loop) on their own."""
    screen = SimScreen(config.displays.chain, [])
    factory = MockFactory()
    buttons = Buttons(config.buttons.pins, config.buttons.timing, factory)       # the loop never reads them
    return Devices("sim", SimLights(screen), SimDisplays(screen), buttons, [buttons.close, factory.close])


class Checks:
    """A receiver of the loop watching what no visitor may bring about: the staff menu opened while no staff
    member is at the table (`who`: who is), and a game dealt as the one before it."""

    def __init__(self, tally: Tally, who: Callable[[], str]) -> None:
        self.tally, self.who = tally, who
        self.session: Session | None = None
        self.screen: str | None = None
        self.game: Game | None = None
        self.deal: tuple[object, ...] | None = None

    def life(self, session: Session) -> None:
        """A new life of the service on `session`: the game it resumed, if any, is no new deal."""
        self.session, self.screen = session, None
        if session.game is not None:
            self.game, self.deal = session.game, deal_of(session.game)

    def show(self, frame: Frame, state: TableState) -> None:
        if state.screen == "staff" and self.screen != "staff":
            who = self.who() or "nobody"
            self.tally.staff_menus[who] += 1
            if who != "staff":
                self.tally.errors.append(f"the staff menu opened while {who} was at the table")
        self.screen = state.screen
        game = self.session.game if self.session is not None else None
        if game is None or game is self.game:
            return
        self.game = game
        if game.pos.stack:                              # a game brought back (RESUME), not dealt
            self.deal = deal_of(game)
            return
        dealt = deal_of(game)
        self.tally.deals += 1
        if dealt == self.deal:
            self.tally.repeated_deals += 1
            self.tally.errors.append(f"game {game.number} dealt as the game before it (seed {game.setup.seed})")
        self.deal = dealt


def deal_of(game: Game) -> tuple[object, ...]:
    """What a game was dealt: its seed, the hands and the pile."""
    return game.setup.seed, tuple(map(tuple, game.start.hands)), tuple(game.start.pile)


def disk_writes() -> int | None:
    """The bytes this process has caused to be written to disks so far (`write_bytes` of /proc/self/io: the page
    cache pages it dirtied on a disk's file system, synced or not), None where the kernel does not say."""
    try:
        with open("/proc/self/io") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("write_bytes:"))
    except (OSError, StopIteration, ValueError):
        return None


class Soak:
    """The service on `devices` with its data in `data`, visited for `hours` from `seed`, killed and started
    again `kills` times; `config_file` is the file `config` was read from (for the killed service)."""

    def __init__(self, hours: float, data: Path, seed: int, devices: Devices, config: Config, kills: int = 0,
                 config_file: Path | None = None, stop: threading.Event | None = None) -> None:
        self.hours, self.data, self.seed, self.devices, self.config = hours, data, seed, devices, config
        self.kills, self.config_file = kills, config_file
        self.stop = stop or threading.Event()
        """Set (by a signal, say): the soak ends at once and reports the hours it ran."""
        self.clock, self.tally, self.witness = Clock(), Tally(), Witness()
        self.wall = wall_from(self.clock, START)
        self.refusals = Refusals(devices)
        self.warm_mb: float | None = None
        """Resident memory after WARM_SHARE of the hours."""
        self.said: list[str] = []
        """What the service logged as it started (a save resumed, set aside): said, not an error."""
        self.visiting = False
        self.visitors: Visitors | None = None
        self.checks = Checks(self.tally, lambda: self.visitors.kind if self.visitors else "")
        self.rng = random.Random(seed + 1)              # the kills' moments
        self.pending: list[Action] = []                 # the action a life ended before
        self.actions: Iterator[Action] = iter(())       # what the visitors do, from the first life on

    def log(self, line: str) -> None:
        """The service's log: once the visitors come, it says only what went wrong (a shutdown the staff asked
        for is counted, not an error)."""
        if line.startswith(SHUTDOWN_LINE):
            who = self.checks.who() or "nobody"
            self.tally.shutdowns[who] += 1
            if who == "staff":
                return
        (self.tally.errors if self.visiting else self.said).append(line)

    def _start(self) -> tuple[TableLoop, StatusFile]:
        """The service started on the data directory (resuming what is saved there), with its status file."""
        self.visiting = False
        settings = replace(table_settings(self.config), level=LEVEL, think_seconds=THINK_SECONDS,
                           shutdown_command=STAFF_COMMAND)
        saves, saved = service.open_saves(self.data, None, settings, self.log)
        setup = Setup(Mode.HUMANS, LEVEL, seed=self.seed if not self.tally.kills else self.rng.randrange(2 ** 31))
        loop = service.start(self.devices, self.config, settings, saves, saved, setup, deal=False, demo=False,
                             log=self.log, receivers=[self.witness, self.checks], clock=self.clock, wall=self.wall,
                             exhibit=exhibit_settings(self.config), time_known=lambda: "the soak's clock")
        loop.tickers.append(self.witness)
        status = StatusCollector(str(self.data), "sim", clock=self.clock,
                                 wall=lambda: START.timestamp() + self.clock.now)
        loop.receivers.append(status)
        status.watch(loop)
        status_file = StatusFile(self.data, status, self.log, runtime_directory())
        loop.tickers.append(status_file)
        self.checks.life(loop.session)
        self.visiting = True
        return loop, status_file

    async def run(self) -> Report:
        end = self.hours * 3600
        kills = sorted(self.rng.uniform(0.05, 0.95) * end for _ in range(self.kills))
        archive = self.data / "records.jsonl"
        killed: list[str] | None = None
        for life, until in enumerate([*kills, end]):
            loop, status_file = self._start()
            if life:
                self._resumed(loop, killed)
            else:                               # the service is up, its data directory checked
                archived = _archive_size(archive)
                start_mb, wall, written = process_usage(os.getpid())[1], time.perf_counter(), disk_writes()
            stop = asyncio.Event()
            running = asyncio.ensure_future(loop.run(stop=stop))
            try:
                await self._visit(loop, running, until)
            except Exception as exc:  # noqa: BLE001  (whatever the service raised is the soak's finding)
                self.tally.errors.append(f"{type(exc).__name__}: {exc}")
                until = end
            finally:
                stop.set()
                try:
                    await running
                except Exception as exc:  # noqa: BLE001
                    self.tally.errors.append(f"the loop ended with {type(exc).__name__}: {exc}")
                status_file.close()
            if until >= end or self.stop.is_set():
                break
            killed = self._kill_round(archive)
        end_mb, wall = process_usage(os.getpid())[1], time.perf_counter() - wall
        now_written = disk_writes()
        hours = min(self.hours, self.clock.now / 3600) if self.stop.is_set() else self.hours
        per_day = None if written is None or now_written is None or not hours else \
            (now_written - written) / hours * 24
        completed, people, unfinished = _archived_since(archive, archived)
        return Report(hours, wall, completed, people, unfinished, self.tally, self.refusals.count,
                      start_mb, self.warm_mb or end_mb, end_mb, 1000 * self.witness.worst, self.witness.worst_press,
                      tuple(self.said), tuple(sorted(self.witness.entered.items())),
                      table_settings(self.config).language, per_day, str(runtime_directory() or "the data directory"),
                      self.hours if hours < self.hours else None)

    def _resumed(self, loop: TableLoop, killed: list[str] | None) -> None:
        """After a kill: the service must have resumed the very moves the killed one had saved."""
        game = loop.session.game
        moves = game.pos.history() if game is not None and not game.transient else None
        if killed is not None and moves != killed:
            self.tally.errors.append(f"after SIGKILL round {self.tally.kills} the table resumed "
                                     f"{'nothing' if moves is None else f'{len(moves)} moves'}, the killed service "
                                     f"had saved {len(killed)}")

    def _kill_round(self, archive: Path) -> list[str] | None:
        """A real `roseking play` on the data directory, pressed at random and killed with SIGKILL at a random
        moment; the moves it had saved then (None: no game saved). Each game it archived must replay."""
        before = _archive_size(archive)
        rng = self.rng
        with tempfile.TemporaryDirectory(prefix="roseking-kill-") as work:
            config = self.config_file
            if config is None:
                config = Path(work) / "soak.toml"
                config.write_text(default_toml(table_settings(self.config).language))
            script = Path(work) / "presses.txt"
            seats = self.config.seats
            steps = [f"{rng.choice(seats)}.card{rng.randint(1, self.config.cards_per_seat)} press" for _ in range(80)]
            script.write_text("".join(f"{step}\n{step}\nwait {rng.uniform(0.05, 0.3):.2f}\n" for step in steps))
            argv = [sys.executable, "-m", "firmware_py.cli", "play", "--sim", "--config", str(config), "--data-dir",
                    str(self.data), "--input-script", str(script)]
            if parse_web(self.config.web, self.config.source).port is not None:
                argv += ["--web", "127.0.0.1:0"]            # any free port of this machine, not the table's
            # its temporary files (its computer's fork server's socket) are the round's, removed with it
            process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, start_new_session=True,
                                       env={**os.environ, "TMPDIR": work})
            try:
                time.sleep(rng.uniform(*KILL_WITHIN_SECONDS))
            finally:
                os.killpg(process.pid, signal.SIGKILL)      # the service and its computer's worker, as a power cut
                process.wait()
        self.tally.kills += 1
        for line in _lines_since(archive, before):
            try:
                replay(json.loads(line))
            except ValueError as exc:
                self.tally.errors.append(f"a game the killed service archived does not replay: {exc}")
        try:
            return list(json.loads((self.data / CURRENT).read_text())["moves"])
        except (OSError, ValueError, KeyError):
            return None

    async def _visit(self, loop: TableLoop, running: "asyncio.Future[None]", until: float) -> None:
        """The visitors, until the soak's end or (between visits) `until`."""
        def put(event: ButtonEvent) -> None:
            self.witness.submitted(event)
            loop.submit(event)
        buttons = RemoteButtons(self.config.buttons.pins, self.config.buttons.timing, put, self.clock.after,
                                Origin.PANEL)
        if self.visitors is None:
            self.visitors = Visitors(loop.session, buttons.names, random.Random(self.seed), self.tally,
                                     palm_row(self.config))
            self.actions = iter(self.visitors)
        self.visitors.session = loop.session
        end = self.hours * 3600
        for action in itertools.chain(self.pending, self.actions):
            self.pending = []
            if self.clock.now >= end or running.done() or self.stop.is_set():    # its end is said by `run`
                break
            if isinstance(action, Wait) and not action.present and self.clock.now >= until:
                self.pending = [action]                      # nobody at the table: time for a kill
                break
            if self.warm_mb is None and self.clock.now >= WARM_SHARE * end:
                self.warm_mb = process_usage(os.getpid())[1]
            if isinstance(action, Wait):
                await self._wait(loop, min(action.seconds, end - self.clock.now), action.present)
            elif isinstance(action, Press):
                buttons.set(action.who, action.name, action.down)
                await self._settle(loop)
            else:
                buttons.set(action.who, action.name, True)
                await self._wait(loop, action.seconds, True)
                buttons.set(action.who, action.name, False)
                await self._settle(loop)
        buttons.close()

    async def _wait(self, loop: TableLoop, seconds: float, present: bool) -> None:
        """Move the clock on by `seconds`, in ticks (fine while somebody is present), firing the buttons'
        timers on time; it stands while the computer's worker has a question."""
        end, tick = self.clock.now + seconds, TICK_SECONDS if present else IDLE_TICK_SECONDS
        while self.clock.now < end and not self.stop.is_set():
            if loop.computer.busy is not None:
                await self.witness.turn()              # its answer is stepped by the loop (or a tick of it)
                continue
            self.clock.now = min(end, self.clock.now + tick, self.clock.due())
            self.clock.fire()
            await self._settle(loop)
            loop.step()
            await asyncio.sleep(0)

    async def _settle(self, loop: TableLoop) -> None:
        """Until the loop has handled every event submitted."""
        while self.witness.owed:
            await self.witness.turn()


def _lines_since(path: Path, offset: int) -> list[bytes]:
    """The lines of `path` from `offset` on."""
    try:
        with path.open("rb") as f:
            f.seek(offset)
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def _archive_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _archived_since(path: Path, offset: int) -> tuple[int, int, int]:
    """(games finished, of them with a person, games unfinished) in the archive from `offset` on."""
    finished = people = unfinished = 0
    if not path.exists():
        return 0, 0, 0
    with path.open("rb") as f:
        f.seek(offset)
        for line in f:
            record = json.loads(line)
            if record["result"]["reason"] == "unfinished":
                unfinished += 1
            else:
                finished += 1
                people += HUMAN in record["players"].values()
    return finished, people, unfinished


def soak(hours: float, seed: int, data_dir: Path | None = None, devices: Devices | None = None,
         config: Config | None = None, config_file: Path | None = None, language: str | None = None,
         kills: int = 0, stop: threading.Event | None = None) -> Report:
    """Soak the service for `hours` simulated hours from `seed`, its data in `data_dir` (kept) or in a
    temporary directory (removed), on `devices` (default: `sim_devices`, closed at the end). The table is
    `config` (read from `config_file`; default: a museum's day, `default_toml`), speaking `language` if given;
    it is killed and started again `kills` times. `stop` set ends it early: the report says the hours it ran."""
    config = config or parse_config({"exhibit": EXHIBIT})
    if language is not None:
        config = replace(config, table={**config.table, "language": Language(language).value})
    devices = devices or sim_devices(config)
    try:
        if data_dir is not None:
            return asyncio.run(Soak(check_hours(hours), data_dir, seed, devices, config, kills, config_file,
                                    stop).run())
        with tempfile.TemporaryDirectory(prefix="roseking-soak-") as data:
            return asyncio.run(Soak(check_hours(hours), Path(data), seed, devices, config, kills, config_file,
                                    stop).run())
    finally:
        devices.close()
