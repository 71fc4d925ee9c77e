"""The one loop: button events and the computer's answers in; the session, saves and frames out.

An asyncio loop owns the game. The ButtonSource's blocking `get` runs on a bridge
thread that only hands events over (`call_soon_threadsafe`); the computer's answer
arrives through its pipe's file descriptor (`add_reader`); everything else is a
timer of the loop. All times come from one injectable clock, so a test steps the
loop with its own clock and never sleeps. A frame is drawn at once after each
event and on every tick (20 a second), and shown only when it differs from the
last one shown, so a table waiting for a person costs little.
"""
import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from firmware_py.table import scenes
from firmware_py.table.computer import Computer
from firmware_py.table.game import Mode, Request
from firmware_py.table.saves import Saves
from firmware_py.table.session import Screen, Session
from hardware.events import ButtonEvent, InputEnded
from hardware.devices import Devices
from hardware.frame import Frame

TICK_SECONDS = 0.05
BRIDGE_POLL_SECONDS = 0.5
_END = object()          # the button source has ended
_FAILED = object()       # handling the computer's answer failed (`_failure`)


class TableLoop:
    """Runs a `Session` on `devices`: `handle(event)` and `step()` are the loop's whole work."""

    def __init__(self, session: Session, devices: Devices, computer: Computer, saves: Saves,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.session, self.devices, self.computer, self.saves, self.clock = session, devices, computer, saves, clock
        self.shown: Frame | None = None
        self._saved: tuple[int, int] = (-1, -1)      # (game number, changes) last saved
        self._archived = -1
        self._fd: int | None = None
        self._aio: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[Any] | None = None
        self._failure: Exception | None = None
        self.input_ended = False

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
        self.session.tick(now)
        self._think()
        self._persist(now)
        frame = scenes.frame(self.session, self.devices.slots, now)
        if frame != self.shown:
            self.devices.show(frame)
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
        """True when nothing is left to do but wait for a person (or the game is a demonstration)."""
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
            assert self._queue is not None
            self._queue.put_nowait(_FAILED)

    def _bridge(self, stop: threading.Event) -> None:
        """The button thread: blocking `get`, then hand the event to the loop; nothing else."""
        aio, queue = self._aio, self._queue     # `run` clears `_aio` when it ends, while `get` may still wait
        assert aio is not None and queue is not None
        while not stop.is_set():
            try:
                item: object = self.devices.buttons.get(timeout=BRIDGE_POLL_SECONDS)
            except InputEnded:
                item = _END
            if item is not None and not stop.is_set():
                with contextlib.suppress(RuntimeError):     # the loop has just closed: nobody to hand it to
                    aio.call_soon_threadsafe(queue.put_nowait, item)
            if item is _END:
                return

    async def run(self, exit_after_input: bool = False, stop: asyncio.Event | None = None) -> None:
        """Run until `stop` is set, or (with `exit_after_input`) once the input has ended and all is settled."""
        self._aio = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        halt = threading.Event()
        bridge = threading.Thread(target=self._bridge, args=(halt,), daemon=True, name="table-buttons")
        bridge.start()
        try:
            self.step()
            while not (stop is not None and stop.is_set()):
                if exit_after_input and self.input_ended and self.settled():
                    break
                try:
                    item = await asyncio.wait_for(self._queue.get(), TICK_SECONDS)
                except TimeoutError:
                    self.step()
                    continue
                if item is _END:
                    self.input_ended = True
                elif item is _FAILED:
                    assert self._failure is not None
                    raise self._failure
                else:
                    self.handle(item)
        finally:
            halt.set()
            self._unwatch()
            self.computer.close()
            self._aio = None
            self._persist(self.clock())          # a save that failed at the last step is tried once more
            self.saves.close()
