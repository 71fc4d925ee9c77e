"""`roseking report`: figures, an offline page and a CSV of what game records show."""
from __future__ import annotations

import argparse
import collections
import contextlib
import csv
import itertools
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, Future
from types import ModuleType

from engine.report import CSV_COLUMNS, Facts, Report, facts_of
from firmware_py import executors
from firmware_py.commands import Subparsers
from firmware_py.atomic import atomic_writer, check_output_directory
from firmware_py.errors import UsageError
from firmware_py.inputs import read_lines, shown
from firmware_py.streams import skipped

CHUNK = 500  # lines per unit of work


def register(sub: Subparsers) -> None:
    p = sub.add_parser("report", help="figures, an offline page and a CSV from game records")
    p.add_argument("records", nargs="+", metavar="RECORDS.jsonl",
                   help="game records (from simulate --records, tournament --records or the table), - for "
                        "standard input")
    p.add_argument("--out", metavar="DIR",
                   help="write DIR/index.html, every figure as PNG and SVG, and report.json (the numbers)")
    p.add_argument("--csv", metavar="FILE", help="write one row per game, for pandas, R or a spreadsheet")
    executors.add_arguments(p)
    p.set_defaults(func=run)


def _page() -> ModuleType:
    """The page writer; it needs the `[report]` extra."""
    try:
        from firmware_py.report import page
    except ImportError as exc:
        raise UsageError(f"--out needs {exc.name}: pip install 'roseking[report]'") from None
    return page


def replayed(path: str, pool: Executor | None, window: int) -> Iterator[Facts]:
    """The facts of every game in `path`, in file order, a torn line skipped with a warning; at most
    `window` chunks of records in flight."""
    where = "standard input" if path == "-" else shown(path)
    lines = read_lines(path)
    chunks: Iterable[list[tuple[int, str]]] = iter(lambda: list(itertools.islice(lines, CHUNK)), [])
    done: Iterable[tuple[list[Facts], list[str]]]
    if pool is None:
        done = (facts_of(where, chunk) for chunk in chunks)
    else:
        done = _in_order(pool, where, chunks, window)
    for games, torn in done:
        for why in torn:
            skipped(why)
        yield from games


def _in_order(pool: Executor, where: str, chunks: Iterable[list[tuple[int, str]]],
              window: int) -> Iterator[tuple[list[Facts], list[str]]]:
    pending: collections.deque[Future[tuple[list[Facts], list[str]]]] = collections.deque()
    for chunk in chunks:
        pending.append(pool.submit(facts_of, where, chunk))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def run(args: argparse.Namespace) -> int:
    if args.out is None and args.csv is None:
        raise UsageError("report: name --out DIR, --csv FILE or both")
    executors.check(args)
    page = _page() if args.out is not None else None
    if args.out is not None:  # checked before any game; made by page.write once every game has replayed
        check_output_directory(args.out)
    if args.csv is not None and (read := next((p for p in args.records if _same_file(p, args.csv)), None)):
        raise UsageError(f"--csv: {shown(args.csv)} is a records file read ({shown(read)})")
    report, sources = Report(), []
    with contextlib.ExitStack() as stack:
        rows = csv.DictWriter(stack.enter_context(atomic_writer(args.csv)), CSV_COLUMNS) if args.csv is not None \
            else None
        if rows:
            rows.writeheader()
        pool = stack.enter_context(executors.executor(args))
        bar = stack.enter_context(executors.progress(None))
        for path in args.records:
            count = 0
            for game in replayed(path, pool, 2 * args.workers):
                report.add(game)
                if rows:
                    rows.writerow(game.row())
                count += 1
                bar.update()
            sources.append((shown(path), count))
    games = sum(n for _, n in sources)
    if page:
        written = page.write(args.out, report.to_dict(), sources)
        print(f"{shown(args.out)}: index.html and {len(written) - 1} more files, {games} games")
    if args.csv is not None:
        print(f"{shown(args.csv)}: {games} rows")
    return 0


def _same_file(a: str, b: str) -> bool:
    try:
        return a != "-" and os.path.samefile(a, b)
    except OSError:
        return False
