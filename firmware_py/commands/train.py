"""`roseking train`: learn the evaluation from self-play (engine.learn.train), on the workers of
`--workers` or `--cluster`; write the weights, the learning curve and its figure."""
import argparse
import contextlib
import json
import os
from typing import Any

from engine.learn.model import Model
from engine.learn.train import TARGET_EVERY, Settings, total_games, train
from engine.players import check_names
from firmware_py import executors
from firmware_py.atomic import atomic_writer, check_output_directory, output_directory, write_file
from firmware_py.commands import Subparsers
from firmware_py.errors import UsageError
from firmware_py.inputs import shown

LIMITS = {"generations": (1, 1000), "games": (1, 10**7), "nodes": (1, 10**8), "explore": (0, 200),
          "eval_games": (0, 10**6), "eval_nodes": (1, 10**8), "target_nodes": (0, 10**8)}


def register(sub: Subparsers) -> None:
    d = Settings()
    p = sub.add_parser("train", help="learn the searching players' evaluation from self-play")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="write weights.json, curve.json and curve.png here (made if missing)")
    p.add_argument("--seed", type=int, default=d.seed, metavar="S", help="every game is seeded from S")
    p.add_argument("--generations", type=int, default=d.generations, metavar="G",
                   help=f"rounds of self-play and fitting (default {d.generations})")
    p.add_argument("--games", type=int, default=d.games, metavar="N",
                   help=f"self-play games a generation (default {d.games})")
    p.add_argument("--nodes", type=int, default=d.nodes, metavar="K",
                   help=f"nodes a self-play move (default {d.nodes})")
    p.add_argument("--explore", type=int, default=d.explore, metavar="PLIES",
                   help=f"each of a self-play game's first PLIES plies random, one chance in two (default {d.explore})")
    p.add_argument("--references", default=",".join(d.references), metavar="P,P[,…]",
                   help="fixed players each generation is judged against (default %(default)s)")
    p.add_argument("--eval-games", type=int, default=d.eval_games, metavar="N",
                   help=f"games against each reference a generation, on paired deals (default {d.eval_games}; "
                        "0: no judging)")
    p.add_argument("--eval-nodes", type=int, default=d.eval_nodes, metavar="K",
                   help=f"nodes a move of the judged player (default {d.eval_nodes}, hard's)")
    p.add_argument("--target-nodes", type=int, default=d.target_nodes, metavar="K",
                   help=f"fit what a search of K nodes concludes from one position in {TARGET_EVERY} rather than "
                        "the game's final margin from every position (default 0: the final margin)")
    executors.add_arguments(p)
    p.set_defaults(func=run)


def settings(args: argparse.Namespace) -> Settings:
    """The run's Settings from the options; UsageError naming the option out of range."""
    for name, (low, high) in LIMITS.items():
        value = getattr(args, name)
        if not low <= value <= high:
            raise UsageError(f"--{name.replace('_', '-')}: must be from {low} to {high:,}, got {value}")
    references = tuple(r for r in args.references.split(",") if r)
    if args.eval_games and not references:
        raise UsageError("--references: name at least one player, or give --eval-games 0")
    check_names(references)
    return Settings(args.seed, args.generations, args.games, args.nodes, args.explore, references,
                    args.eval_games, args.eval_nodes, args.target_nodes)


def run(args: argparse.Namespace) -> int:
    run_settings = settings(args)
    executors.check(args)
    check_output_directory(args.out)
    try:
        from firmware_py.report.learning import curve_figure
    except ImportError as exc:
        raise UsageError(f"train needs {exc.name} for its figure: pip install 'roseking[report]'") from None
    points: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        bar = stack.enter_context(executors.progress(total_games(run_settings)))
        workers = stack.enter_context(executors.executor(args))
        steps = train(run_settings, workers.executor, bar.update, workers.watch, 3 * workers.slots)
        for point in workers.guard(steps):
            points.append(point)
            print(line(point), flush=True)
    workers.raise_if_gone(len(points), run_settings.generations + 1, "generation",
                          "nothing was written: the same command plays them again")
    output_directory(args.out)
    model = Model(points[-1]["weights"], {"seed": args.seed, "generations": args.generations, "games": args.games,
                                          "nodes": args.nodes, "explore": args.explore,
                                          "target_nodes": args.target_nodes, "positions": points[-1]["positions"]})
    with atomic_writer(os.path.join(args.out, "weights.json")) as f:
        f.write(json.dumps(model.to_json(), indent=1) + "\n")
    with atomic_writer(os.path.join(args.out, "curve.json")) as f:
        f.write(json.dumps({"settings": vars(run_settings) | {"references": list(run_settings.references)},
                            "curve": [{k: v for k, v in p.items() if k != "weights"} for p in points]}, indent=1)
                + "\n")
    buf = curve_figure(points)
    write_file(os.path.join(args.out, "curve.png"), buf)
    print(f"wrote {shown(os.path.join(args.out, 'weights.json'))}, curve.json and curve.png")
    return 0


def line(point: dict[str, Any]) -> str:
    """One generation in words: games, positions, held-out error and each reference's score.

    >>> line({"generation": 1, "games": 10, "positions": 800, "error": {"all-features": 21.5},
    ...       "strength": {"ab7": {"games": 4, "score": 0.75, "ci95": [0.3, 0.95]}}})
    'generation 1: 10 self-play games, 800 positions; held-out error 21.5; ab7 75.0% (30.0–95.0%, 4 games)'
    """
    words = [f"generation {point['generation']}: {point['games']:,} self-play games, {point['positions']:,} positions"]
    if point["error"]:
        words.append(f"held-out error {point['error']['all-features']:.1f}")
    for ref, s in point["strength"].items():
        lo, hi = s["ci95"]
        words.append(f"{ref} {100 * s['score']:.1f}% ({100 * lo:.1f}–{100 * hi:.1f}%, {s['games']} games)")
    return "; ".join(words)
