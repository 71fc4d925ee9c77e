"""Writing output files: whole or not at all over a regular file, straight into a device or FIFO.

Every file the program writes (`--records`, `--frames`, `--snapshot` pictures, the
table's saves) goes through `atomic_writer`:

- a new file, or an existing regular file: written to `.NAME.PID.XXXXXXXX.roseking-partial`
  beside it, flushed to disk and renamed over it when the block ends without error, so a
  reader sees the old file or the whole new one. An existing file keeps its permissions
  (and owner, where allowed); a new one gets them from the umask. On an error, Ctrl-C or
  SIGTERM the partial file is removed; one left by a killed run (SIGKILL, power loss) is
  removed by the next run that writes the same target.
- a symbolic link: the same, for the file it points to (the link stays).
- a character or block device or a FIFO (`/dev/null`, `/dev/stdout`, a pipe): written
  directly, never replaced.
- a directory, an empty name or a missing folder: refused before any work is done.

A write error (a full disk) is a UsageError naming the file.
"""
from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import stat
import threading
from collections.abc import Iterator
from types import FrameType, TracebackType
from typing import IO, Any

from firmware_py.errors import UsageError
from firmware_py.inputs import shown

PARTIAL = ".roseking-partial"


class Output:
    """A file being written whose write errors are UsageErrors naming it (but a pipe whose reader
    has gone stays a BrokenPipeError, as for standard output); as a context manager it closes
    the file, and an error on closing counts only if none came before."""

    def __init__(self, file: IO[Any], name: str) -> None:
        self._file, self._name = file, name

    def _failed(self, exc: OSError) -> Exception:
        if isinstance(exc, BrokenPipeError):
            return exc
        return UsageError(f"{self._name}: cannot write ({exc.strerror})")

    def write(self, data: Any) -> int:
        try:
            return self._file.write(data)
        except OSError as exc:
            raise self._failed(exc) from None

    def flush(self, sync: bool = False) -> None:
        """Hand what is buffered to the system; with `sync`, to the disk too."""
        try:
            self._file.flush()
            if sync:
                os.fsync(self._file.fileno())
        except OSError as exc:
            raise self._failed(exc) from None

    def __enter__(self) -> Output:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None:
        try:
            self._file.close()  # closes the descriptor even when its last flush fails
        except OSError as error:
            if exc is None:
                raise self._failed(error) from None


def check_output(path: str) -> os.stat_result | None:
    """What stands at `path` (links followed, `/dev/stdout`'s to a pipe too), None if nothing yet;
    UsageError for a name that cannot be written: empty, a directory, or in a folder that does not exist."""
    if not path:
        raise UsageError("an output file name is empty")
    try:
        found = os.stat(path)
    except OSError:
        found = None
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise UsageError(f"{shown(path)}: is a directory")
    folder = os.path.dirname(os.path.realpath(path) if os.path.islink(path) else path)  # a dangling link's
    if found is None and not os.path.isdir(folder or "."):
        raise UsageError(f"{shown(path)}: no such directory {shown(folder or '.')}")
    return found


def check_output_directory(path: str) -> bool:
    """True if the directory `path` is there, False if `output_directory` can make it; UsageError if
    it cannot be one: an empty name, something else of that name, a missing parent."""
    if not path:
        raise UsageError("an output directory name is empty")
    if os.path.isdir(path):
        return True
    if os.path.lexists(path):
        raise UsageError(f"{shown(path)}: not a directory")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise UsageError(f"{shown(path)}: cannot create (no such directory {shown(parent)})")
    return False


def output_directory(path: str) -> str:
    """Make the directory `path` if it is missing (not its parents); UsageError if it cannot be one."""
    if check_output_directory(path):
        return path
    try:
        os.mkdir(path)
    except OSError as exc:
        raise UsageError(f"{shown(path)}: cannot create ({exc.strerror})") from None
    return path


# .NAME.PID.XXXXXXXX.roseking-partial, as `_replacing` names them; a pid of at most 9 digits fits a C long.
_LEFTOVER = re.compile(rf"\.(.+)\.([1-9][0-9]{{0,8}})\.[0-9a-f]{{8}}{re.escape(PARTIAL)}", re.DOTALL)
_leftovers: dict[str, dict[str, list[str]]] = {}
"""folder -> target name -> its partial files whose writer was gone when this process first wrote there."""


def _clear_leftovers(target: str) -> None:
    """Remove partial files of `target` whose writing process is gone. Each folder is read once
    a process, so writing many files into one (`--snapshot`) stays linear."""
    folder, name = os.path.split(target)
    if folder not in _leftovers:
        found: dict[str, list[str]] = {}
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                match = _LEFTOVER.fullmatch(entry.name)
                if match and not alive(int(match.group(2))):
                    found.setdefault(match.group(1), []).append(entry.path)
        _leftovers[folder] = found
    for path in _leftovers[folder].pop(name, []):
        with contextlib.suppress(OSError):
            os.unlink(path)


