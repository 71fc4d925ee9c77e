"""Standard output and error while a command runs: a write that fails is never a traceback and
never passes for success.

`guarded()` stands in for `sys.stdout` and `sys.stderr`:

- standard output is what a command delivers: a write that fails (a full disk, EIO, a closed
  descriptor) is a UsageError naming it, so the command stops with one `error:` line and
  status 2; a reader that goes away (`| head`) stays a BrokenPipeError.
- standard error carries warnings and the table's log: a write that fails is remembered, not
  raised, so the work goes on (the table keeps playing), and the command's status becomes 2.

A stream that failed is pointed at `/dev/null` (standard error once the command is over), so
that what is still buffered for it cannot fail again when the interpreter exits (that would
print a traceback and give status 120).
"""
from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from firmware_py.errors import UsageError
from firmware_py.inputs import shown

# What would end the `error:` line early, written as its escape (a key or value quoted from a file may hold it).
LINE_BREAKS = {ord(ch): repr(ch)[1:-1] for ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}
# An undecodable byte of an argument as `repr` quotes it (`'\udcff'`, argparse's `invalid choice: …`), not
# after an escaped backslash: shown as `\xff`, as `shown` shows it unquoted.
QUOTED_BYTE = re.compile(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])")


def printable(text: str) -> str:
    r"""`text` as one line for the user: undecodable bytes as `\xff` (as `shown` shows them, also where
    `repr` quoted them, as argparse does), line breaks escaped.

    >>> print(printable("invalid choice: '\\udcff' (given '\udcfe')\nmore"))
    invalid choice: '\xff' (given '\xfe')\nmore
    """
    return shown(QUOTED_BYTE.sub(r"\1\\x\2", text)).translate(LINE_BREAKS)


class Guarded:
    """A standard stream (None when the program was started with it closed) whose write errors
    are UsageErrors naming it (`strict`) or only remembered in `failed`."""

    def __init__(self, stream: TextIO | None, name: str, strict: bool) -> None:
        self._stream, self.name, self._strict = stream, name, strict
        self.failed: str | None = None
        """Why a write failed, once one has."""

    def require(self) -> None:
        """UsageError now if the stream was closed when the program started."""
        if self._stream is None:
            self._fail(f"{self.name} is closed")

    def _fail(self, why: str) -> None:
        self.failed = self.failed or why
        if self._strict:
            _silence(self._stream)
            raise UsageError(why)

    def _call(self, method: str, *args: Any) -> Any:
        if self._stream is None:
            return self._fail(f"{self.name} is closed")
        try:
            return getattr(self._stream, method)(*args)
        except BrokenPipeError:
            if self._strict:
                self.failed = f"{self.name}: the reader has gone"
                _silence(self._stream)
                raise
            return self._fail(f"{self.name}: cannot write (the reader has gone)")
        except (OSError, ValueError) as exc:      # ValueError: written after it was closed
            return self._fail(f"{self.name}: cannot write ({getattr(exc, 'strerror', None) or exc})")

    def write(self, text: str) -> int:
        self._call("write", text)
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:        # nothing was written to a closed stream: a write said so
            self._call("flush")

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence(stream: TextIO | None) -> None:
    """Point the descriptor under `stream` at /dev/null (nothing to do for one without a descriptor)."""
    try:
        fd = stream.fileno() if stream is not None else -1
    except (AttributeError, OSError, ValueError):
        return
    if fd < 0:
        return
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)


@contextlib.contextmanager
def guarded() -> Iterator[tuple[Guarded, Guarded]]:
    """(standard output, standard error) guarded as the module says, in place of `sys.stdout` and
    `sys.stderr` until the block ends."""
    saved = sys.stdout, sys.stderr
    out, err = Guarded(sys.stdout, "standard output", True), Guarded(sys.stderr, "standard error", False)
    sys.stdout, sys.stderr = out, err
    try:
        yield out, err
    finally:
        sys.stdout, sys.stderr = saved
        if err.failed:                      # said, if it could be, by now
            _silence(saved[1])


def say(line: str) -> None:
    """Write `line` to standard error as best it can (a failure is remembered by the guard)."""
    sys.stderr.write(line + "\n")          # one write: a line that fails leaves nothing behind
    sys.stderr.flush()


def skipped(why: str) -> None:
    """The one warning for a torn line of a records file (`why` names the file and line), skipped."""
    say(f"warning: {printable(why)}; a torn line, skipped")
