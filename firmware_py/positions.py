"""Reading positions and printing JSON for the analysis commands."""
import json
import sys

from engine.position import Position
from engine.variants import Reshuffle
from firmware_py.errors import UsageError


def read_json(path):
    """The JSON document in file `path`, or standard input for `-`."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None


def load_position(path, seed=None, reshuffle="lazy"):
    """The position in file `path` (or `-`), validated; `seed` orders an unknown pile (R11)."""
    return Position.from_json(read_json(path), seed, reshuffle)


def print_json(obj):
    """Print a JSON document readably, one list of short strings per line."""
    print(json.dumps(obj, indent=2))


def add_position_args(parser, seed_help="seed for an unknown draw pile and for reshuffles"):
    """The POSITION argument with --seed and --reshuffle, shared by the analysis commands."""
    parser.add_argument("position", metavar="POSITION", help="position JSON file, or - for standard input")
    parser.add_argument("--seed", type=int, help=seed_help)
    parser.add_argument("--reshuffle", choices=tuple(Reshuffle), default=Reshuffle.LAZY,
                        help="when the discard pile is reshuffled (R11; default lazy)")
