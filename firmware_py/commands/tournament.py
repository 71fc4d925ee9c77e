"""`roseking tournament`: every pairing on paired deals; W/D/L, 95% Wilson intervals and Elo."""
import contextlib
import itertools
import json

from engine import simulate
from engine.players import NAMES
from engine.tournament import Standings, schedule
from engine.variants import VARIANT_NAMES
from firmware_py import executors
from firmware_py.atomic import atomic_writer
from firmware_py.errors import UsageError


def register(sub):
    p = sub.add_parser("tournament", help="round robin of computer players on paired deals")
    p.add_argument("--players", required=True, metavar="P,P[,…]",
                   help=f"two or more players: {', '.join(NAMES)}, or `name:WORK` with its own budget")
    p.add_argument("--games", type=int, default=100, metavar="N",
                   help="games per pairing, each deal twice with colours swapped (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="deal k is seeded from (S, k)")
    p.add_argument("--variant", default="classic", choices=VARIANT_NAMES)
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument("--records", metavar="PATH", help="write one game record per line (JSON Lines)")
    executors.add_arguments(p)
    p.set_defaults(func=run)


def run(args):
    players = args.players.split(",")
    if len(set(players)) != len(players) or len(players) < 2:
        raise UsageError(f"--players: name two or more different players, got {args.players!r}")
    if args.games < 2 or args.games % 2:
        raise UsageError(f"--games: must be an even number, at least 2 (each deal is played twice), "
                         f"got {args.games}")
    executors.check(args)
    recording = args.records is not None
    plan, todo = itertools.tee(schedule(args.variant, args.seed, players, args.games, args.workers, recording))
    standings = Standings(players)
    pairings = len(players) * (len(players) - 1) // 2
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(atomic_writer(args.records)) if recording else None  # checked before any game
        bar = stack.enter_context(executors.progress(pairings * args.games))
        pool = stack.enter_context(executors.executor(args))
        for (pair, _), games in zip(plan, simulate.run((t for _, t in todo), pool)):
            standings.add(pair, games)
            if out:
                for g in games:
                    out.write(f"{g.line}\n")
            bar.update(len(games))
    table = standings.to_dict()
    print(json.dumps(table, indent=2) if args.json else text(table))
    return 0


def text(table):
    """The standings as an aligned table, then one line per pairing."""
    width = max(len(r["player"]) for r in table["players"]) + 2
    head = f"{'player':<{width}}{'games':>6}{'W':>6}{'D':>5}{'L':>6}{'score':>8}  {'95% CI':<14}{'Elo':>6}"
    lines = [head]
    for r in table["players"]:
        lo, hi = r["ci95"]
        lines.append(f"{r['player']:<{width}}{r['games']:>6}{r['wins']:>6}{r['draws']:>5}{r['losses']:>6}"
                     f"{100 * r['score']:>7.1f}%  {100 * lo:4.1f}–{100 * hi:4.1f}%   {r['elo']:>+5d}")
    lines.append("")
    for r in table["pairings"]:
        lo, hi = r["ci95"]
        lines.append(f"{r['player']} vs {r['opponent']}: {r['wins']}-{r['draws']}-{r['losses']} "
                     f"({100 * r['score']:.1f}%, 95% CI {100 * lo:.1f}–{100 * hi:.1f}%)")
    return "\n".join(lines)
