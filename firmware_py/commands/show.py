"""`roseking show`: the board, hands, heroes, supply and turn for a person at a terminal."""
import sys

from engine.notation import CARD_NAMES, FILES
from firmware_py.positions import add_position_args, load_position

# ANSI backgrounds for empty, red and white squares; the crown is drawn on top.
PAINT = {0: "\x1b[48;5;236m", 1: "\x1b[41m", 2: "\x1b[47m"}
RESET = "\x1b[0m"
STONE = ".RW"


def register(sub):
    p = sub.add_parser("show", help="draw a position in the terminal")
    add_position_args(p)
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour output (default: when standard output is a terminal)")
    p.set_defaults(func=run)


def render(pos, colour):
    """The picture of `pos` as text lines; `colour` uses ANSI colours."""
    lines = []
    for r in range(8, -1, -1):
        cells = []
        for f in range(9):
            sq = r * 9 + f
            stone = pos.board[sq]
            mark = f"({STONE[stone]})" if sq == pos.crown else f" {STONE[stone]} "
            if colour:
                ink = "\x1b[30;1m" if stone == 2 else "\x1b[33;1m"
                mark = f"{PAINT[stone]}{ink}{' ♛ ' if sq == pos.crown else '   '}{RESET}"
            cells.append(mark)
        lines.append(f"{r + 1} {''.join(cells)}")
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


def run(args):
    pos = load_position(args.position, args.seed, args.reshuffle)
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    print("\n".join(render(pos, colour)))
