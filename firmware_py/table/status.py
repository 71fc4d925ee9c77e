"""The table's health in a few facts: uptime, mode, games today, frames per second, the last errors,
free space in the data directory, the watchdog, the parts at fault.

A `StatusCollector` is one more receiver of the loop (it counts the frames shown and the games
started and finished, from the state handed beside each frame) and a tap on the service's log
(it keeps the last lines: what went wrong, and what was done about a save); watching the loop
(`watch`), it also reads the watchdog, the faults and the brightness. The games finished earlier
today, before a restart, are counted from the archive's `ended` times (`count_archive`).
`collector.status()` is a `Status`, a small frozen value with `to_dict()`: what the operator's
page shows, and what `StatusFile` writes for `roseking status` to read while the service runs:
`DATA/status.json`, or, under systemd, the same name in the service's runtime directory (a RAM
file system: `RuntimeDirectory=`), `DATA/status.json` a link to it, written once, so that a
status rewritten every few seconds wears no SD card out. It knows nothing of the web.

>>> from hardware.frame import Frame
>>> from firmware_py.table.state import TableState
>>> clock = iter([0.0, 1.0, 2.0, 4.0]).__next__
>>> status = StatusCollector("/", "sim", clock=clock, wall=lambda: 0.0)
>>> status.show(Frame(), TableState("play", "humans", number=1))
>>> status.show(Frame.solid((9, 0, 0)), TableState("over", "humans", number=1, moves=40))
>>> s = status.status()
>>> s.uptime_seconds, s.mode, s.games_started, s.games_finished, s.frames
(4.0, 'humans', 1, 1, 2)
"""
import collections
import contextlib
import datetime
import json
import os
import shutil
import stat
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import RecordError
from engine.record import ended_at
from firmware_py.atomic import write_file
from firmware_py.errors import UsageError
from hardware.frame import Frame
from firmware_py.table.health import process_identity
from firmware_py.table.state import TableState

if TYPE_CHECKING:
    from firmware_py.table.loop import TableLoop

ERRORS_KEPT = 20            # the last log lines kept
FPS_WINDOW_SECONDS = 10.0   # frames per second are counted over this much of the recent past
STATUS_FILE = "status.json"
WRITE_SECONDS = 5.0         # the status file is written this often, and whenever what it says changes
RUNTIME = "RUNTIME_DIRECTORY"   # where systemd says the service's runtime directory is (`RuntimeDirectory=`)
ARCHIVE_TAIL_BYTES = 1 << 20    # the end of the archive read for today's finished games: a few hundred games
Log = Callable[[str], None]


@dataclass(frozen=True)
class Status:
    """The table's health: when it `started` (Unix time), `uptime_seconds`, the `backend` (pi, sim), the
    `mode` (the game's mode, or `menu`) and `screen`, the games started and finished `today` (local
    date) in this run, all `frames` shown and `frames_per_second` of late, the last `errors` (Unix
    time, log line; newest last), and the data directory with its `free_bytes` (None if it cannot
    be read); the service's `pid`, whether systemd's watchdog is `watchdog_armed` and its `last_ping`
    (Unix time, None before the first), the parts at `faults` now (`firmware_py.table.faults.PARTS`),
    the `brightness` level (0–1), how the time of day is known (`clock`: None while it is not, and the
    opening hours wait), and what tells the `process` from a later one of the same id
    (`health.process_identity`). `games_started` counts this run's; `games_finished` today's, before a
    restart too (from the archive)."""
    started: float
    uptime_seconds: float
    backend: str
    mode: str
    screen: str
    today: str
    games_started: int
    games_finished: int
    frames: int
    frames_per_second: float
    errors: tuple[tuple[float, str], ...]
    data_dir: str
    free_bytes: int | None
    pid: int = 0
    watchdog_armed: bool = False
    last_ping: float | None = None
    faults: tuple[str, ...] = ()
    brightness: float = 1.0
    clock: str | None = None
    process: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """As plain data for JSON (`errors` as a list of `{"at": Unix time, "line": text}`)."""
        out = asdict(self)
        out["errors"] = [{"at": at, "line": line} for at, line in self.errors]
        return out


