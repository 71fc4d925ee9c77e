"""`roseking soak --sim --hours H`: the table service for H simulated hours, visited at random (`firmware_py.soak`).

It prints what happened (games, walk-aways, errors, memory, the worst press → frame latency)
and exits 1 if anything went wrong."""
import argparse
from pathlib import Path

from firmware_py.commands import Subparsers
from firmware_py.errors import UsageError


def register(sub: Subparsers) -> None:
    p = sub.add_parser("soak", help="run the table service for hours of simulated visitors on an accelerated clock")
    p.add_argument("--sim", action="store_true", required=True, help="on the simulated board (the only one, for now)")
    p.add_argument("--hours", type=float, required=True, metavar="H", help="simulated hours to run (at most 2000)")
    p.add_argument("--data-dir", metavar="DIR", help="keep the table's data (the archive of games) in DIR "
                   "(default: a temporary directory, removed at the end)")
    p.add_argument("--seed", type=int, default=1, metavar="N", help="the visitors' and the deals' seed (default 1)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from firmware_py.soak import check_hours, soak
    check_hours(args.hours)
    if not 0 <= args.seed < 2 ** 63:
        raise UsageError(f"--seed: must be between 0 and {2 ** 63 - 1} (got {args.seed})")
    if args.data_dir == "":
        raise UsageError("--data-dir: the directory name is empty")
    report = soak(args.hours, args.seed, Path(args.data_dir) if args.data_dir else None)
    for line in report.lines():
        print(line)
    return 1 if report.errors else 0
