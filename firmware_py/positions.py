"""Reading positions and printing JSON for the analysis commands."""
import argparse
import json
from typing import Any

from engine.jsonio import loads
from engine.position import Position
from engine.variants import Reshuffle
from firmware_py.inputs import input_name, read_text


def read_json(path: str) -> Any:
    """The JSON document in file `path`, or standard input for `-`, read with the input limits."""
    return loads(read_text(path), input_name(path))


def load_position(path: str, seed: int | None = None, reshuffle: str = Reshuffle.LAZY) -> Position:
    """The position in file `path` (or `-`), validated; `seed` orders an unknown pile (R11)."""
    return Position.from_json(read_json(path), seed, reshuffle)


def print_json(obj: object) -> None:
    """Print a JSON document readably, one list of short strings per line."""
    print(json.dumps(obj, indent=2))


def add_position_args(parser: argparse.ArgumentParser,
                      seed_help: str = "seed for an unknown draw pile and for reshuffles") -> None:
    """The POSITION argument with --seed and --reshuffle, shared by the analysis commands."""
    parser.add_argument("position", metavar="POSITION", help="position JSON file, or - for standard input")
    parser.add_argument("--seed", type=int, help=seed_help)
    parser.add_argument("--reshuffle", choices=[r.value for r in Reshuffle], default=Reshuffle.LAZY,
                        help="when the discard pile is reshuffled (R11; default lazy)")
