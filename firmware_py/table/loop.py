"""The one loop: button events and the computer's answers in; the session, saves and frames out.

An asyncio loop owns the game. Every input comes in through `submit(event)`, safe from any
thread or coroutine: the buttons' thread (`firmware_py.table.service.ButtonBridge`) and any
other source of presses alike; the events wait in a thread-safe queue and wake the loop,
which handles them in order. The computer's answer arrives through its pipe's file
descriptor (`add_reader`); everything else is a timer of the loop. All times come from one
injectable clock, so a test steps the loop with its own clock and never sleeps. A frame is
drawn at once after each event and on every tick (20 a second), and shown to every receiver
(the devices, a mirror, the status) with the table's state in words (`TableState`) only when
one of them differs from what was shown last, so a table waiting for a person costs little.

A part that fails does not end the service (`Faults`): a device that raises is tried again later
and the fault shown on what still works, a worker that keeps dying is asked again less and less
often, a save the disk will not take is tried again the same way. Each step pings systemd's
watchdog (`Notifier`) and says how the table is when that changes, so a loop that stops turning
is restarted; `tickers` (the status file) are called at each step with the time.

Beside the loop's clock (monotonic: every timer) there is a wall clock (`wall`, the local time of
day), read at each step for `[exhibit]`'s opening hours and night brightness only, and only once
the time is known to be right (`time_known`, `firmware_py.table.timekeeping`: a Pi without network
nor a real-time clock may start days off): until then the table stays awake at its day brightness.
A test or a soak injects both clocks, the wall clock running from the loop's (`wall_from`), so
hours pass in seconds.

A data directory that takes no file (a read-only mount, another user's) is said at the start
(`check_saving`: one log line, NOT SAVING on the displays), is at fault in the status while it
lasts, and is tried again as a failing save is, until it works.
"""
import asyncio
import contextlib
import datetime
import math
import queue
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from firmware_py.table import scenes
from firmware_py.table.computer import Computer
from firmware_py.table.faults import PARTS, Faults
from firmware_py.table.game import Mode, Request, Setup, why_unplayable
from firmware_py.table.messages import say
from firmware_py.table.notify import Notifier
from firmware_py.table.saves import Saves
from firmware_py.table.session import Screen, Session
from firmware_py.table.shutdown import Shutdown, shut_down
from firmware_py.table.state import TableState, table_state
from hardware.devices import Devices
from hardware.events import RELEASE, STUCK, ButtonEvent
from hardware.frame import Frame
from hardware.power import check_level

TICK_SECONDS = 0.05
TIME_CHECK_SECONDS = 60.0   # while the time of day is not known, it is asked again this often
NOT_SAVED = (-1, -1)
Log = Callable[[str], None]
Wall = Callable[[], datetime.datetime]
"""The local time of day, now: `datetime.datetime.now`, or a test's."""


def wall_from(clock: Callable[[], float], start: datetime.datetime) -> Wall:
    """A wall clock that reads `start` when `clock` reads what it reads now, and runs with it: one fake clock
    drives both.

    >>> ticks = [100.0]
    >>> wall = wall_from(lambda: ticks[0], datetime.datetime(2024, 5, 1, 23, 59))
    >>> ticks[0] += 120; wall().time()
    datetime.time(0, 1)
    """
    origin = clock()
    return lambda: start + datetime.timedelta(seconds=clock() - origin)


class Receiver(Protocol):
    """Whatever is shown the table: a mirror of the table, the status, the devices (through `Frames`).
    Called on the loop's own thread, with each new frame and the state beside it."""

    def show(self, frame: Frame, state: TableState) -> None: ...


class FrameShow(Protocol):
    """What shows frames alone: the devices (`hardware.Devices`)."""

    def show(self, frame: Frame) -> None: ...


class Frames:
    """The receiver that hands `target` (the devices) each new frame, once: a change of the state
    alone is no new picture."""

    def __init__(self, target: FrameShow) -> None:
        self.target = target
        self.last: Frame | None = None

    def show(self, frame: Frame, state: TableState) -> None:
        if frame != self.last:
            self.target.show(frame)
            self.last = frame


class _End:
    """In the queue of events: the input has ended (a finished script), nothing follows."""


_END = _End()


def status_line(state: TableState, down: Iterable[str]) -> str:
    """How the table is, in a short line (systemd's STATUS): the screen, the mode and the moves, and what
    is at fault.

    >>> status_line(TableState("play", "demo", number=3, moves=12), ["lights"])
    "play, demo (12 moves); at fault: the board's lights"
    """
    game = f", {state.mode} ({state.moves} moves)" if state.mode is not None else ""
    faults = ", ".join(PARTS[part] for part in down)
    return f"{state.screen}{game}; {'at fault: ' + faults if faults else 'all well'}"


