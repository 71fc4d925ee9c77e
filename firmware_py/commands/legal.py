"""`roseking legal`: the legal moves of a position, one per line (nothing when it is over)."""
import argparse

from firmware_py.commands import Subparsers
from firmware_py.positions import add_position_args, load_position


def register(sub: Subparsers) -> None:
    p = sub.add_parser("legal", help="list the legal moves")
    add_position_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    for move in load_position(args.position, args.seed, args.reshuffle).legal_moves():
        print(move)
