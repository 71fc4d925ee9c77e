"""The table service put together: the save settled, the session, the computer and the loop on the
devices, and the loop run, the buttons fed to it, until it is stopped.

`roseking play` reads and checks its options, opens the devices and hands over here, in
three steps: `open_saves` (before the devices: what is saved may choose the table), `start`
(the devices are open: from here on, things change) and `serve`. What happened to a save is
said on the table (`Session.announce`) and in the log. More outputs (the status, the web
page's mirror) are receivers of the loop; more inputs submit their events to it, as the buttons'
thread and the web page's buttons do. The web page (`open_web`) is served from the same asyncio
loop, while the loop runs.
"""
import asyncio
import datetime
import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from firmware_py.atomic import ours
from firmware_py.errors import UsageError
from firmware_py.table.computer import Computer
from firmware_py.table.exhibit import NO_EXHIBIT, Exhibit, Start
from firmware_py.table.game import Game, Mode, Setup, why_unplayable
from firmware_py.table.loop import Receiver, TableLoop, Wall
from firmware_py.table.notify import Notifier
from firmware_py.table.saves import SaveError, Saves
from firmware_py.table.session import Session
from firmware_py.table.settings import Settings
from firmware_py.table.timekeeping import how_known
from hardware.config import Config
from hardware.devices import Devices
from hardware.events import InputEnded
from hardware.names import STAFF_KEY
from hardware.roles import ButtonSource

if TYPE_CHECKING:
    from firmware_py.table.status import StatusCollector
    from firmware_py.web.server import WebServer
    from firmware_py.web.settings import WebSettings

BRIDGE_POLL_SECONDS = 0.5
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
Log = Callable[[str], None]


@dataclass(frozen=True)
class Saved:
    """What the data directory held at start-up: the `game` to resume, or why its save cannot be."""
    game: Game | None = None
    unreadable: str | None = None


def open_saves(data: Path, records: str | None, settings: Settings, log: Log) -> tuple[Saves, Saved]:
    """The table's data directory (made if missing), with `records` as a second archive, and what is
    saved in it; UsageError if the directory cannot be used. Changes nothing else."""
    try:
        saves = Saves(data, records, log=log)
    except SaveError as exc:
        raise UsageError(str(exc)) from None
    try:
        return saves, Saved(saves.read(settings))
    except SaveError as exc:
        return saves, Saved(unreadable=f"cannot be resumed: {exc}")


def start(devices: Devices, config: Config, settings: Settings, saves: Saves, saved: Saved, setup: Setup, *,
          deal: bool, demo: bool, log: Log, receivers: Iterable[Receiver] = (),
          notifier: Notifier | None = None, exhibit: Exhibit = NO_EXHIBIT,
          clock: Callable[[], float] = time.monotonic, wall: Wall = datetime.datetime.now,
          time_known: Callable[[], str | None] | None = how_known) -> TableLoop:
    """The loop on the open `devices`, its first game on the table, with the save settled first.

    A save that cannot be resumed is set aside, and so is a saved game this table cannot play
    (`why_unplayable`). With `deal` (`--mode`) `setup` is dealt at once and the saved game, if
    it holds a move, archived (as `unfinished` unless it had ended), or kept beside the save while
    the archive cannot take it. Else the saved game is resumed, or, with `demo` (nobody can
    press), a demonstration at `setup`'s level is dealt, or what `[exhibit] start` says: the
    new-game menu, attract mode or a demonstration (`exhibit`: how the table behaves left alone). What
    happened is announced on the table. UsageError if a save cannot be moved aside. The loop
    shows the devices (guarded: a device that fails is tried again later,
    `firmware_py.table.faults`), then `receivers`, what the table shows, and tells systemd
    through `notifier`, all on `clock` and `wall` (the soak's accelerated ones, `firmware_py.soak`),
    the time of day believed once `time_known` says how it is known (None: `wall` is right). A data
    directory that takes no file is said at once (`TableLoop.check_saving`).
    """
    session = Session(settings, config.seats, setup, {seat: config.displays.view_of(seat) for seat in config.seats},
                      exhibit, staff_key=STAFF_KEY in config.buttons.pins)
    resumed, retired = saved.game, None         # retired: what the table and the caption say of the save
    try:
        if saved.unreadable:
            saves.set_aside(saved.unreadable)
        if resumed is not None and deal:
            if resumed.pos.stack or resumed.over:   # a save of no move holds nothing to keep: it is replaced
                filed = saves.finish(resumed)       # as `unfinished` unless a kill came after its last move
                log(f"roseking: the saved game ({len(resumed.pos.stack)} moves) {filed}; a new game of {setup.mode} "
                    "starts")
                retired = ("old-archived" if filed.archived else "old-not-archived", f"saved game {filed}")
            resumed = None
        if resumed is not None and (why := why_unplayable(resumed.setup, session.table)):
            saves.set_aside(f"this table cannot play it: {why.explain(session.table)}")
            resumed = None
    except SaveError as exc:            # a save cannot be moved aside
        raise UsageError(str(exc)) from None
    first = setup if deal else None     # the game to show at once; None: the menu
    if resumed is not None:
        log(f"roseking: resuming the saved game ({len(resumed.pos.stack)} moves)")
        first = resumed.setup
    elif first is None and (demo or exhibit.start is Start.DEMO):
        first = replace(setup, mode=Mode.DEMO)
    loop = TableLoop(session, devices.slots, Computer(settings.think_seconds), saves, receivers, clock, log=log,
                     notifier=notifier, devices=devices, wall=wall, time_known=time_known)
    now = loop.clock()
    if first is not None:
        session.start(first, now, resumed)
    elif exhibit.start is Start.ATTRACT:
        session.attract(now)
    else:
        session.open_menu(now)
    if resumed is not None:
        session.announce(session.say("resumed"), f"RESUMED ({len(resumed.pos.stack)} moves)", now)
    elif saves.set_aside_to is not None:
        session.announce(session.say("save-set-aside"), f"save set aside as {saves.set_aside_to.name}", now)
    elif retired is not None:
        session.announce(session.say(retired[0]), retired[1], now)
    loop.check_saving()
    return loop


