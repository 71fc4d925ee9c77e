"""`roseking report`: figures, an offline page, a CSV and the numbers (JSON) of what game records show.

The records are cut into parts of consecutive lines, sized like simulation tasks (about a
second of replay each, `engine.simulate.Pace`); each part is replayed, tallied and written
as CSV rows where the workers are, and the parts' reports are merged in file order, which
gives the figures and the CSV of one pass in one process.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import csv
import dataclasses
import functools
import io
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import BinaryIO, NamedTuple

from engine.errors import RoseKingError
from engine.jsonio import JSONInputError, loads
from engine.record import Reading, read_records
from engine.simulate import Pace, ordered
from engine.tally import CSV_COLUMNS, Report, facts
from firmware_py import executors
from firmware_py.atomic import atomic_writer, check_output_directory
from firmware_py.commands import Subparsers
from firmware_py.errors import UsageError
from firmware_py.inputs import input_name, line_text, open_input, raw_lines, shown
from firmware_py.report import write_numbers
from firmware_py.streams import skipped

MAX_PART_BYTES = 4 << 20  # a part's lines travel with its task, through a Dask scheduler too
LINE_BYTES = 160  # about what a line costs a part besides its bytes (its tuple, number and offset)
PARTS = "report"  # the parts' kind for the Pace

RawLine = tuple[int, int, bytes | None]  # (line number, byte offset, bytes), as raw_lines gives them


def register(sub: Subparsers) -> None:
    p = sub.add_parser("report", help="figures, an offline page and a CSV from game records")
    p.add_argument("records", nargs="+", metavar="RECORDS.jsonl",
                   help="game records (from simulate --records, tournament --records or the table), - for "
                        "standard input")
    p.add_argument("--out", metavar="DIR",
                   help="write DIR/index.html, every figure as PNG and SVG, and report.json (the numbers)")
    p.add_argument("--csv", metavar="FILE", help="write one row per game, for pandas, R or a spreadsheet")
    p.add_argument("--json", metavar="FILE",
                   help="write the numbers alone (what DIR/report.json holds), for scripts: no plotting library needed")
    executors.add_arguments(p)
    p.set_defaults(func=run)


def _page() -> ModuleType:
    """The page writer; it needs the `[report]` extra."""
    try:
        from firmware_py.report import page
    except ImportError as exc:
        raise UsageError(f"--out needs {exc.name}: pip install 'roseking[report]'") from None
    return page


class Part(NamedTuple):
    """A part of file number `source` replayed: the Report of its games, their CSV rows, its
    `lines` (blank ones too), `games`, `size` in bytes, the `seconds` it took, what is wrong
    with each `torn` line it skipped, and the `error` of a bad line, which ended it."""

    source: int
    report: Report
    rows: str
    lines: int
    games: int
    size: int
    seconds: float
    torn: list[str]
    error: Exception | None


def tally(source: int, where: str, lines: list[RawLine], rows: bool, at: Reading, last: bool) -> Part:
    """Replay and tally `lines` of `where` (file number `source`), with their CSV rows when `rows`:
    a unit of work for the workers. The reading of torn lines goes on from `at`, and `last` says
    whether the part ends the file: the first bad line is the error, as in one pass."""
    t = time.perf_counter()
    report, out = Report(), io.StringIO()
    torn: list[str] = []
    writer = csv.DictWriter(out, CSV_COLUMNS) if rows else None
    games, error = 0, None
    try:
        for n, record in read_records(_texts(where, lines), where, torn.append, dataclasses.replace(at), last):
            game = facts(record, where, n)
            report.add(game)
            games += 1
            if writer:
                writer.writerow(game.row())
    except (RoseKingError, UsageError) as exc:
        error = exc
    size = sum(len(line or b"") for _, _, line in lines)
    return Part(source, report, out.getvalue(), len(lines), games, size, time.perf_counter() - t, torn, error)


def _texts(where: str, lines: list[RawLine]) -> Iterator[tuple[int, str]]:
    """(line number, text) of each of `lines`, as `read_records` takes them."""
    return ((n, line_text(where, n, offset, line)) for n, offset, line in lines)


def _is_record(where: str, line: RawLine) -> bool:
    """Whether `line` is a record to the reading of torn lines (a JSON object), which starts afresh after it."""
    n, offset, data = line
    if data is None or not data.rstrip().endswith(b"}"):     # no object: no need to parse it to know
        return False
    try:
        loads(line_text(where, n, offset, data), where)
    except (JSONInputError, UsageError):
        return False
    return True


def _after(where: str, lines: list[RawLine], at: Reading) -> Reading:
    """Where the reading of torn lines stands after `lines` read from `at`, found by reading them here (a
    part that had to be cut after a line that is no record). A bad line is the error of the part's task."""
    after = dataclasses.replace(at)
    with contextlib.suppress(JSONInputError, UsageError):
        collections.deque(read_records(_texts(where, lines), where, lambda why: None, after, last=False), 0)
    return after


