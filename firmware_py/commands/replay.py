"""`roseking replay`: check every game of a record file move by move and print each result; a torn
line (not JSON, as a write cut short leaves it) is skipped with a warning."""
import argparse

from engine.record import read_records, replay
from firmware_py.commands import Subparsers
from firmware_py.inputs import input_name, read_lines
from firmware_py.streams import skipped


def register(sub: Subparsers) -> None:
    p = sub.add_parser("replay", help="check the games in a JSON Lines record file")
    p.add_argument("records", metavar="RECORDS.jsonl", help="game records, or - for standard input")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    where = input_name(args.records)
    lines = []  # printed only once every game has replayed, so an error leaves stdout empty
    for game, (line, record) in enumerate(read_records(read_lines(args.records), where, skipped), 1):
        pos = replay(record, where=f"game {game} (line {line})")
        score = pos.score()
        lines.append(f"game {game}: red {score.red.score}, white {score.white.score}, "
                     f"winner {score.winner if score.over else '-'} ({score.reason or 'unfinished'}), "
                     f"{len(pos.stack)} moves")
    print("\n".join(lines) if lines else "no games")
