"""Nothing is lost: the game in progress saved after every move, resumed on start, finished games archived.

`DATA/current-game.json` is one game record (NOTATION.md, result `unfinished` until
the end) written atomically (temporary file, fsync, rename, fsync of the directory),
so a kill at any moment leaves the previous save or the new one, never a torn file.
`DATA/records.jsonl` gets each finished game as one whole line (one `write` of the
line on a file opened for appending, then fsync).
"""
import contextlib
import json
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import RoseKingError
from engine.players import LEVELS, check_names
from engine.position import Position
from engine.record import dumps, push_tokens, replay
from engine.jsonio import loads
from firmware_py.atomic import write_file
from firmware_py.errors import UsageError
from firmware_py.inputs import read_text, shown
from firmware_py.table.game import HUMAN, Game, Setup
from firmware_py.table.settings import DEFAULT_SETTINGS, Settings

CURRENT = "current-game.json"
ARCHIVE = "records.jsonl"
TAIL_BYTES = 64_000              # enough to hold the archive's last line


class SaveError(Exception):
    """A save file that cannot be resumed, and why."""


def setup_of(record: dict[str, Any]) -> Setup:
    """The Setup a saved record was played with; SaveError if the players are not the table's."""
    seed = record.get("seed")
    players = record.get("players")
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(players, dict):
        raise SaveError("not a game saved by the table (no seed or players)")
    who = list(players.values())
    computers = [p for p in who if p != HUMAN]
    try:
        if any(not isinstance(p, str) or p.partition(":")[0] not in LEVELS for p in computers):
            raise SaveError(f"unknown player in {json.dumps(players)}")
        check_names(computers)                  # a budget too: the thinking worker would fail on it
    except RoseKingError as exc:
        raise SaveError(f"players {json.dumps(players)}: {exc}") from None
    if record.get("variant") == "teams":
        if computers:
            raise SaveError("a teams game is played by four people")
        return Setup("teams", seed=seed)
    if not computers:
        return Setup("humans", seed=seed)
    if len(computers) == len(who) and len(set(computers)) == 1:
        return Setup("demo", computers[0], seed=seed)
    if len(who) == 2 and len(computers) == 1:
        return Setup("vs-computer", computers[0], "red" if who[0] == HUMAN else "white", seed)
    raise SaveError(f"players {json.dumps(players)} are not a mode of the table")


def resume(record: dict[str, Any], settings: Settings = DEFAULT_SETTINGS) -> Game:
    """The game a record describes, exactly where it was: hands, pile, heroes, turn and later reshuffles."""
    setup = setup_of(record)
    try:
        replay(record, CURRENT)                       # every move legal, the result as stated
        start = Position.from_json(record["start"], seed=setup.seed)
        pos = Position.from_json(record["start"], seed=setup.seed)
        push_tokens(pos, record["moves"])
    except RoseKingError as exc:
        raise SaveError(str(exc)) from None
    if start.variant.name != setup.variant:
        raise SaveError(f"variant {start.variant.name} does not match the players")
    return Game(setup, start, pos, settings=settings)


