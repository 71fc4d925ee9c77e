"""Fault injection for the tests: the writes this process makes to chosen files fail as a full disk, a
failing card, a refused permission, a directory in the way or a write cut short would make them fail.

`Faults` replaces, for the files a `target` predicate picks, what touches the disk: `os.open` for
writing, `os.write`, `os.fsync`, `os.replace`, `os.unlink` and `os.mkdir`, and the writes and flushes
of the text and binary files `firmware_py.atomic` opens on a descriptor. `Stream` is a standard
output or error whose writes fail the same way. Every operation is counted by (op, path), so a first
run can list the writes a command makes and later runs make each of them fail in turn.
"""
import errno
import io
import os

KINDS = {"ENOSPC": errno.ENOSPC, "EIO": errno.EIO, "EACCES": errno.EACCES, "EISDIR": errno.EISDIR,
         "torn": errno.EIO}
"""What a write may meet; `torn` writes half of what it was given, then fails with EIO."""
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def failure(kind):
    code = KINDS[kind]
    return OSError(code, os.strerror(code))


class Faults:
    """Counts the writing operations on files `target(path)` picks and fails those `fail(op, path, n)` says
    (n: how many such operations on such paths came before), with `kind`."""

    def __init__(self, monkeypatch, target, kind="ENOSPC", fail=lambda op, path, n: False):
        import firmware_py.atomic as atomic
        self.target, self.kind, self.fail = target, kind, fail
        self.seen: list[tuple[str, str]] = []           # every (op, path) on a target, in order
        self.fired: list[tuple[str, str]] = []
        self._paths: dict[int, str] = {}                # descriptor -> path, for those opened to write
        self._real = {name: getattr(os, name) for name in ("open", "write", "fsync", "replace", "unlink", "mkdir")}
        for name in self._real:
            monkeypatch.setattr(os, name, getattr(self, f"_{name}"))
        monkeypatch.setattr(atomic, "open", self._file, raising=False)

    def _check(self, op, path):
        """Raise the fault if this operation is to fail; True if it is a torn write to make."""
        path = os.fsdecode(path)
        if not self.target(path):
            return False
        n = sum(1 for o, p in self.seen if o == op)
        self.seen.append((op, path))
        if not self.fail(op, path, n):
            return False
        self.fired.append((op, path))
        if self.kind == "torn" and op == "write":
            return True
        raise failure(self.kind)

    def _open(self, path, flags, mode=0o777, *, dir_fd=None):
        if flags & WRITE_FLAGS:
            self._check("open", path)
        fd = self._real["open"](path, flags, mode, dir_fd=dir_fd)
        self._paths.pop(fd, None)                       # the number of a descriptor closed since
        if flags & WRITE_FLAGS:
            self._paths[fd] = os.fsdecode(path)
        return fd

    def _write(self, fd, data):
        if fd in self._paths and self._check("write", self._paths[fd]):
            self._real["write"](fd, bytes(data)[:len(data) // 2])
            raise failure(self.kind)
        return self._real["write"](fd, data)

    def _fsync(self, fd):
        if fd in self._paths:
            self._check("sync", self._paths[fd])
        return self._real["fsync"](fd)

    def _replace(self, source, target, **kwargs):
        self._check("rename", target if self.target(os.fsdecode(target)) else source)
        return self._real["replace"](source, target, **kwargs)

    def _unlink(self, path, **kwargs):
        self._check("remove", path)
        return self._real["unlink"](path, **kwargs)

    def _mkdir(self, path, mode=0o777, **kwargs):
        self._check("mkdir", path)
        return self._real["mkdir"](path, mode, **kwargs)

    def _file(self, file, mode="r", *args, **kwargs):
        opened = open(file, mode, *args, **kwargs)
        path = self._paths.get(file) if isinstance(file, int) else None
        return opened if path is None or "w" not in mode else _File(opened, path, self)


class _File:
    """A file opened for writing whose writes and flushes go through `Faults`."""

    def __init__(self, file, path, faults):
        self._file, self._path, self._faults = file, path, faults

    def write(self, data):
        if self._faults._check("write", self._path):
            self._file.write(data[:len(data) // 2])
            self._file.flush()
            raise failure(self._faults.kind)
        return self._file.write(data)

    def flush(self):
        if self._faults._check("write", self._path):
            raise failure(self._faults.kind)            # what was buffered is cut short too
        return self._file.flush()

    def __getattr__(self, name):
        return getattr(self._file, name)


class Stream(io.StringIO):
    """A standard output or error whose `fail(n)`-th write or flush (n from 0) fails with `kind`; what was
    written before stays readable with `getvalue()`."""

    def __init__(self, kind="ENOSPC", fail=lambda n: False):
        super().__init__()
        self.kind, self.fail, self.calls, self.fired = kind, fail, 0, False

    def _check(self):
        n, self.calls = self.calls, self.calls + 1
        if self.fail(n):
            self.fired = True
            return True
        return False

    def write(self, text):
        if self._check():
            if self.kind == "torn":
                super().write(text[:len(text) // 2])
            raise failure(self.kind)
        return super().write(text)

    def flush(self):
        if self._check():
            raise failure(self.kind)
        super().flush()