def alive(pid: int) -> bool:
    """Whether process `pid` is there (another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _terminated(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def ours(*signals: signal.Signals) -> dict[signal.Signals, Any]:
    """Of `signals`, those this program may handle, each with its handler now (to put back after): those
    at their default, or at the unwinding of `_sigterm_unwinds`. A signal the parent chose to ignore
    (`nohup`, a script's `&` job) stays ignored, and one someone else handles (asyncio) stays theirs;
    none outside the main thread, which alone can set a handler."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    now = {s: signal.getsignal(s) for s in signals}
    return {s: h for s, h in now.items() if h in (signal.SIG_DFL, signal.default_int_handler, _terminated)}


@contextlib.contextmanager
def _sigterm_unwinds(*signals: signal.Signals) -> Iterator[None]:
    """While the block runs, SIGTERM (or each of `signals`, those that are `ours`) raises SystemExit so
    that `finally` clauses run."""
    mine = ours(*signals or (signal.SIGTERM,))
    for s in mine:
        signal.signal(s, _terminated)
    try:
        yield
    finally:
        for s, handler in mine.items():
            signal.signal(s, handler)


def fsync_folder(folder: str) -> None:
    """Make the renames and removals in `folder` durable (as far as its file system allows)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _open_fd(path: str, flags: int, name: str) -> int:
    try:
        return os.open(path, flags | os.O_WRONLY | os.O_CLOEXEC, 0o666)  # the umask applies to a new file
    except OSError as exc:
        raise UsageError(f"{name}: cannot write ({exc.strerror})") from None


def _keep_mode(fd: int, old: os.stat_result, name: str) -> None:
    """Give the file open at `fd` the permissions (and owner, where allowed) of the file it replaces."""
    _set_mode(fd, stat.S_IMODE(old.st_mode), name)
    with contextlib.suppress(OSError):
        os.fchown(fd, old.st_uid, old.st_gid)


def _set_mode(fd: int, permissions: int, name: str) -> None:
    try:
        os.fchmod(fd, permissions)
    except OSError as exc:
        raise UsageError(f"{name}: cannot write ({exc.strerror})") from None


@contextlib.contextmanager
def _direct(target: str, mode: str, encoding: str | None, name: str) -> Iterator[Output]:
    """Write into a device or FIFO as it is."""
    with Output(open(_open_fd(target, 0, name), mode, encoding=encoding), name) as output:
        yield output
        output.flush()


@contextlib.contextmanager
def _replacing(target: str, old: os.stat_result | None, mode: str, encoding: str | None,
               name: str, sync: bool = True, permissions: int | None = None) -> Iterator[Output]:
    """Write a partial file beside `target` and rename it over `target` at the end (synced to the disk,
    file and rename, unless not `sync`); with `permissions`, the file has them whatever the umask."""
    _clear_leftovers(target)
    folder = os.path.dirname(target)
    tmp = os.path.join(folder, f".{os.path.basename(target)}.{os.getpid()}.{secrets.token_hex(4)}{PARTIAL}")
    try:  # from the moment the partial file may exist: a SIGTERM just after its creation removes it too
        fd = _open_fd(tmp, os.O_CREAT | os.O_EXCL, name)  # the name holds our pid: no one else's file
        with Output(open(fd, mode, encoding=encoding), name) as output:
            if permissions is not None:
                _set_mode(fd, permissions, name)
            elif old is not None:
                _keep_mode(fd, old, name)
            yield output
            output.flush(sync=sync)
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise UsageError(f"{name}: cannot write ({exc.strerror})") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if sync:
        fsync_folder(folder)


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], binary: bool = False, sync: bool = True,
                  permissions: int | None = None) -> Iterator[Output]:
    """A file to write (text, or bytes with `binary`) that takes the place of `path` only when
    the block ends without error; see the module's docstring for devices, FIFOs and links. Without
    `sync` it is not flushed to the disk (a file that only says how things are now); with
    `permissions` a regular file gets them, whatever the umask and the file it replaces."""
    path = os.fspath(path)
    name = shown(path)
    old = check_output(path)
    mode, encoding = ("wb", None) if binary else ("w", "utf-8")
    with _sigterm_unwinds():
        if old is not None and not stat.S_ISREG(old.st_mode):
            opened = _direct(path, mode, encoding, name)
        else:
            opened = _replacing(os.path.realpath(path), old, mode, encoding, name, sync, permissions)
        with opened as output:
            yield output


def write_file(path: str, data: bytes, sync: bool = True, permissions: int | None = None) -> None:
    """Write `data` to `path` whole, as `atomic_writer` does."""
    with atomic_writer(path, binary=True, sync=sync, permissions=permissions) as f:
        f.write(data)
