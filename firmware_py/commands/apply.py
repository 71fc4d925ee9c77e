"""`roseking apply`: the position after some moves; a draw takes the top of the pile."""
from engine.errors import IllegalMoveError, RecordError
from engine.record import push_tokens
from firmware_py.positions import add_position_args, load_position, print_json


def register(sub):
    p = sub.add_parser("apply", help="print the position after the given moves")
    add_position_args(p)
    p.add_argument("moves", metavar="MOVE", nargs="+", help="moves in notation: NE2, H+W1, draw, pass")
    p.set_defaults(func=run)


def run(args):
    pos = load_position(args.position, args.seed, args.reshuffle)
    try:
        push_tokens(pos, args.moves)
    except RecordError as exc:
        raise IllegalMoveError(str(exc)) from None
    print_json(pos.to_json())