class Saves:
    """The data directory: `save` the game in progress, `load` it back, `archive` finished games."""

    def __init__(self, directory: Path, extra_archive: str | None = None,
                 log: Callable[[str], None] = print) -> None:
        self.directory, self.extra_archive, self.log = Path(directory), extra_archive, log
        self.set_aside_to: Path | None = None       # where `set_aside` last moved the save
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise SaveError(f"data directory {shown(str(directory))}: not a directory") from None
        except OSError as exc:
            raise SaveError(f"data directory {shown(str(directory))}: cannot use ({exc.strerror})") from None
        if extra_archive is not None:
            _check_appendable(Path(extra_archive))

    @property
    def current(self) -> Path:
        return self.directory / CURRENT

    def save(self, game: Game) -> None:
        """Write the game's record over the current save, atomically; a failure is logged, play goes on."""
        try:
            write_file(str(self.current), (dumps(game.record()) + "\n").encode("utf-8"))
        except UsageError as exc:
            self.log(f"roseking: the game could not be saved: {exc}")

    def load(self, settings: Settings = DEFAULT_SETTINGS) -> Game | None:
        """The saved game, or None; a save that cannot be resumed is moved aside with a log line."""
        try:
            try:
                mode = os.stat(self.current).st_mode
            except FileNotFoundError:
                raise
            except OSError as exc:                                  # a link loop, a folder not searchable
                raise SaveError(f"cannot be read ({exc.strerror})") from None
            if not stat.S_ISREG(mode):                              # a FIFO would wait, a device never end
                raise SaveError("not a regular file")
            record = loads(read_text(str(self.current)), CURRENT)
            if not isinstance(record, dict):
                raise SaveError("not a game record")
            return resume(record, settings)
        except FileNotFoundError:
            return None
        except (SaveError, UsageError, RoseKingError) as exc:
            self.set_aside(f"cannot be resumed: {exc}")
            return None

    def set_aside(self, why: str) -> None:
        """Move the current save out of the way (kept, renamed), saying why."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.directory / f"set-aside-{stamp}-{CURRENT}"
        n = 1
        while target.exists():
            n += 1
            target = self.directory / f"set-aside-{stamp}-{n}-{CURRENT}"
        try:
            os.replace(self.current, target)
        except OSError as exc:
            raise SaveError(f"{self.current}: cannot be moved aside ({exc.strerror})") from None
        self.set_aside_to = target
        self.log(f"roseking: {self.current}: {why}; moved to {target.name}, starting a new game")

    def archive(self, game: Game) -> None:
        """Append the finished game to `records.jsonl` (and `--records`), unless it is already the last line."""
        line = dumps(game.record()) + "\n"
        for path in [self.directory / ARCHIVE] + ([Path(self.extra_archive)] if self.extra_archive else []):
            try:
                if _last_line(path) != line:
                    _append(path, line)
            except (SaveError, OSError) as exc:
                self.log(f"roseking: the finished game could not be archived: {exc}")

    def finish(self, game: Game) -> None:
        """A game has ended: save it, archive it, then clear the current save."""
        self.save(game)
        self.archive(game)
        try:
            self.current.unlink(missing_ok=True)
        except OSError as exc:                  # the next start meets it again; the archive takes a game once
            self.log(f"roseking: {shown(str(self.current))}: cannot be removed ({exc.strerror})")


def _open_append(path: Path, create: bool = True) -> int:
    """A descriptor appending to `path`; SaveError naming it. A FIFO with no reader is an error, not a wait."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_CLOEXEC | (os.O_CREAT if create else 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        raise SaveError(f"{shown(str(path))}: cannot open for appending ({exc.strerror})") from None
    os.set_blocking(fd, True)               # O_NONBLOCK was for the open only: a line is written whole
    return fd


def _append(path: Path, line: str) -> None:
    """Append `line` in one write, then fsync."""
    data = line.encode("utf-8")
    fd = _open_append(path)
    try:
        if os.write(fd, data) != len(data):
            raise SaveError(f"{shown(str(path))}: short write")
        with contextlib.suppress(OSError):      # a pipe or a terminal cannot be synced
            os.fsync(fd)
    finally:
        os.close(fd)


def _check_appendable(path: Path) -> None:
    """SaveError if the file already at `path` cannot be appended to (a FIFO is not tried: its reader
    may come later)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return                                  # nothing there yet
    if not stat.S_ISFIFO(mode):
        os.close(_open_append(path, create=False))


def _last_line(path: Path) -> str | None:
    """The last line of regular file `path` with its newline, from its last TAIL_BYTES only; None if
    there is none, or `path` is a device or FIFO (read from it, `/dev/zero` never ends, a pipe waits)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - TAIL_BYTES))
            lines = f.read(TAIL_BYTES).splitlines(keepends=True)   # bytes: only \n and \r end a line
    except FileNotFoundError:
        return None
    return lines[-1].decode("utf-8", errors="replace") if lines else None
