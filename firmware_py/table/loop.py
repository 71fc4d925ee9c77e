"""The one loop: button events and the computer's answers in; the session, saves and frames out.

An asyncio loop owns the game. Every input comes in through `submit(event)`, safe from any
thread or coroutine: the buttons' thread (`firmware_py.table.service.ButtonBridge`) and any
other source of presses alike; the events wait in a thread-safe queue and wake the loop,
which handles them in order. The computer's answer arrives through its pipe's file
descriptor (`add_reader`); everything else is a timer of the loop. All times come from one
injectable clock, so a test steps the loop with its own clock and never sleeps. A frame is
drawn at once after each event and on every tick (20 a second), and shown to every receiver
(the devices, a mirror) only when it differs from the last one shown, so a table waiting for
a person costs little.
"""
import asyncio
import contextlib
import math
import queue
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from firmware_py.table import scenes
from firmware_py.table.computer import Computer
from firmware_py.table.game import Mode, Request
from firmware_py.table.saves import Saves
from firmware_py.table.session import Screen, Session
from hardware.events import ButtonEvent
from hardware.frame import Frame

TICK_SECONDS = 0.05


class Receiver(Protocol):
    """Whatever is shown the table's frames: the devices, a mirror of the table."""

    def show(self, frame: Frame) -> None: ...


class _End:
    """In the queue of events: the input has ended (a finished script), nothing follows."""


_END = _End()


class TableLoop:
    """Runs a `Session` whose frames go to `receivers`: `handle(event)` and `step()` are the loop's whole
    work; `submit(event)` is the way in, `run()` the loop itself."""

    def __init__(self, session: Session, slots: Sequence[str], computer: Computer, saves: Saves,
                 receivers: Iterable[Receiver] = (), clock: Callable[[], float] = time.monotonic) -> None:
        self.session, self.slots, self.computer, self.saves, self.clock = session, slots, computer, saves, clock
        self.receivers: list[Receiver] = list(receivers)
        self.shown: Frame | None = None
        self.stepped = -math.inf            # the time of the last step: the time the last frame shows
        self._saved: tuple[int, int] = (-1, -1)      # (game number, changes) last saved
        self._archived = -1
        self._fd: int | None = None
        self._inbox: queue.SimpleQueue[ButtonEvent | _End] = queue.SimpleQueue()
        self._aio: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._failure: Exception | None = None
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

    # --- the work ----------------------------------------------------------

    def handle(self, event: ButtonEvent) -> None:
        """One button event, then everything that follows from it, drawn at once."""
        now = self.clock()
        self.session.event(event, now)
        self.step(now)

    def answer(self, request: Request, move: str) -> None:
        """The computer's answer."""
        now = self.clock()
        self.session.answer(request, move, now)
        self.step(now)

    def step(self, now: float | None = None) -> None:
        """Timers, the computer, saves, and the frame for `now`."""
        now = self.clock() if now is None else now
        self.stepped = now
        self.session.tick(now)
        self._think()
        self._persist(now)
        frame = scenes.frame(self.session, self.slots, now)
        if frame != self.shown:
            for receiver in self.receivers:
                receiver.show(frame)
            self.shown = frame

    def _think(self) -> None:
        """Make the computer think about what the session wants, and about nothing else."""
        want = self.session.want()
        if want == self.computer.busy:
            return
        self._unwatch()
        if self.computer.busy is not None:
            self.computer.cancel()
        if want is not None:
            self.computer.ask(want)
            self._watch()

    def _persist(self, now: float) -> None:
        """Archive the games a new one replaced (result `unfinished`), then save or finish the current one."""
        self.saves.retry(now)
        while self.session.retired:
            self.saves.finish(self.session.retired.pop(0))
        game = self.session.game
        if game is None or (game.number, game.changes) == self._saved:
            return
        if game.over:
            if self._archived != game.number:
                self.saves.finish(game)
                self._archived = game.number
            self._saved = (game.number, game.changes)
        elif self.saves.save(game):             # else tried again at the next step
            self._saved = (game.number, game.changes)

    def settled(self) -> bool:
        """True when nothing is left to do but wait for a person (or the game is a demonstration), and
        what the table announced at the start (RESUMED, …) has been said to its end in the frames shown."""
        notice, game = self.session.notice, self.session.game
        if notice is not None and self.stepped < notice.until:
            return False
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

    def _readable(self) -> None:
        try:
            got = self.computer.receive()
            if got is not None:
                self._unwatch()
                self.answer(*got)
            elif self.computer.busy is None:       # the worker died: ask a new one
                self._unwatch()
                self.step()
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
            self._unwatch()
            self.computer.close()
            self._aio = self._wake = None
            self._persist(self.clock())          # a save that failed at the last step is tried once more
            self.saves.close()
