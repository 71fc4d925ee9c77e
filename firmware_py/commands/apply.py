"""`roseking apply`: the position after some moves; a draw takes the top of the pile."""
import argparse

from engine.errors import IllegalMoveError, RecordError
from engine.position import Position
from engine.record import push_tokens
from firmware_py.commands import Subparsers
from firmware_py.positions import add_position_args, print_json, read_json


def register(sub: Subparsers) -> None:
    p = sub.add_parser("apply", help="print the position after the given moves")
    add_position_args(p)
    p.add_argument("moves", metavar="MOVE", nargs="+",
                   help="moves in notation: NE2, H+W1, draw, draw:SW3 (that card), pass")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    obj = read_json(args.position)
    pos = Position.from_json(obj, args.seed, args.reshuffle)
    try:
        push_tokens(pos, args.moves, pile_known="draw_pile" in obj)
    except RecordError as exc:
        raise IllegalMoveError(str(exc)) from None
    print_json(pos.to_json())
