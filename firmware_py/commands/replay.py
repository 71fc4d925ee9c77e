"""`roseking replay`: check every game of a record file (or a save) move by move and print each result;
a torn line (not JSON, as a write cut short leaves it) is skipped with a warning."""
import argparse

from engine.record import replay
from firmware_py.commands import Subparsers
from firmware_py.positions import read_documents
from firmware_py.streams import skipped


def register(sub: Subparsers) -> None:
    p = sub.add_parser("replay", help="check the games of a record file or a save")
    p.add_argument("records", metavar="RECORDS", help="game records (JSON Lines, e.g. DATA/records.jsonl), one "
                   "record or the table's save (DATA/current-game.json), or - for standard input")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    lines = []  # printed only once every game has replayed, so an error leaves stdout empty
    for game, (line, record) in enumerate(read_documents(args.records, skipped), 1):
        pos = replay(record, where=f"game {game} (line {line})")
        score = pos.score()
        lines.append(f"game {game}: red {score.red.score}, white {score.white.score}, "
                     f"winner {score.winner if score.over else '-'} ({score.reason or 'unfinished'}), "
                     f"{len(pos.stack)} moves")
    print("\n".join(lines) if lines else "no games")