def _size(stream: BinaryIO) -> int | None:
    """The size of a regular file, None for a pipe or a terminal."""
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def parts(paths: Sequence[str], streams: Sequence[BinaryIO], rows: bool, pace: Pace) -> Iterator[Callable[[], Part]]:
    """The parts of every file, in order, each sized by `pace` when it is cut (its lines left
    estimated from the bytes left) and about MAX_PART_BYTES at most. A part ends with a record,
    so that whether a line is torn (`read_records`) does not depend on where the parts are cut,
    but for a run of lines that are no record twice that long: the reading's state at the cut
    then goes with the next part."""
    for source, (path, stream) in enumerate(zip(paths, streams)):
        where, total = input_name(path), _size(stream)
        lines: list[RawLine] = []
        size = read = count = 0
        want = pace.size(PARTS, sys.maxsize)
        at = Reading()
        try:
            for raw in raw_lines(stream):
                lines.append(raw)
                size += len(raw[2] or b"")
                weight = size + LINE_BYTES * len(lines)
                if len(lines) >= want or weight >= MAX_PART_BYTES:
                    ends = _is_record(where, raw)
                    if not ends and weight < 2 * MAX_PART_BYTES:
                        continue
                    yield functools.partial(tally, source, where, lines, rows, at, False)
                    at = Reading(seen=True) if ends else _after(where, lines, at)
                    read, count = read + size, count + len(lines)
                    left = (total - read) * count // read if total and read else sys.maxsize
                    lines, size, want = [], 0, pace.size(PARTS, max(left, 1))
        except OSError as exc:
            raise UsageError(f"{where}: cannot read ({exc.strerror})") from None
        if lines or at.held is not None:
            yield functools.partial(tally, source, where, lines, rows, at, True)


def run(args: argparse.Namespace) -> int:
    if args.out is None and args.csv is None and args.json is None:
        raise UsageError("report: name --out DIR, --csv FILE, --json FILE or more of them")
    executors.check(args)
    page = _page() if args.out is not None else None
    if args.out is not None:  # checked before any game; made by page.write once every game has replayed
        check_output_directory(args.out)
    for option, path in (("--csv", args.csv), ("--json", args.json)):
        if path is not None and (read := next((p for p in args.records if _same_file(p, path)), None)):
            raise UsageError(f"{option}: {shown(path)} is a records file read ({shown(read)})")
    report, counts = Report(), [0] * len(args.records)
    with contextlib.ExitStack() as stack:
        streams = []
        for path in args.records:  # every file opened before any work
            streams.append(open_input(path))
            if path != "-":
                stack.callback(streams[-1].close)
        sizes = [_size(stream) for stream in streams]
        total = None if None in sizes else sum(s or 0 for s in sizes)
        out = stack.enter_context(atomic_writer(args.csv)) if args.csv is not None else None
        if out:
            csv.DictWriter(out, CSV_COLUMNS).writeheader()
        numbers = stack.enter_context(atomic_writer(args.json)) if args.json is not None else None
        bar = stack.enter_context(executors.progress(None))
        workers = stack.enter_context(executors.executor(args))
        pace = Pace(workers.slots)
        done = 0
        jobs = parts(args.records, streams, out is not None, pace)
        for part in workers.guard(ordered(jobs, workers.executor, pace.ahead, workers.watch)):
            pace.observe(PARTS, part.lines, part.seconds)
            for why in part.torn:
                skipped(why)
            if part.error is not None:
                raise part.error
            report.merge(part.report)
            counts[part.source] += part.games
            if out:
                out.write(part.rows)
            done += part.size
            if total and done:  # the games to come, from the bytes to come
                bar.total = max(bar.n + part.games, round((bar.n + part.games) * total / done))
            bar.update(part.games)
        workers.raise_if_gone(sum(counts), None, "game", "nothing was written")
        if numbers is not None:
            write_numbers(numbers, report.to_dict())
    games = sum(counts)
    sources = [(shown(path), n) for path, n in zip(args.records, counts)]
    if page:
        written = page.write(args.out, report.to_dict(), sources)
        print(f"{shown(args.out)}: index.html and {len(written) - 1} more files, {games} games")
    if args.csv is not None:
        print(f"{shown(args.csv)}: {games} rows")
    if args.json is not None:
        print(f"{shown(args.json)}: the numbers of {games} games")
    return 0


def _same_file(a: str, b: str) -> bool:
    try:
        return a != "-" and os.path.samefile(a, b)
    except OSError:
        return False
