"""`roseking score`: both colours' scores, tie-break figures and regions, and the winner (R18, R19)."""
import argparse

from firmware_py.commands import Subparsers
from firmware_py.positions import add_position_args, load_position, print_json


def register(sub: Subparsers) -> None:
    p = sub.add_parser("score", help="score a position")
    add_position_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    print_json(load_position(args.position, args.seed, args.reshuffle).score().to_dict())
