"""Nothing is lost: the game in progress saved after every move, resumed on start, finished games archived.

`DATA/current-game.json` is one game record (NOTATION.md, result `unfinished` until
the end) written atomically (temporary file, fsync, rename, fsync of the directory),
so a kill at any moment leaves the previous save or the new one, never a torn file.
`DATA/records.jsonl` gets each finished game as a whole line of its own, synced; a
game the archive cannot take waits in `DATA/unarchived-….json` until it can. A save
that cannot be resumed is kept as `DATA/set-aside-…-current-game.json`.
"""
import contextlib
import datetime
import errno
import json
import math
import os
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import RoseKingError, UnknownPlayerError
from engine.players import check_names
from engine.position import Position
from engine.record import dumps, ended_now, push_tokens, replay
from engine.jsonio import MAX_BYTES, loads
from engine.variants import variant
from firmware_py.atomic import fsync_folder, write_file
from firmware_py.errors import UsageError
from firmware_py.inputs import decode, read_text, shown
from firmware_py.table.game import HUMAN, Game, Mode, Setup
from firmware_py.table.settings import DEFAULT_SETTINGS, Settings

CURRENT = "current-game.json"
ARCHIVE = "records.jsonl"
SET_ASIDE = "set-aside-"         # DATA/set-aside-STAMP-current-game.json: a save that could not be resumed
UNARCHIVED = "unarchived-"       # DATA/unarchived-STAMP.json: a game waiting for the archive
TAIL_BYTES = 64_000              # the archive's end read for a game that came back: a dozen games
RETRY_SECONDS = 10.0             # how often games waiting for the archive are tried again


class SaveError(Exception):
    """A save file that cannot be resumed, and why."""


@dataclass(frozen=True)
class Filed:
    """Where `Saves.finish` put a game: in the archive; else waiting for it in the file `waiting`
    (DATA/unarchived-….json), or, when not even that file could be written, in memory only.

    >>> str(Filed(archived=True)), str(Filed(False, Path("unarchived-1.json"))), str(Filed(False))
    ('archived in records.jsonl', 'not archived: kept in unarchived-1.json', 'not archived: held in memory only')
    """
    archived: bool
    waiting: Path | None = None

    def __str__(self) -> str:
        if self.archived:
            return f"archived in {ARCHIVE}"
        return f"not archived: {f'kept in {self.waiting.name}' if self.waiting else 'held in memory only'}"


def setup_of(record: dict[str, Any]) -> Setup:
    """The Setup a saved record was played with; SaveError if the players are not the table's."""
    seed = record.get("seed")
    players = record.get("players")
    if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(players, dict):
        raise SaveError("not a game saved by the table (no seed or players)")
    try:
        seats = variant(record.get("variant", "classic")).seats
    except RoseKingError as exc:
        raise SaveError(str(exc)) from None
    if sorted(players) != sorted(seats):
        raise SaveError(f"players {json.dumps(players)}: not one for each seat ({', '.join(seats)})")
    who = [players[seat] for seat in seats]
    computers = [p for p in who if p != HUMAN]
    unknown = SaveError(f"unknown player in {json.dumps(players)}")
    if not all(isinstance(p, str) for p in computers):
        raise unknown
    try:
        check_names(computers)                  # a budget too: the thinking worker would fail on it
    except UnknownPlayerError:
        raise unknown from None
    except RoseKingError as exc:
        raise SaveError(f"players {json.dumps(players)}: {exc}") from None
    if record.get("variant") == "teams":
        if computers:
            raise SaveError("a teams game is played by four people")
        return Setup(Mode.TEAMS, seed=seed)
    if not computers:
        return Setup(Mode.HUMANS, seed=seed)
    if len(computers) == len(who) and len(set(computers)) == 1:
        return Setup(Mode.DEMO, computers[0], seed=seed)
    if len(who) == 2 and len(computers) == 1:
        return Setup(Mode.VS_COMPUTER, computers[0], "red" if who[0] == HUMAN else "white", seed)
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
    return Game(setup, start, pos, settings=settings, names=record.get("names"), ended_at=record.get("ended"))


