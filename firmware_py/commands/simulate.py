"""`roseking simulate`: games between computer players, records and a summary."""
import argparse
import contextlib
import json

from engine import simulate
from engine.players import NAMES
from engine.summary import Summary
from engine.variants import VARIANT_NAMES
from firmware_py import executors
from firmware_py.atomic import atomic_writer
from firmware_py.commands import Subparsers
from firmware_py.errors import UsageError
from firmware_py.inputs import shown


def register(sub: Subparsers) -> None:
    p = sub.add_parser("simulate", help="play games between computer players and summarise them")
    p.add_argument("--games", type=int, default=100, metavar="N", help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="run seed; game k is seeded from (S, k)")
    p.add_argument("--first", type=int, default=0, metavar="K",
                   help="play games K, K+1, … of the run (default 0): a run played in parts gives the records "
                        "of the whole")
    p.add_argument("--variant", default="classic", choices=VARIANT_NAMES)
    p.add_argument("--players", default="random,random", metavar="P,P[,…]",
                   help=f"one player per seat (or per colour in teams): {', '.join(NAMES)}; "
                        "`hard:5000` sets a budget")
    p.add_argument("--records", metavar="PATH", help="write one game record per line (JSON Lines)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    executors.add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageError(f"--games: must be at least 1, got {args.games}")
    if args.first < 0:
        raise UsageError(f"--first: must be at least 0, got {args.first}")
    executors.check(args)
    lineup = simulate.seat_names(args.variant, args.players.split(","))
    recording = args.records is not None
    summary, done = Summary(), 0
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(atomic_writer(args.records)) if recording else None  # checked before any game
        bar = stack.enter_context(executors.progress(args.games))
        workers = stack.enter_context(executors.executor(args))
        pace = simulate.Pace(workers.slots)
        todo = simulate.tasks(args.variant, args.seed, [lineup], args.games, recording, pace=pace, fold=Summary.of,
                              first=args.first)
        for batch in workers.guard(simulate.run(todo, workers.executor, pace, workers.watch)):
            summary.merge(batch.folded)
            if out:
                out.write(batch.lines)
            done += batch.task.count
            bar.update(batch.task.count)
    rest = f"the same command with --first {args.first + done} --games {args.games - done} plays the rest"
    workers.raise_if_gone(done, args.games, "game", f"their records are in {shown(args.records)}, each whole; {rest} "
                          "(into another file)" if recording else rest)
    print(json.dumps(summary.to_dict(), indent=2) if args.json else summary.text())
    return 0
