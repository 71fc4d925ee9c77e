"""`roseking report`: figures, an offline page and a CSV of what game records show."""
from __future__ import annotations

import argparse
import contextlib
import csv
import os
from types import ModuleType

from engine.record import read_records
from engine.report import CSV_COLUMNS, Report, facts
from firmware_py import executors
from firmware_py.atomic import atomic_writer
from firmware_py.errors import UsageError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("report", help="figures, an offline page and a CSV from game records")
    p.add_argument("records", nargs="+", metavar="RECORDS.jsonl",
                   help="game records (from simulate --records, tournament --records or the table)")
    p.add_argument("--out", metavar="DIR",
                   help="write DIR/index.html, every figure as PNG and SVG, and report.json (the numbers)")
    p.add_argument("--csv", metavar="FILE", help="write one row per game, for pandas, R or a spreadsheet")
    p.set_defaults(func=run)


def _page() -> ModuleType:
    """The page writer; it needs the `[report]` extra."""
    try:
        from firmware_py.report import page
    except ImportError as exc:
        raise UsageError(f"--out needs {exc.name}: pip install 'roseking[report]'") from None
    return page


def run(args: argparse.Namespace) -> int:
    if not args.out and not args.csv:
        raise UsageError("report: name --out DIR, --csv FILE or both")
    page = _page() if args.out else None
    if args.out and os.path.exists(args.out) and not os.path.isdir(args.out):
        raise UsageError(f"--out: {args.out} exists and is not a directory")
    report, sources = Report(), []
    with contextlib.ExitStack() as stack:
        rows = csv.DictWriter(stack.enter_context(atomic_writer(args.csv)), CSV_COLUMNS) if args.csv else None
        if rows:
            rows.writeheader()
        bar = stack.enter_context(executors.progress(None))
        for path in args.records:
            count = 0
            for line, record in read_records(path):
                game = facts(record, path, line)
                report.add(game)
                if rows:
                    rows.writerow(game.row())
                count += 1
                bar.update()
            sources.append((path, count))
    games = sum(n for _, n in sources)
    if page:
        written = page.write(args.out, report.to_dict(), sources)
        print(f"{args.out}: index.html and {len(written) - 1} more files, {games} games")
    if args.csv:
        print(f"{args.csv}: {games} rows")
    return 0
