"""`roseking show`: the board, hands, heroes, supply and turn for a person at a terminal."""
from __future__ import annotations

import argparse
import sys

from engine.notation import CARD_NAMES, FILES
from engine.position import Position
from engine.serialize import board_rows
from firmware_py.commands import Subparsers
from firmware_py.positions import add_position_args, load_position

# ANSI backgrounds for empty, red and white squares; the crown is drawn on top.
PAINT = {".": "\x1b[48;5;236m", "R": "\x1b[41m", "W": "\x1b[47m"}
RESET = "\x1b[0m"


def register(sub: Subparsers) -> None:
    p = sub.add_parser("show", help="draw a position in the terminal")
    add_position_args(p)
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour output (default: when standard output is a terminal)")
    p.set_defaults(func=run)


def render(pos: Position, colour: bool) -> list[str]:
    """The picture of `pos` as text lines; `colour` uses ANSI colours."""
    lines = []
    for i, row in enumerate(board_rows(pos.board)):
        cells = []
        for f, stone in enumerate(row):
            crown = (8 - i) * 9 + f == pos.crown
            mark = f"({stone})" if crown else f" {stone} "
            if colour:
                ink = "\x1b[30;1m" if stone == "W" else "\x1b[33;1m"
                mark = f"{PAINT[stone]}{ink}{' ♛ ' if crown else '   '}{RESET}"
            cells.append(mark)
        lines.append(f"{9 - i} {''.join(cells)}")
    lines.append("   " + "  ".join(FILES))
    lines.append("")
    for i, seat in enumerate(pos.variant.seats):
        hand = " ".join(CARD_NAMES[c] for c in pos.hands[i]) or "-"
        arrow = "▶" if i == pos.to_move else " "
        lines.append(f"{arrow} {seat:<7} heroes {pos.heroes[i]}  cards {hand}")
    score = pos.score()
    lines.append(f"stones left {pos.supply}   score red {score.red.score}, white {score.white.score}")
    if score.over:
        lines.append(f"game over ({score.reason}): " + ("a draw" if score.winner == "draw" else f"{score.winner} wins"))
    else:
        lines.append(f"{pos.seat} to move")
    return lines


def run(args: argparse.Namespace) -> None:
    pos = load_position(args.position, args.seed, args.reshuffle)
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    print("\n".join(render(pos, colour)))