class ButtonBridge:
    """While the block runs, a thread hands every event of `buttons` to `loop.submit` (a blocking
    `get`, then the hand-over, nothing else), and the input's end to `loop.end_input`."""

    def __init__(self, buttons: ButtonSource, loop: TableLoop) -> None:
        self.buttons, self.loop = buttons, loop
        self._halt = threading.Event()
        self._thread = threading.Thread(target=self._feed, daemon=True, name="table-buttons")

    def _feed(self) -> None:
        while not self._halt.is_set():
            try:
                event = self.buttons.get(timeout=BRIDGE_POLL_SECONDS)
            except InputEnded:
                self.loop.end_input()
                return
            if event is not None and not self._halt.is_set():
                self.loop.submit(event)

    def __enter__(self) -> "ButtonBridge":
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._halt.set()                # `get` may still wait: the thread ends after it, its event dropped


def open_web(settings: "WebSettings", config: Config, backend: str, status: "StatusCollector", saves: Saves,
             log: Log) -> "WebServer":
    """The web page's server for the table, its address already taken (`--web`, `[web]`); UsageError if
    it cannot be, or if the `web` extra is missing. Close it if it is never served."""
    try:
        from firmware_py.web.server import WebServer, listen
    except ModuleNotFoundError as exc:
        raise UsageError(f"--web needs {exc.name}: pip install 'roseking[web]'") from None
    return WebServer(settings, listen(settings), config, backend, status, saves.archive, log)


async def serve(loop: TableLoop, buttons: ButtonSource, exit_after_input: bool, web: "WebServer | None" = None) -> int:
    """Run `loop`, fed by `buttons` (and serving the `web` page), until it is done (status 0), or SIGTERM,
    SIGHUP or Ctrl-C stops it (128 + the signal's number: 143, 129 or 130, as service managers and shells
    expect); the game is saved after every move anyway. A signal that is not `ours` (`nohup` ignores
    SIGHUP, a script's `&` job SIGINT) is left as it is."""
    stop = asyncio.Event()
    stopped_by: list[int] = []

    def stopped(signum: int) -> None:
        stopped_by.append(signum)
        stop.set()
    aio = asyncio.get_running_loop()
    handlers = ours(*STOP_SIGNALS)
    for sig in handlers:
        aio.add_signal_handler(sig, stopped, sig)
    try:
        async with contextlib.AsyncExitStack() as serving:
            if web is not None:
                await serving.enter_async_context(web.serving(loop))
            with ButtonBridge(buttons, loop):
                await loop.run(exit_after_input, stop)
    finally:
        for sig, handler in handlers.items():       # for the devices' closing, as they were before
            aio.remove_signal_handler(sig)
            signal.signal(sig, handler)
    return 128 + stopped_by[0] if stopped_by else 0