class StatusCollector:
    """Collects the `Status` of a table whose data directory is `data_dir`: a receiver of the loop
    (`show`) and a tap on its log (`log(line)` keeps the line and hands it on to `forward`).
    `clock` is the loop's clock, `wall` the time of day."""

    def __init__(self, data_dir: str, backend: str, forward: Log = lambda line: None,
                 clock: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time) -> None:
        self.data_dir, self.backend, self.forward, self.clock, self.wall = data_dir, backend, forward, clock, wall
        self.since, self.started = clock(), wall()
        self.frames = 0
        self._times: collections.deque[float] = collections.deque()
        self._last: Frame | None = None
        self._state: TableState | None = None
        self._day = self._today()
        self._counted: dict[str, set[int]] = {"started": set(), "finished": set()}
        self._before: tuple[str, int] = (self._day, 0)      # (day, games finished that day before this run)
        self._errors: collections.deque[tuple[float, str]] = collections.deque(maxlen=ERRORS_KEPT)
        self.loop: "TableLoop | None" = None
        self.process = process_identity(os.getpid())

    def watch(self, loop: "TableLoop") -> None:
        """Read the watchdog, the faults and the brightness of `loop` too."""
        self.loop = loop

    def count_archive(self, archive: Path) -> None:
        """Count the games finished today before this run: the archive's records (its last
        ARCHIVE_TAIL_BYTES) that ended today (local date) and not `unfinished`."""
        try:
            with open(os.open(archive, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb") as f:
                if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                    return                  # a FIFO would wait, a device never end
                f.seek(max(0, f.seek(0, os.SEEK_END) - ARCHIVE_TAIL_BYTES))
                tail = f.read(ARCHIVE_TAIL_BYTES)
        except OSError:
            return
        day, count = self._today(), 0
        for line in tail.splitlines():
            try:
                record = json.loads(line)
                finished = record["result"]["reason"] != "unfinished"
                when = ended_at(record["ended"])
            except (ValueError, KeyError, TypeError, RecordError):
                continue            # a torn line, a record of another program, one without `ended`
            count += finished and datetime.date.fromtimestamp(when).isoformat() == day
        self._before = (day, count)

    def _today(self) -> str:
        return datetime.date.fromtimestamp(self.wall()).isoformat()

    def show(self, frame: Frame, state: TableState) -> None:
        """A frame and the state beside it, as the loop shows them: a new frame is counted; a game is
        counted as started when first seen without a move (a resumed game was started before), and as
        finished when first seen over."""
        now = self.clock()
        if frame != self._last:
            self.frames += 1
            self._times.append(now)
            self._last = frame
        self._roll()
        if state.number:
            if state.moves == 0 and state.screen == "play":
                self._counted["started"].add(state.number)
            if state.screen == "over":
                self._counted["finished"].add(state.number)
        self._state = state

    def log(self, line: str) -> None:
        """Keep `line` among the last ones, and hand it on."""
        self._errors.append((self.wall(), line))
        self.forward(line)

    def note(self, line: str) -> None:
        """Hand on a line that tells, not one that warns (where the page is served): not kept."""
        self.forward(line)

    def _roll(self) -> None:
        """A new day counts its games from nought."""
        day = self._today()
        if day != self._day:
            self._day = day
            self._counted = {"started": set(), "finished": set()}

    def news(self) -> tuple[str, str, int, int, tuple[tuple[float, str], ...], tuple[str, ...], bool, float,
                            str | None]:
        """What the status says that, when it changes, is news: (mode, screen, games started, games finished,
        errors, faults, watchdog armed, brightness, clock), as in `Status`. Cheap: asked at every step."""
        self._roll()
        state = self._state
        screen = state.screen if state is not None else "starting"
        mode = state.mode if state is not None and state.mode is not None else screen
        before = self._before[1] if self._before[0] == self._day else 0
        loop = self.loop
        return (str(mode), str(screen), len(self._counted["started"]), before + len(self._counted["finished"]),
                tuple(self._errors), tuple(loop.faults.down()) if loop else (),
                loop is not None and loop.notifier.armed, loop.brightness if loop else 1.0,
                loop.clock_known if loop else None)

    def status(self) -> Status:
        """The facts as they are now."""
        now = self.clock()
        while self._times and self._times[0] < now - FPS_WINDOW_SECONDS:
            self._times.popleft()
        mode, screen, started, finished, errors, faults, armed, brightness, clock = self.news()
        window = min(FPS_WINDOW_SECONDS, now - self.since)
        try:
            free: int | None = shutil.disk_usage(self.data_dir).free
        except OSError:
            free = None
        loop = self.loop
        return Status(self.started, round(now - self.since, 3), self.backend, mode, screen, self._day, started,
                      finished, self.frames, round(len(self._times) / window, 2) if window > 0 else 0.0, errors,
                      self.data_dir, free, os.getpid(), armed, loop.notifier.last_ping if loop else None, faults,
                      brightness, clock, self.process)


def runtime_directory() -> Path | None:
    """The service's runtime directory, when systemd made one (`$RUNTIME_DIRECTORY`, its first path), else None."""
    paths = os.environ.get(RUNTIME, "").split(":")
    return Path(paths[0]) if paths[0] else None


class StatusFile:
    """`collector`'s status for `roseking status`: written every WRITE_SECONDS of the loop's clock (a ticker
    of the loop) and whenever what it says changes (the mode, the screen, the games, the errors, the faults,
    the watchdog, the brightness, the clock), with `written` (Unix time) and `running`; `close()` writes it a
    last time as stopped. It is `DATA/status.json` (`directory`), or with a `runtime` directory (a RAM file
    system, `runtime_directory`) the same name there, and `DATA/status.json` a link to it, made once. The file
    is replaced whole (never read half written), mode 0644: anyone on the machine may read how the table is
    (no secret is ever in it), only the service writes it. It is not synced to the disk: it says how the
    table is now. A write that fails is logged once, until one succeeds (not at all when `failing`: the data
    directory's failure was said already)."""

    def __init__(self, directory: Path, collector: StatusCollector, log: Log, runtime: Path | None = None,
                 failing: bool = False) -> None:
        self.collector, self.log = collector, log
        self.path = (runtime or directory) / STATUS_FILE
        self._next = -float("inf")
        self._said: object = None
        self._failing = failing and runtime is None     # the data directory's failure, said already: not again
        if runtime is not None:
            self._link(directory / STATUS_FILE)

    def _link(self, link: Path) -> None:
        """`link` (in the data directory) pointing at the status file, unless it does already."""
        try:
            if os.readlink(link) == str(self.path):
                return
        except OSError:
            pass
        temporary = link.with_name(f".{link.name}.{os.getpid()}.link")
        try:
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
            temporary.symlink_to(self.path)
            temporary.replace(link)
        except OSError as exc:
            self.log(f"roseking: the status link {link} cannot be made ({exc.strerror}): roseking status needs "
                     f"--data-dir {self.path.parent}")

    def __call__(self, now: float) -> None:
        said = self.collector.news()
        if now >= self._next or said != self._said:
            self._next, self._said = now + WRITE_SECONDS, said
            self.write(self.collector.status(), running=True)

    def write(self, status: Status, running: bool) -> None:
        data = {**status.to_dict(), "running": running, "written": self.collector.wall()}
        try:
            write_file(str(self.path), (json.dumps(data, indent=1) + "\n").encode(), sync=False, permissions=0o644)
        except UsageError as exc:
            if not self._failing:
                self.log(f"roseking: the status file cannot be written: {exc}")
            self._failing = True
            return
        self._failing = False

    def close(self) -> None:
        """The service stops: said in the file."""
        self.write(self.collector.status(), running=False)
