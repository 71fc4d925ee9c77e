"""`roseking show`: the board, hands, heroes, supply and turn for a person at a terminal.

It shows a position, or a game (a record, the table's save, a game of a records file)
after its last move or after `--ply N`.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.notation import CARD_NAMES, FILES
from engine.position import Position
from engine.record import FORMAT, replay
from engine.serialize import board_rows
from firmware_py.commands import Subparsers
from firmware_py.errors import UsageError
from firmware_py.inputs import input_name
from firmware_py.positions import add_position_args, read_documents
from firmware_py.streams import skipped

# ANSI backgrounds for empty, red and white squares; the crown is drawn on top.
PAINT = {".": "\x1b[48;5;236m", "R": "\x1b[41m", "W": "\x1b[47m"}
RESET = "\x1b[0m"


def register(sub: Subparsers) -> None:
    p = sub.add_parser("show", help="draw a position, or a game after a move, in the terminal")
    add_position_args(p, position_help="a position JSON file, a game record, the table's save "
                      "(DATA/current-game.json) or a records file (DATA/records.jsonl); - for standard input")
    p.add_argument("--ply", type=int, metavar="N", help="of a game: the position after its first N moves "
                   "(default: after the last)")
    p.add_argument("--game", type=int, metavar="K", help="of a records file: its K-th game (default: the last)")
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


def chosen(args: argparse.Namespace) -> tuple[Position, str | None]:
    """The position to show and, for a game, a line saying which game and after which move."""
    where = input_name(args.position)
    other: tuple[int, Any] | None = None   # a document that is no game: a position, if it is the only one
    games, pick = 0, None                   # the games read, and the one to show (a records file may be long)
    for n, document in read_documents(args.position, skipped):
        if other is not None or (games and not _is_record(document)):
            raise UsageError(f"{where}:{other[0] if other else n}: not a game record ({FORMAT})")
        if not _is_record(document):
            other = (n, document)
            continue
        games += 1
        if args.game is None or games == args.game:
            pick = (n, document)
    if other is not None:
        if args.ply is not None or args.game is not None:
            raise UsageError(f"--{'ply' if args.ply is not None else 'game'}: {where} holds a position, not a game")
        return Position.from_json(other[1], args.seed, args.reshuffle), None
    if not games:
        raise UsageError(f"{where}:1: not a game record ({FORMAT})")
    k = games if args.game is None else args.game
    if pick is None:
        raise UsageError(f"--game: {where} holds {games} game{'s' * (games != 1)} (got {k})")
    line, record = pick
    pos = replay(record, f"{where}:{line}")
    moves = len(pos.stack)
    ply = moves if args.ply is None else args.ply
    if not 0 <= ply <= moves:
        raise UsageError(f"--ply: the game has {moves} moves, so 0 to {moves} (got {ply})")
    while len(pos.stack) > ply:
        pos.pop()
    which = f"game {k} of {games}, " if games > 1 else ""
    return pos, f"{which}after move {ply} of {moves}" + (f" ({_players(record)})" if _players(record) else "")


def _is_record(document: object) -> bool:
    return isinstance(document, dict) and document.get("format") == FORMAT


def _players(record: dict[str, Any]) -> str:
    players = record.get("players")
    return ", ".join(f"{seat} {who}" for seat, who in players.items()) if isinstance(players, dict) else ""


def run(args: argparse.Namespace) -> None:
    pos, heading = chosen(args)
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    print("\n".join(([heading] if heading else []) + render(pos, colour)))