class Saves:
    """The data directory: `save` the game in progress, `load` it back, `finish` a game into the archive."""

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
        self._held: list[str] = []          # lines of games that not even a file beside the save could keep
        self._retry_at: float | None = -math.inf   # when `retry` looks next (None: a period after its next call)
        self._told: dict[str, str] = {}     # the failure last logged, of saving and of archiving: said once
        # Games that may be in the archive already, their file left behind by a kill or a failed removal
        # after the append: the save `read` found, and the waiting files this run did not write or remove.
        self._loaded: str | None = None
        self._came_back = set(self.waiting())

    @property
    def current(self) -> Path:
        return self.directory / CURRENT

    @property
    def archive(self) -> Path:
        return self.directory / ARCHIVE

    def save(self, game: Game) -> bool:
        """Write the game's record over the current save, atomically; False if it cannot be, logged once until
        a save works again (play goes on; the loop tries again at its next step)."""
        try:
            write_file(str(self.current), (dumps(game.record()) + "\n").encode("utf-8"))
        except UsageError as exc:
            if "save" not in self._told:        # already said: this failure, or the data directory's (`writable`)
                self._say("save", f"roseking: the game could not be saved: {exc}")
            return False
        self._told.pop("save", None)
        return True

    def writable(self) -> str | None:
        """None when a file can be written in the data directory now, else why not, in words (a read-only
        mount, another user's directory, an immutable one, a full disk)."""
        try:
            fd, name = tempfile.mkstemp(dir=self.directory, prefix=".roseking-probe-")
        except OSError as exc:
            why = f"{shown(str(self.directory))} cannot be written ({exc.strerror or exc})"
            self._told.setdefault("save", why)      # the caller says it: a save that fails for it is not said again
            return why
        self._told.pop("save", None)
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(name)
        return None

    def load(self, settings: Settings = DEFAULT_SETTINGS) -> Game | None:
        """The saved game, or None; a save that cannot be resumed is moved aside with a log line."""
        try:
            return self.read(settings)
        except SaveError as exc:
            self.set_aside(f"cannot be resumed: {exc}")
            return None

    def read(self, settings: Settings = DEFAULT_SETTINGS) -> Game | None:
        """The saved game, or None if there is none; SaveError if it cannot be resumed. Changes nothing."""
        try:
            mode = os.stat(self.current).st_mode
        except FileNotFoundError:
            return None
        except OSError as exc:                                      # a link loop, a folder not searchable
            raise SaveError(f"cannot be read ({exc.strerror})") from None
        if not stat.S_ISREG(mode):                                  # a FIFO would wait, a device never end
            raise SaveError("not a regular file")
        try:
            record = loads(read_text(str(self.current)), CURRENT)
        except (UsageError, RoseKingError) as exc:
            raise SaveError(str(exc)) from None
        if not isinstance(record, dict):
            raise SaveError("not a game record")
        game = resume(record, settings)
        self._loaded = dumps(game.record()) + "\n"
        return game

    def set_aside(self, why: str) -> None:
        """Move the current save out of the way (kept, renamed), saying why; SaveError if it cannot be."""
        target = self._free(f"{SET_ASIDE}{_stamp()}", f"-{CURRENT}")
        self._move(self.current, target, "moved aside")
        self.set_aside_to = target
        self.log(f"roseking: {shown(str(self.current))}: {why}; moved to {target.name}, starting a new game")

    def finish(self, game: Game) -> Filed:
        """Retire `game` into the archive: a game that has ended, or one replaced before its end
        (its record's result is then `unfinished`); returns where it went.

        When this returns, the game is a whole, synced line of DATA/records.jsonl (never glued
        onto a torn last line: that is left as it is and the game starts a line of its own), and
        only then is the current save removed. The save found at start-up, unchanged, is not added
        again when it is among the archive's last lines (a kill came after the append, or the
        removal failed); a game played since always is, were it the same as one before it. When
        the archive cannot be written, the game is kept in DATA/unarchived-….json, a file no later
        game overwrites, the log says so, and `retry` (each tick of the service,
        and at start-up) archives it later; should not even that file be written (a full disk),
        the game is held in memory and retried the same way. Either way the current save's
        place is free for the next game. `--records` gets a copy of each archived game; a
        failure there is only logged. The record says when it was archived (`ended`, UTC), unless it
        says already (a finished save archived at the next start keeps the time it was first filed).
        """
        if game.ended_at is None:
            game.ended_at = ended_now()
        line = dumps(game.record()) + "\n"
        again, self._loaded = line == self._loaded, None
        saved = self.save(game)
        try:
            self._archive_line(line, again)
        except SaveError as exc:
            return self._wait(line, saved, str(exc))
        self._remove(self.current)
        return Filed(archived=True)

    def clear(self) -> None:
        """The game saved has left the table with nothing to keep (no move): its save goes."""
        self._remove(self.current)

    def waiting(self) -> list[Path]:
        """The games kept beside the save until the archive takes them, oldest first."""
        try:
            return sorted(p for p in self.directory.glob(f"{UNARCHIVED}*.json") if p.is_file())
        except OSError:
            return []

    def retry(self, now: float) -> None:
        """Archive the games that wait (in files, or held in memory): at once on the first call (at
        start-up), then every RETRY_SECONDS while any waits. A file that is not a game record is
        set aside with a log line; the others stay until the archive takes them. A file this run did not
        write, or could not remove once archived, is not added again when it is among the archive's
        last lines."""
        if self._retry_at is None:              # a game began to wait: try again a while from now
            self._retry_at = now + RETRY_SECONDS
        if now < self._retry_at:
            return
        for line in list(self._held):
            try:
                self._archive_line(line)
            except SaveError:
                try:
                    self._keep(line)            # room for a file again, if not yet for the archive
                except (SaveError, UsageError):
                    continue
            self._held.remove(line)
        for path in self.waiting():
            try:
                with open(path, "rb") as f:
                    data = f.read(MAX_BYTES + 1)
            except OSError as exc:
                self._say("archive", f"roseking: {shown(str(path))}: cannot read ({exc.strerror}); tried again later")
                continue
            try:
                line = _record_line(data, path.name)
            except (RoseKingError, UsageError) as exc:
                self._unreadable(path, str(exc))
                continue
            try:
                self._archive_line(line, path in self._came_back)
            except SaveError as exc:
                self._say("archive", f"roseking: finished games still wait in {UNARCHIVED}…: {exc}")
                break
            if not self._remove(path):
                self._came_back.add(path)
            self.log(f"roseking: {path.name}: archived")
        waiting = bool(self._held or self.waiting())
        self._retry_at = now + RETRY_SECONDS if waiting else math.inf
        if not waiting:
            self._told.pop("archive", None)

    def close(self) -> None:
        """The service stops: the waiting games are tried once more, and a game that not even memory
        can keep any longer is written into the log whole, the one place left to find it."""
        self.retry(math.inf)
        for line in self._held:
            self.log(f"roseking: a finished game could not be written anywhere; its record: {line.rstrip()}")

    # --- the steps -------------------------------------------------------------

    def _archive_line(self, line: str, again: bool = False) -> None:
        """Append `line` to the archive (SaveError if it cannot be), then copy it to `--records`; a line that
        came back (`again`) is not added where it is among the last lines already."""
        _append_line(self.archive, line, again)
        if self.extra_archive:
            try:
                _append_line(Path(self.extra_archive), line, again)
            except SaveError as exc:
                self.log(f"roseking: the finished game could not be copied to --records: {exc}")

    def _wait(self, line: str, saved: bool, why: str) -> Filed:
        """Keep a game the archive could not take, and say so: the current save, renamed when it holds
        the game, else a new file; in memory when neither can be."""
        try:
            if saved:
                kept = self._free(UNARCHIVED + _stamp(), ".json")
                self._move(self.current, kept, "kept for the archive")
            else:
                kept = self._keep(line)
                self._remove(self.current)      # an older save of this game: it must not be resumed
            filed, where = Filed(False, kept), f"kept in {kept.name}"
        except (SaveError, UsageError) as exc:
            self._held.append(line)
            filed, where = Filed(False), f"held in memory only ({exc})"
        if self._retry_at == math.inf:
            self._retry_at = None
        self._say("archive", f"roseking: the finished game could not be archived: {why}; {where}, "
                  f"tried again every {RETRY_SECONDS:g} s")
        return filed

    def _keep(self, line: str) -> Path:
        """Write `line` to a new DATA/unarchived-….json; UsageError if it cannot be."""
        path = self._free(UNARCHIVED + _stamp(), ".json")
        write_file(str(path), line.encode("utf-8"))
        return path

    def _unreadable(self, path: Path, why: str) -> None:
        """A waiting file that is not a game record: kept, renamed so that it is not tried again."""
        target = self._free(f"{SET_ASIDE}{_stamp()}", f"-{path.name}")
        try:
            self._move(path, target, "moved aside")
        except SaveError as exc:
            self._say("archive", f"roseking: {exc}")
            return
        self.log(f"roseking: {path.name}: {why}; moved to {target.name}")

    def _free(self, stem: str, suffix: str) -> Path:
        """DATA/STEM SUFFIX, or STEM-2 SUFFIX, … whichever does not exist yet."""
        target, n = self.directory / f"{stem}{suffix}", 1
        while os.path.lexists(target):
            n += 1
            target = self.directory / f"{stem}-{n}{suffix}"
        return target

    def _move(self, source: Path, target: Path, what: str) -> None:
        try:
            os.replace(source, target)
        except OSError as exc:
            raise SaveError(f"{shown(str(source))}: cannot be {what} ({exc.strerror})") from None
        fsync_folder(str(self.directory))

    def _remove(self, path: Path) -> bool:
        """Remove `path` if it is there; False if it cannot be, logged (the archive takes a game once, should
        it come back)."""
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:
            self.log(f"roseking: {shown(str(path))}: cannot be removed ({exc.strerror})")
            return False
        fsync_folder(str(self.directory))
        return True

    def _say(self, topic: str, line: str) -> None:
        """Log `line` unless it is the failure of `topic` (saving, archiving) last logged."""
        if self._told.get(topic) != line:
            self._told[topic] = line
            self.log(line)


