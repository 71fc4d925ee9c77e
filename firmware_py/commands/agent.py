"""`roseking agent`: a computer player behind a line protocol, for other programs.

Each line of standard input is one position (JSON, docs/NOTATION.md; `draw_pile` may be
left out — the player never looks at its order). Each answer is one line on standard
output, flushed: the move in notation (`NE2`, `H+W1`, `draw`, `pass`), or `error: …` for
a line that is not a valid position (not UTF-8, not JSON, beyond the input limits) or
whose game is over; the agent then reads on. Each answer depends only on the line, the
level and `--seed`. The agent exits at end of input.
"""
import argparse

from engine.errors import RoseKingError
from engine.jsonio import MAX_BYTES, loads
from engine.players import NAMES, make_player
from engine.position import Position
from firmware_py.commands import Subparsers
from firmware_py.errors import UsageError
from firmware_py.inputs import decode, raw_lines, standard_input


def register(sub: Subparsers) -> None:
    p = sub.add_parser("agent", help="answer positions on stdin with moves on stdout (one per line)")
    p.add_argument("--level", default="medium", metavar="LEVEL",
                   help=f"{', '.join(NAMES)}, or `name:WORK` (default medium)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the player's own randomness")
    p.set_defaults(func=run)


def answer(level: str, line: bytes | None, seed: int) -> str:
    """The reply to one input line (None: a line too long to read): a move, or `error: …`.
    It depends on nothing but the line, the level and the seed, so asking twice gives the
    same answer."""
    try:
        if line is None:
            raise UsageError(f"line longer than {MAX_BYTES} bytes")
        pos = Position.from_json(loads(decode(line, "line"), "line"), seed=seed)
        return str(make_player(level, seed=seed).choose(pos))
    except (RoseKingError, UsageError) as exc:
        return f"error: {str(exc).removeprefix('line: ')}"


def run(args: argparse.Namespace) -> int:
    make_player(args.level)  # an unknown level is a usage error before any input is read
    for _, _, line in raw_lines(standard_input()):
        print(answer(args.level, line, args.seed), flush=True)
    return 0
