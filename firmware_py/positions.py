"""Reading positions and games, and printing JSON, for the analysis commands."""
import argparse
import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

from engine.jsonio import MAX_BYTES, JSONInputError, loads
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
    """(line number, document) for each JSON document of file `path` (or `-`): one document over many
    lines (a position, a save, a game record) within the input limit, or one per line (JSON Lines, as
    `records.jsonl`) read a line at a time, in bounded memory; with `torn`, a torn line of JSON Lines is
    skipped as `read_records` skips it."""
    where = input_name(path)
    lines = read_lines(path)
    first = next(((n, line) for n, line in lines if line.strip()), None)
    if first is None:
        return
    try:
        document = loads(first[1], f"{where}:{first[0]}")
    except JSONInputError:
        ahead, size = [first], len(first[1].encode())       # one document over many lines, if it ends in time
        for n, line in lines:
            ahead.append((n, line))
            size += len(line.encode())
            if size > MAX_BYTES:
                break
        else:
            try:
                document = loads("".join(line for _, line in ahead), where)
            except JSONInputError:
                pass
            else:
                yield first[0], document
                return
        yield from read_records(itertools.chain(ahead, lines), where, torn)
        return
    yield first[0], document
    yield from read_records(lines, where, torn, Reading(seen=True))


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