def table_file(directory: Path, path: str) -> str | None:
    """What `path` is of the table's own data in `directory` (links followed): the data directory,
    the current save, the archive, a set-aside or waiting game; None if none of them."""
    target, folder = Path(os.path.realpath(path)), Path(os.path.realpath(directory))
    if target == folder:
        return "data directory"
    if target.parent != folder:
        return None
    if target.name == CURRENT:
        return "current save"
    if target.name == ARCHIVE:
        return "archive"
    if target.name.startswith((SET_ASIDE, UNARCHIVED)):
        return "kept game"
    return None


def _record_line(data: bytes, where: str) -> str:
    """The game record `data` (of file `where`) as an archive line; UsageError or RoseKingError if it is
    not a record that replays."""
    if len(data) > MAX_BYTES:
        raise UsageError(f"{where}: larger than {MAX_BYTES} bytes")
    record = loads(decode(data, where), where)
    replay(record, where)
    return dumps(record) + "\n"


def _stamp() -> str:
    return datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")


def _open_append(path: Path, create: bool = True) -> int:
    """A descriptor appending to `path`; SaveError naming it. A FIFO with no reader is an error, not a wait."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_CLOEXEC | (os.O_CREAT if create else 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        raise SaveError(f"{shown(str(path))}: cannot open for appending ({exc.strerror})") from None
    os.set_blocking(fd, True)               # O_NONBLOCK was for the open only: a line is written whole
    return fd


def _append_line(path: Path, line: str, again: bool = False) -> None:
    """Append `line` (ending in a newline) to `path` as a whole line of its own, unless it may have been
    appended `again` (its save or file came back) and is one of the last lines; SaveError naming the
    file if it cannot be.

    A torn last line (a write cut short by a power loss) is left as it is and `line` starts a new
    line after it. A write that fails part-way is cut back off a regular file, so a failure leaves
    the file as it was; a device or FIFO is written without being read.
    """
    data = line.encode("utf-8")
    tail = _tail(path)
    if again and tail is not None and b"\n" + data in b"\n" + tail:
        return
    if tail and not tail.endswith(b"\n"):
        data = b"\n" + data
    fd = _open_append(path)
    try:
        info = os.fstat(fd)
        regular = stat.S_ISREG(info.st_mode)
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            if written <= 0:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
            view = view[written:]
        if regular:
            os.fsync(fd)                    # a pipe or a terminal cannot be synced
    except OSError as exc:
        if regular:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, info.st_size)
        raise SaveError(f"{shown(str(path))}: cannot write ({exc.strerror})") from None
    finally:
        with contextlib.suppress(OSError):
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


def _tail(path: Path) -> bytes | None:
    """The last TAIL_BYTES of regular file `path` (empty if it does not exist); None for a device or a
    FIFO (read from it, `/dev/zero` never ends, a pipe waits). SaveError if it cannot be read: a line
    is never appended to a file whose end is unknown."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - TAIL_BYTES))
            return f.read(TAIL_BYTES)
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise SaveError(f"{shown(str(path))}: cannot read its end ({exc.strerror})") from None
