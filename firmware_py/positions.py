"""Reading positions and games, and printing JSON, for the analysis commands."""
import argparse
import json
from collections.abc import Callable, Iterator
from typing import Any

from engine.jsonio import JSONInputError, loads
from engine.position import Position
from engine.record import Reading, read_records
from engine.variants import Reshuffle
from firmware_py.inputs import input_name, read_lines, read_text


def read_json(path: str) -> Any:
    """The JSON document in file `path`, or standard input for `-`, read with the input limits."""
    return loads(read_text(path), input_name(path))


def load_position(path: str, seed: int | None = None, reshuffle: str = Reshuffle.LAZY) -> Position:
    """The position in file `path` (or `-`), validated; `seed` orders an unknown pile (R11)."""
    return Position.from_json(read_json(path), seed, reshuffle)


def read_documents(path: str, torn: Callable[[str], object] | None = None) -> Iterator[tuple[int, Any]]:
    """(line number, document) for each JSON document of file `path` (or `-`): one document over any number
    of lines (a position, a save, a game record), or one per line (JSON Lines, as `records.jsonl`), read a
    line at a time; with `torn`, a torn line of JSON Lines is skipped as `read_records` skips it."""
    where = input_name(path)
    lines = read_lines(path)
    for n, line in lines:
        if not line.strip():
            continue
        try:
            first = loads(line, f"{where}:{n}")
        except JSONInputError as on_its_own:
            rest = [(n, line), *lines]
            try:
                whole = loads("\n".join(text for _, text in rest), where)
            except JSONInputError:
                if torn is None:
                    raise on_its_own from None
                yield from read_records(rest, where, torn)      # JSON Lines whose first line is torn
                return
            yield n, whole
            return
        yield n, first
        yield from read_records(lines, where, torn, Reading(seen=True))
        return


def print_json(obj: object) -> None:
    """Print a JSON document readably, one list of short strings per line."""
    print(json.dumps(obj, indent=2))


def add_position_args(parser: argparse.ArgumentParser,
                      seed_help: str = "seed for an unknown draw pile and for reshuffles",
                      position_help: str = "position JSON file, or - for standard input") -> None:
    """The POSITION argument with --seed and --reshuffle, shared by the analysis commands."""
    parser.add_argument("position", metavar="POSITION", help=position_help)
    parser.add_argument("--seed", type=int, help=seed_help)
    parser.add_argument("--reshuffle", choices=[r.value for r in Reshuffle], default=Reshuffle.LAZY,
                        help="when the discard pile is reshuffled (R11; default lazy)")
