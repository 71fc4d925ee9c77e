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
buttons (bursts, holds, illegal choices, the menus), the staff start a new game. Errors are
whatever goes wrong: an exception, a line in the service's log (it logs only trouble), a frame
the devices refused, a visitor who could not get a game started.
"""
import asyncio
import datetime
import itertools
import json
import math
import os
import random
import tempfile
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeAlias

from gpiozero.pins.mock import MockFactory

from engine.moves import DRAW, MOVES, PASS
from firmware_py.bench.play import process_usage
from firmware_py.errors import UsageError
from firmware_py.table import service
from firmware_py.table.exhibit import exhibit_settings
from firmware_py.table.game import HUMAN, Mode, Setup
from firmware_py.table.loop import TICK_SECONDS, TableLoop, wall_from
from firmware_py.table.session import OVER_GUARD_SECONDS, Screen, Session
from firmware_py.table.settings import table_settings
from firmware_py.table.state import TableState
from firmware_py.web.remote import RemoteButtons
from hardware.buttons import Buttons
from hardware.config import Config, parse_config
from hardware.devices import Devices
from hardware.events import PRESS, ButtonEvent, Timer
from hardware.frame import RGB, Bitmap, Frame
from hardware.names import MENU_BUTTON
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


Action: TypeAlias = Hold | Wait
Actions: TypeAlias = Iterator[Action]


@dataclass
class Tally:
    """What the visitors did, and what went wrong."""
    visits: dict[str, int] = field(default_factory=dict)
    walked_away: int = 0
    staff_resets: int = 0
    presses: int = 0
    errors: list[str] = field(default_factory=list)


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


class Visitors:
    """The people who come to the table, one after another, and what each does: a stream of actions,
    each decided from what the table shows when the one before it is done."""

    def __init__(self, session: Session, buttons: tuple[str, ...], rng: random.Random, tally: Tally) -> None:
        self.session, self.buttons, self.rng, self.tally = session, buttons, rng, tally
        self.kinds: Mapping[str, Callable[[], Actions]] = {
            "player": self.player, "walk-away": self.walk_away, "child": self.child, "staff": self.staff}

    def __iter__(self) -> Actions:
        while True:
            yield Wait(min(self.rng.expovariate(1 / MEAN_IDLE_SECONDS), MOST_IDLE_SECONDS), present=False)
            kind = self.rng.choices(list(VISITS), list(VISITS.values()))[0]
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
        """Starts a new game for the next visitors, whatever is on the table."""
        if (yield from self._new_game(self.rng.choice((Mode.HUMANS, Mode.VS_COMPUTER)), "staff")):
            self.tally.staff_resets += 1

    # --- what the visits are made of ------------------------------------------------------------------

    def _tap(self, name: str, who: str) -> Actions:
        self.tally.presses += 1
        yield Hold(name, self.rng.uniform(0.06, 0.2), who)
        yield Wait(self.rng.uniform(0.1, 0.4))

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

    @property
    def errors(self) -> int:
        return len(self.tally.errors) + self.refused_frames

    def lines(self) -> list[str]:
        t = self.tally
        minutes, seconds = divmod(round(self.wall_seconds), 60)
        visits = ", ".join(f"{n} {kind}" for kind, n in sorted(t.visits.items()))
        return [*(f"at the start: {line}" for line in self.said),
                f"simulated: {self.hours:g} hours in {minutes} min {seconds} s of wall time",
                f"games completed: {self.games_completed} ({self.with_a_person} with a person)",
                f"games walked away from: {t.walked_away} (archived unfinished: {self.unfinished}); "
                f"staff resets: {t.staff_resets}",
                f"visits: {visits}; presses: {t.presses}",
                f"the table went to: {', '.join(f'{screen} {n} times' for screen, n in self.entered)}",
                f"errors: {self.errors} ({len(t.errors)} logged or raised, {self.refused_frames} frames refused)",
                *(f"  {line}" for line in t.errors[:SHOWN_ERRORS]),
                f"resident memory: {self.start_mb:.1f} MB at the start, {self.warm_mb:.1f} MB after "
                f"{WARM_SHARE * self.hours:g} h, {self.end_mb:.1f} MB at the end "
                f"({_growth(self.start_mb, self.end_mb)} from the start, {_growth(self.warm_mb, self.end_mb)} "
                f"from {WARM_SHARE * self.hours:g} h)",
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


class Soak:
    """The service on `devices` with its data in `data`, visited for `hours` from `seed`."""

    def __init__(self, hours: float, data: Path, seed: int, devices: Devices, config: Config) -> None:
        self.hours, self.data, self.seed, self.devices, self.config = hours, data, seed, devices, config
        self.clock, self.tally, self.witness = Clock(), Tally(), Witness()
        self.refusals = Refusals(devices)
        self.warm_mb: float | None = None
        """Resident memory after WARM_SHARE of the hours."""
        self.said: list[str] = []
        """What the service logged as it started (a save resumed, set aside): said, not an error."""
        self.visiting = False

    def log(self, line: str) -> None:
        """The service's log: once the visitors come, it says only what went wrong."""
        (self.tally.errors if self.visiting else self.said).append(line)

    async def run(self) -> Report:
        settings = replace(table_settings(self.config), level=LEVEL, think_seconds=THINK_SECONDS)
        saves, saved = service.open_saves(self.data, None, settings, self.log)
        setup = Setup(Mode.HUMANS, LEVEL, seed=self.seed)
        loop = service.start(self.devices, self.config, settings, saves, saved, setup, deal=False, demo=False,
                             log=self.log, receivers=[self.witness], clock=self.clock,
                             wall=wall_from(self.clock, START), exhibit=exhibit_settings(self.config))
        loop.tickers.append(self.witness)
        archived = _archive_size(saves.archive)
        stop = asyncio.Event()
        running = asyncio.ensure_future(loop.run(stop=stop))
        start_mb, wall = process_usage(os.getpid())[1], time.perf_counter()
        self.visiting = True
        try:
            await self._visit(loop, running)
        except Exception as exc:  # noqa: BLE001  (whatever the service raised is the soak's finding)
            self.tally.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            end_mb, wall = process_usage(os.getpid())[1], time.perf_counter() - wall
            stop.set()
            try:
                await running
            except Exception as exc:  # noqa: BLE001
                self.tally.errors.append(f"the loop ended with {type(exc).__name__}: {exc}")
        completed, people, unfinished = _archived_since(saves.archive, archived)
        return Report(self.hours, wall, completed, people, unfinished, self.tally, self.refusals.count,
                      start_mb, self.warm_mb or end_mb, end_mb, 1000 * self.witness.worst, self.witness.worst_press,
                      tuple(self.said), tuple(sorted(self.witness.entered.items())))

    async def _visit(self, loop: TableLoop, running: "asyncio.Future[None]") -> None:
        def put(event: ButtonEvent) -> None:
            self.witness.submitted(event)
            loop.submit(event)
        buttons = RemoteButtons(self.config.buttons.pins, self.config.buttons.timing, put, self.clock.after)
        visitors = Visitors(loop.session, buttons.names, random.Random(self.seed), self.tally)
        end = self.hours * 3600
        for action in visitors:
            if self.clock.now >= end or running.done():      # its end is said by `run`
                break
            if self.warm_mb is None and self.clock.now >= WARM_SHARE * end:
                self.warm_mb = process_usage(os.getpid())[1]
            if isinstance(action, Wait):
                await self._wait(loop, min(action.seconds, end - self.clock.now), action.present)
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
        while self.clock.now < end:
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


def soak(hours: float, seed: int, data_dir: Path | None = None, devices: Devices | None = None) -> Report:
    """Soak the service for `hours` simulated hours from `seed`, its data in `data_dir` (kept) or in a
    temporary directory (removed), on `devices` (default: `sim_devices`, closed at the end)."""
    config = parse_config({"exhibit": EXHIBIT})
    devices = devices or sim_devices(config)
    try:
        if data_dir is not None:
            return asyncio.run(Soak(check_hours(hours), data_dir, seed, devices, config).run())
        with tempfile.TemporaryDirectory(prefix="roseking-soak-") as data:
            return asyncio.run(Soak(check_hours(hours), Path(data), seed, devices, config).run())
    finally:
        devices.close()
