"""`roseking agent`: a computer player behind a line protocol, for other programs.

Each line of standard input is one position (JSON, NOTATION.md; `draw_pile` may be left
out — the player never looks at its order). Each answer is one line on standard output,
flushed: the move in notation (`NE2`, `H+W1`, `draw`, `pass`), or `error: …` for a line
that is not a valid position or whose game is over. Each answer depends only on the line,
the level and `--seed`. The agent exits at end of input.
"""
import json
import sys

from engine.errors import RoseKingError
from engine.players import NAMES, make_player
from engine.position import Position


def register(sub):
    p = sub.add_parser("agent", help="answer positions on stdin with moves on stdout (one per line)")
    p.add_argument("--level", default="medium", metavar="LEVEL",
                   help=f"{', '.join(NAMES)}, or `name:WORK` (default medium)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the player's own randomness")
    p.set_defaults(func=run)


def answer(level, line, seed):
    """The reply to one input line: a move, or `error: …`. It depends on nothing but the
    line, the level and the seed, so asking twice gives the same answer."""
    try:
        return str(make_player(level, seed=seed).choose(Position.from_json(json.loads(line), seed=seed)))
    except json.JSONDecodeError as exc:
        return f"error: not JSON: {exc.msg} (column {exc.colno})"
    except RoseKingError as exc:
        return f"error: {exc}"


def run(args):
    make_player(args.level)  # an unknown level is a usage error before any input is read
    for line in sys.stdin:
        print(answer(args.level, line, args.seed), flush=True)
    return 0
