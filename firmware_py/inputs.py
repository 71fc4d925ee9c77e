"""Reading what a user hands the program: a file or `-` (standard input), size-capped, strict UTF-8.

Every file the commands read comes through here, so `/dev/zero`, a binary file or a
line of gigabytes ends in one `error:` line naming the file (and the byte) at fault.
"""
import re
import sys
from collections.abc import Iterator
from typing import BinaryIO

from engine.jsonio import MAX_BYTES  # the one input cap: a position, a configuration, an input script, a line
from firmware_py.errors import UsageError


_UNDECODED = re.compile("[\udc80-\udcff]")   # how Python carries a byte it could not decode (surrogateescape)


def shown(text: str) -> str:
    """`text` (a file name, a command-line argument, a message quoting them) as it may be printed:
    each byte that could not be decoded appears as `\\xff`.

    >>> shown("caf\\udcff.json")               # as Python reads the bytes b"caf\\xff.json" of a name
    'caf\\\\xff.json'
    """
    return _UNDECODED.sub(lambda m: f"\\x{ord(m.group()) - 0xdc00:02x}", text)


def input_name(path: str) -> str:
    """How messages name the input `path`: `standard input` for `-`, else the path as `shown`."""
    return "standard input" if path == "-" else shown(path)


def decode(data: bytes, where: str, offset: int = 0) -> str:
    """`data` as UTF-8 text; UsageError naming `where` and the byte (from `offset`) otherwise.

    >>> decode(b"ok\\xff", "a.json")
    Traceback (most recent call last):
    ...
    firmware_py.errors.UsageError: a.json: not UTF-8 text (byte 2)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{where}: not UTF-8 text (byte {offset + exc.start})") from None


def standard_input() -> BinaryIO:
    """The bytes of standard input; UsageError when the program was started with it closed."""
    if sys.stdin is None:
        raise UsageError("standard input is closed")
    return sys.stdin.buffer


def open_input(path: str) -> BinaryIO:
    """The bytes of file `path`, or of standard input for `-`; UsageError when it cannot be read."""
    if path == "-":
        return standard_input()
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UsageError(f"{shown(path)}: cannot read ({exc.strerror})") from None


def read_text(path: str, limit: int = MAX_BYTES) -> str:
    """The whole text of file `path` (or standard input for `-`), at most `limit` bytes."""
    where = input_name(path)
    stream = open_input(path)
    try:
        data = stream.read(limit + 1)
    except OSError as exc:
        raise UsageError(f"{where}: cannot read ({exc.strerror})") from None
    finally:
        if path != "-":
            stream.close()
    if len(data) > limit:
        raise UsageError(f"{where}: larger than {limit} bytes")
    return decode(data, where)


def raw_lines(stream: BinaryIO, limit: int = MAX_BYTES) -> Iterator[tuple[int, int, bytes | None]]:
    """Yield (line number, byte offset, line bytes) for each line of `stream`; the bytes are
    None for a line longer than `limit`, whose rest is skipped (unread into memory) when
    the next line is asked for."""
    number = offset = 0
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        number += 1
        start = offset
        offset += len(line)
        if len(line) > limit and not line.endswith(b"\n"):
            yield number, start, None
            while line and not line.endswith(b"\n"):
                line = stream.readline(limit)
                offset += len(line)
        else:
            yield number, start, line


def line_text(where: str, number: int, offset: int, line: bytes | None, limit: int = MAX_BYTES) -> str:
    """Line `number` of `where` (starting at byte `offset`) as raw_lines gives it, as text; UsageError
    names the file, line and byte of a line that is too long (None) or not UTF-8."""
    if line is None:
        raise UsageError(f"{where}:{number}: line longer than {limit} bytes (byte {offset})")
    return decode(line, f"{where}:{number}", offset)


def read_lines(path: str, limit: int = MAX_BYTES) -> Iterator[tuple[int, str]]:
    """Yield (line number, text) for each line of file `path` (or `-`); UsageError names the
    file, line and byte of a line that is too long or not UTF-8."""
    where = input_name(path)
    stream = open_input(path)
    try:
        for number, offset, line in raw_lines(stream, limit):
            yield number, line_text(where, number, offset, line, limit)
    except OSError as exc:
        raise UsageError(f"{where}: cannot read ({exc.strerror})") from None
    finally:
        if path != "-":
            stream.close()
