"""The table's health in a few facts: uptime, mode, games today, frames per second, the last errors,
free space in the data directory.

A `StatusCollector` is one more receiver of the loop (it counts the frames shown and the games
started and finished, from the state handed beside each frame) and a tap on the service's log
(it keeps the last lines: what went wrong, and what was done about a save).
`collector.status()` is a `Status`, a small frozen value with `to_dict()`: what the operator's
page shows, and what anything else that watches the table (a status file, a watchdog) may read.
It knows nothing of the web.

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
import datetime
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from hardware.frame import Frame
from firmware_py.table.state import TableState

ERRORS_KEPT = 20            # the last log lines kept
FPS_WINDOW_SECONDS = 10.0   # frames per second are counted over this much of the recent past
Log = Callable[[str], None]


@dataclass(frozen=True)
class Status:
    """The table's health: when it `started` (Unix time), `uptime_seconds`, the `backend` (pi, sim), the
    `mode` (the game's mode, or `menu`) and `screen`, the games started and finished `today` (local
    date) in this run, all `frames` shown and `frames_per_second` of late, the last `errors` (Unix
    time, log line; newest last), and the data directory with its `free_bytes` (None if it cannot
    be read)."""
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
        self._errors: collections.deque[tuple[float, str]] = collections.deque(maxlen=ERRORS_KEPT)

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

    def status(self) -> Status:
        """The facts as they are now."""
        now = self.clock()
        while self._times and self._times[0] < now - FPS_WINDOW_SECONDS:
            self._times.popleft()
        self._roll()
        window = min(FPS_WINDOW_SECONDS, now - self.since)
        state = self._state
        screen = state.screen if state is not None else "starting"
        mode = state.mode if state is not None and state.mode is not None else screen
        try:
            free: int | None = shutil.disk_usage(self.data_dir).free
        except OSError:
            free = None
        return Status(self.started, round(now - self.since, 3), self.backend, str(mode), str(screen), self._day,
                      len(self._counted["started"]), len(self._counted["finished"]), self.frames,
                      round(len(self._times) / window, 2) if window > 0 else 0.0, tuple(self._errors),
                      self.data_dir, free)
