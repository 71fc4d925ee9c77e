"""`roseking apply`: the position after some moves; a draw takes the top of the pile."""
from engine.errors import IllegalMoveError, NotationError, RecordError
from engine.record import push_token
from firmware_py.positions import add_position_args, load_position, print_json


def register(sub):
    p = sub.add_parser("apply", help="print the position after the given moves")
    add_position_args(p)
    p.add_argument("moves", metavar="MOVE", nargs="+", help="moves in notation: NE2, H+W1, draw, pass")
    p.set_defaults(func=run)


def run(args):
    pos = load_position(args.position, args.seed, args.reshuffle)
    for n, token in enumerate(args.moves, 1):
        try:
            push_token(pos, token)
        except (NotationError, RecordError) as exc:
            raise IllegalMoveError(f"move {n} ({token}): {exc}") from None
    print_json(pos.to_json())
