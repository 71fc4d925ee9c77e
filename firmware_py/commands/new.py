"""`roseking new`: a freshly dealt starting position (R7), as JSON with its full draw pile."""
import argparse
import random

from engine.position import Position
from engine.variants import VARIANT_NAMES, First
from firmware_py.commands import Subparsers
from firmware_py.positions import print_json


def register(sub: Subparsers) -> None:
    p = sub.add_parser("new", help="print a starting position")
    p.add_argument("--variant", choices=VARIANT_NAMES, default="classic")
    p.add_argument("--seed", type=int, help="the deal's seed (default: a random one)")
    p.add_argument("--first", choices=[f.value for f in First], default=First.RED, help="who starts (R8; default red)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> None:
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    print_json(Position.new(args.variant, seed, first=args.first).to_json())