class TableLoop:
    """Runs a `Session` whose frames go to the `devices` (guarded by `faults`, shown first) and to
    `receivers`: `handle(event)` and `step()` are the loop's whole work; `submit(event)` is the way in,
    `run()` the loop itself. `log` is the service's log (by default the saves'), `notifier` systemd's ear
    (by default none), `wall` the time of day, `time_known` how the time of day is known to be right
    (None while it is not; by default `wall` is taken as right)."""

    def __init__(self, session: Session, slots: Sequence[str], computer: Computer, saves: Saves,
                 receivers: Iterable[Receiver] = (), clock: Callable[[], float] = time.monotonic,
                 log: Log | None = None, notifier: Notifier | None = None, devices: Devices | None = None,
                 wall: Wall = datetime.datetime.now, time_known: Callable[[], str | None] | None = None) -> None:
        self.session, self.slots, self.computer, self.saves, self.clock = session, slots, computer, saves, clock
        self.wall, self.time_known = wall, time_known
        self.clock_known: str | None = "as given" if time_known is None else None
        """How the time of day is known to be right (`timekeeping`), or None while it is not."""
        self._time_asked = -math.inf
        self.log = log or saves.log
        self.notifier = notifier or Notifier({})
        self.faults = Faults(clock, self.log)
        self.tickers: list[Callable[[float], None]] = []
        """Called at the end of each step with its time (the status file)."""
        self.receivers: list[Receiver] = list(receivers)
        self.devices = devices
        if devices is not None:
            self.faults.guard(devices)
            self.receivers.insert(0, Frames(devices))
        self.lit = 1.0
        """The level the devices are lit at now: the chosen `brightness` by the schedule, 0 asleep."""
        self._shutting: set[asyncio.Task[Shutdown]] = set()
        self.shown: Frame | None = None
        self.state: TableState | None = None
        self._saved: tuple[int, int] = NOT_SAVED     # (game number, changes) last saved
        self._archived = -1
        self._fd: int | None = None
        self._inbox: queue.SimpleQueue[ButtonEvent | _End] = queue.SimpleQueue()
        self._aio: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._failure: Exception | None = None
        self._stuck: set[str] = set()
        self.input_ended = False

    # --- the way in ----------------------------------------------------------

    def submit(self, event: ButtonEvent) -> None:
        """Hand `event` to the loop, from any thread or coroutine: handled in order, at once while the
        loop runs, else when it runs next."""
        self._inbox.put(event)
        self._poke()

    def end_input(self) -> None:
        """No more events will be submitted (a finished input script): `run` may end once all is settled."""
        self._inbox.put(_END)
        self._poke()

    def _poke(self) -> None:
        aio, wake = self._aio, self._wake
        if aio is not None and wake is not None:
            with contextlib.suppress(RuntimeError):     # the loop has just closed: nobody to wake
                aio.call_soon_threadsafe(wake.set)

    @property
    def brightness(self) -> float:
        """The brightness chosen by the operator or the staff (0–1 of the configured); `[exhibit]`'s night
        brightness scales it, sleep darkens it (`lit`)."""
        return self.session.light

    def set_brightness(self, level: float) -> None:
        """Light the board and the displays at `level` (0: dark and off, 1: as configured; ValueError for
        anything else), at once, as the schedule scales it. From the loop's own thread, as `name`."""
        self.session.light = check_level(level)
        self.step()

    def _light(self, daytime: datetime.time | None) -> None:
        """Light the devices as the chosen brightness, the schedule (at `daytime`, the day's while the time is
        not known) and sleep say, when that changes."""
        session = self.session
        schedule = session.exhibit.day_brightness if daytime is None else session.exhibit.brightness(daytime)
        lit = 0.0 if session.screen is Screen.ASLEEP else session.light * schedule
        if lit != self.lit:
            self.lit = lit
            if self.devices is not None:
                self.devices.set_brightness(lit)

    def new_game(self, setup: Setup) -> str | None:
        """Deal a new game of `setup` at once, the game on the table archived first (as `unfinished`, unless
        it has ended or has no move), as the menu's START does; None when done, else why this table cannot
        play it. From the loop's own thread, as `name`."""
        why = why_unplayable(setup, self.session.table)
        if why is not None:
            return why.explain(self.session.table)
        self.session.start(setup, self.clock())
        self.step()
        return None

    def name(self, names: dict[str, str]) -> str | None:
        """Name the people at the seats (`Session.name`: None when done, else why not), and show it at
        once. From the loop's own thread: a coroutine of the asyncio loop that runs it."""
        refused = self.session.name(names)
        if refused is None:
            self.step()
        return refused

    # --- the work ----------------------------------------------------------

    def handle(self, event: ButtonEvent) -> None:
        """One button event, then everything that follows from it, drawn at once. A button stuck down (its
        `stuck` event) is logged, and so is its coming back."""
        now = self.clock()
        if event.kind == STUCK:
            self._stuck.add(event.name)
            self.log(f"roseking: button {event.name} has been down too long: taken to be stuck, and ignored "
                     "until it comes up")
        elif event.kind == RELEASE and event.name in self._stuck:
            self._stuck.discard(event.name)
            self.log(f"roseking: button {event.name} has come up: in use again")
        self.session.event(event, now)
        self.step(now)

    def answer(self, request: Request, move: str) -> None:
        """The computer's answer."""
        now = self.clock()
        self.faults.computer_answered()
        self.session.answer(request, move, now)
        self.step(now)

    def step(self, now: float | None = None) -> None:
        """Timers, the devices due for another try, the computer, saves, the frame for `now`, and the news
        for systemd and the tickers."""
        now = self.clock() if now is None else now
        daytime = self._daytime(now)
        self.session.tick(now, daytime)
        if self.session.shutdown_asked:
            self._shut_down()
        self._light(daytime)
        self.faults.tick(now)
        self._think(now)
        self._persist(now)
        down = self.faults.down()
        frame = scenes.frame(self.session, self.slots, now, down)
        state = table_state(self.session, now)
        if frame != self.shown or state != self.state:
            for receiver in self.receivers:
                receiver.show(frame, state)
            self.shown, self.state = frame, state
        self.notifier.step(now)
        self.notifier.status(status_line(state, down))
        for ticker in self.tickers:
            ticker(now)

    def _daytime(self, now: float) -> datetime.time | None:
        """The time of day, once it is known to be right (asked every TIME_CHECK_SECONDS until it is); None
        before: the opening hours and the night wait, the table stays awake."""
        if self.clock_known is None and self.time_known is not None and now >= self._time_asked + TIME_CHECK_SECONDS:
            first = self._time_asked == -math.inf
            self._time_asked = now
            self.clock_known = self.time_known()
            exhibit = self.session.exhibit
            if exhibit.hours is not None or exhibit.night is not None:
                if self.clock_known is None and first:
                    self.log("roseking: the time of day is not known yet (no network time, no real-time clock): "
                             "the opening hours and the night brightness wait for it, the table stays awake")
                elif self.clock_known is not None and not first:
                    self.log(f"roseking: the time of day is known now ({self.clock_known}): the opening hours apply")
        return self.wall().time() if self.clock_known is not None else None

    def check_saving(self) -> None:
        """Say at once when the data directory takes no file: a log line, NOT SAVING on the displays, the
        saves at fault (tried again as a failing save is: `_persist`)."""
        why = self.saves.writable()
        if why is not None:
            self.log(f"roseking: warning: {why}: games are not saved until it can be (tried again at every move, "
                     f"and at least every minute)")
            self._not_saving(self.clock(), why)

    def _not_saving(self, now: float, why: str) -> None:
        """A save failed at `now`: tried again after its backoff; the first failure in a row is said on the table."""
        if not self.faults.save.failing:
            session = self.session
            session.announce(session.say("not-saving"), f"NOT SAVING: {why}", now)
        self.faults.save.failed(now)

    def _think(self, now: float) -> None:
        """Make the computer think about what the session wants, and about nothing else; after its worker
        died, not before its backoff is over."""
        want = self.session.want()
        if want == self.computer.busy:
            if want is not None and self._fd is None:
                self._watch()                   # asked before the loop ran (a step from outside): watched now
            return
        self._unwatch()
        if self.computer.busy is not None:
            self.computer.cancel()
        if want is not None and self.faults.computer.ready(now):
            self.computer.ask(want)
            self._watch()

    def _persist(self, now: float, force: bool = False) -> None:
        """Archive the games a new one replaced (result `unfinished`), then save or finish the current one;
        a save that failed is tried again after its backoff (or at once, with `force`)."""
        self.saves.retry(now)
        while self.session.retired:
            self.saves.finish(self.session.retired.pop(0))
        game = self.session.game
        if game is None or game.transient:          # no game, or attract mode's: nothing to save
            if self._saved != NOT_SAVED:            # the game saved left with no move: nothing to keep
                self.saves.clear()
                self._saved = NOT_SAVED
            elif self.faults.save.failing and self.faults.save.ready(now):
                self._probe(now)                    # a data directory that took nothing: can it now?
            return
        if (game.number, game.changes) == self._saved:
            return
        if game.over:
            if self._archived != game.number:
                self.saves.finish(game)
                self._archived = game.number
            self._saved = (game.number, game.changes)
        elif force or self.faults.save.ready(now):
            if self.saves.save(game):
                self._saved = (game.number, game.changes)
                self._saving_again()
            else:
                self._not_saving(now, "the game could not be saved")    # logged by the saves, once

    def _probe(self, now: float) -> None:
        why = self.saves.writable()
        if why is None:
            self._saving_again()
        else:
            self.faults.save.failed(now)

    def _saving_again(self) -> None:
        failures = self.faults.save.failures
        if self.faults.save.succeeded():
            self.faults.log.recovered("save", failures)

    def _shut_down(self) -> None:
        """The staff menu's SHUT DOWN: the shutdown command runs (`firmware_py.table.shutdown`), on the asyncio
        loop while it runs (else at once); a failure is said on the table."""
        session = self.session
        session.shutdown_asked = False
        job = shut_down(session.settings.shutdown_command, self.log, "the staff menu")
        try:
            aio = asyncio.get_running_loop()
        except RuntimeError:
            self._shut(asyncio.run(job))
            return
        task = aio.create_task(job)
        self._shutting.add(task)
        task.add_done_callback(self._shut_task)

    def _shut_task(self, task: "asyncio.Task[Shutdown]") -> None:
        self._shutting.discard(task)
        if not task.cancelled():            # the service stopped first: the shutdown it began goes on
            self._shut(task.result())
            self.step()

    def _shut(self, done: Shutdown) -> None:
        if done.why is not None:
            session = self.session
            session.announce(say("shutdown-failed", session.settings.language), done.why, self.clock())

    def settled(self) -> bool:
        """True when nothing is left to do but wait for a person (or the game is a demonstration). What
        the table announced at the start (RESUMED, …) is not waited for: a script that wants it said to
        its end waits for it."""
        game = self.session.game
        if game is None or self.session.screen is Screen.MENU or game.setup.mode is Mode.DEMO:
            return True
        return self.session.want() is None and game.shown is None

    # --- asyncio -------------------------------------------------------------

    def _watch(self) -> None:
        if self._aio is not None:
            self._fd = self.computer.fileno()
            self._aio.add_reader(self._fd, self._readable)

    def _unwatch(self) -> None:
        if self._aio is not None and self._fd is not None:
            self._aio.remove_reader(self._fd)
        self._fd = None

    def take_answer(self, timeout: float = 0.0) -> None:
        """The computer's pipe is readable (or becomes so within `timeout` seconds): its answer is handed to
        the session, or, when its worker died, a new one is asked after its backoff."""
        asked = self.computer.busy
        got = self.computer.receive(timeout)
        if got is not None:
            self._unwatch()
            self.answer(*got)
        elif asked is not None and self.computer.busy is None:
            self._unwatch()
            self.faults.computer_died(self.clock(), self.computer.exitcode)
            self.step()

    def _readable(self) -> None:
        try:
            self.take_answer()
        except Exception as exc:                   # for `run` to raise: asyncio would only log it, traceback and all
            self._failure = exc
            self._poke()

    def _drain(self) -> bool:
        """Handle every event waiting, in order; False if there was none."""
        handled = False
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return handled
            handled = True
            if isinstance(item, _End):
                self.input_ended = True
            else:
                self.handle(item)

    async def run(self, exit_after_input: bool = False, stop: asyncio.Event | None = None) -> None:
        """Run until `stop` is set, or (with `exit_after_input`) once the input has ended and all is settled."""
        self._aio, self._wake = asyncio.get_running_loop(), asyncio.Event()
        wake = self._wake
        try:
            self.step()
            self.notifier.ready(status_line(self.state, self.faults.down()) if self.state else "starting")
            while not (stop is not None and stop.is_set()):
                if exit_after_input and self.input_ended and self.settled():
                    break
                wake.clear()
                if self._failure is not None:
                    raise self._failure
                if self._drain():
                    continue
                try:
                    await asyncio.wait_for(wake.wait(), TICK_SECONDS)
                except TimeoutError:
                    self.step()
        finally:
            self.notifier.stopping()
            self._unwatch()
            self.computer.close()
            self._aio = self._wake = None
            self._persist(self.clock(), force=True)     # a save that failed at the last step is tried once more
            self.saves.close()
