"""Game records (`roseking-game/1`, one JSON object per line, docs/NOTATION.md) and their replay.

A record replays without a random number generator: every draw names its card.
"""
from __future__ import annotations

import datetime
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import NotationError, PositionError, RecordError
from engine.jsonio import JSONInputError, brief, label, loads
from engine.moves import DRAW, Move, drawn_card
from engine.notation import CARD_NAMES
from engine.position import Position
from engine.serialize import to_json
from engine.variants import Reshuffle

FORMAT = "roseking-game/1"
FIELDS = ("format", "variant", "seed", "players", "names", "start", "moves", "result", "reshuffle", "ended")
ENDED = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z", re.ASCII)
MAX_NAME = 32
"""The longest name of a person at a seat (`names`), in characters."""


def make_record(start: Position, end: Position, players: Mapping[str, str], seed: int | None = None,
                names: Mapping[str, str] | None = None, ended: str | None = None) -> dict[str, Any]:
    """The record of the game played from position `start` to `end` (whose stack holds the moves).

    `players` maps each seat to the name of who played it; `names`, when given, seats to the
    names of the people who sat there (a club's members); `ended`, when given, when the game
    ended or was left (`ended_now`).
    """
    record = {"format": FORMAT, "variant": start.variant.name, "seed": seed,
              "players": dict(players), "start": to_json(start), "moves": end.history(),
              "result": result(end)}
    if names:
        record["names"] = dict(names)
    if start.reshuffle != Reshuffle.LAZY:
        record["reshuffle"] = start.reshuffle
    if ended is not None:
        record["ended"] = ended
    return record


def ended_now(now: float | None = None) -> str:
    """The `ended` field for the Unix time `now` (default: now): UTC, to the second, ISO 8601.

    >>> ended_now(0)
    '1970-01-01T00:00:00Z'
    """
    moment = datetime.datetime.now(datetime.UTC) if now is None else datetime.datetime.fromtimestamp(now, datetime.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def ended_at(value: object) -> float:
    """The Unix time of an `ended` field; RecordError if it is not one (`YYYY-MM-DDTHH:MM:SSZ`, a real moment).

    >>> ended_at("2026-12-01T14:03:27Z")
    1796133807.0
    >>> ended_at("2026-02-30T00:00:00Z")
    Traceback (most recent call last):
    ...
    engine.errors.RecordError: ended: '2026-02-30T00:00:00Z' is not a UTC time as YYYY-MM-DDTHH:MM:SSZ
    """
    fault = RecordError(f"ended: {brief(value)} is not a UTC time as YYYY-MM-DDTHH:MM:SSZ")
    if not isinstance(value, str) or not ENDED.match(value):
        raise fault
    try:
        return datetime.datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.UTC).timestamp()
    except ValueError:
        raise fault from None


def name_fault(name: object) -> str | None:
    """What is wrong with `name` as a person's name at a seat, or None: a string of 1 to MAX_NAME
    characters, no control or format characters (a bidi override could disguise it), no line
    breaks, no blanks at its ends.

    >>> name_fault("Ann"), name_fault(" Bo"), name_fault("A\u202eB")
    (None, 'starts or ends with a blank', 'holds the control character U+202E')
    """
    if not isinstance(name, str):
        return f"must be a string (got {brief(name)})"
    if not name or len(name) > MAX_NAME:
        return f"must be 1 to {MAX_NAME} characters (got {len(name)})"
    for ch in name:
        if unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp"):
            return f"holds the control character U+{ord(ch):04X}"
    if name != name.strip():
        return "starts or ends with a blank"
    return None


def check_names(names: object, seats: Sequence[str]) -> dict[str, str]:
    """The `names` field checked against the game's `seats`: an object of seat to name, each a
    valid name (`name_fault`), no name at two seats; RecordError naming the seat at fault.

    >>> check_names({"red": "Ann", "white": "Ann"}, ("red", "white"))
    Traceback (most recent call last):
    ...
    engine.errors.RecordError: names.white: 'Ann' sits at red already
    """
    if not isinstance(names, dict):
        raise RecordError(f"names: must be an object of seat to name (got {brief(names)})")
    seen: dict[str, str] = {}
    for seat, name in names.items():
        if seat not in seats:
            raise RecordError(f"names: {brief(seat)} is not a seat of this game ({', '.join(seats)})")
        fault = name_fault(name)
        if fault is not None:
            raise RecordError(f"names.{seat}: {fault}")
        if name in seen:
            raise RecordError(f"names.{seat}: {brief(name)} sits at {seen[name]} already")
        seen[name] = seat
    return dict(names)


def result(pos: Position) -> dict[str, Any]:
    """The `result` field: scores, winner and reason (`unfinished` while the game goes on)."""
    score = pos.score()
    return {"scores": {"red": score.red.score, "white": score.white.score},
            "winner": score.winner if score.over else None,
            "reason": score.reason or "unfinished"}


def dumps(record: Mapping[str, Any]) -> str:
    """One record as one line of JSON (no newline)."""
    return json.dumps(record, separators=(", ", ": "))


def replay(record: object, where: str = "record") -> Position:
    """Replay a record move by move; returns the final Position.

    RecordError names `where`, the move number (from 1) and the reason on the first fault,
    and also when the stored result disagrees with the replay.
    """
    if not isinstance(record, dict):
        raise RecordError(f"{where}: must be a JSON object")
    unknown = [k for k in record if k not in FIELDS]
    if unknown:
        raise RecordError(f"{where}: {brief(unknown[0])}: unknown field")  # as positions refuse them
    if record.get("format") != FORMAT:
        raise RecordError(f"{where}: format: expected {FORMAT!r}, got {brief(record.get('format'))}")
    start = record.get("start")
    if not isinstance(start, dict) or "draw_pile" not in start:
        raise RecordError(f"{where}: start: must be a position with its full draw_pile")
    reshuffle = record.get("reshuffle", Reshuffle.LAZY)
    if reshuffle not in tuple(Reshuffle):
        raise RecordError(f"{where}: reshuffle: {brief(reshuffle)} is not one of {', '.join(Reshuffle)} (R11)")
    try:
        pos = Position.from_json(start, reshuffle=reshuffle)
    except PositionError as exc:
        raise RecordError(f"{where}: start.{exc}") from None
    if record.get("variant", pos.variant.name) != pos.variant.name:
        raise RecordError(f"{where}: variant: {brief(record['variant'])} but start is {pos.variant.name!r}")
    try:
        if "names" in record:
            check_names(record["names"], pos.variant.seats)
        if "ended" in record:
            ended_at(record["ended"])
    except RecordError as exc:
        raise RecordError(f"{where}: {exc}") from None
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError(f"{where}: moves: must be a list")
    try:
        push_tokens(pos, moves)
    except RecordError as exc:
        raise RecordError(f"{where}, {exc}") from None
    if "result" in record and record["result"] != result(pos):
        raise RecordError(f"{where}: result: recorded {brief(record['result'], 200)}, "
                          f"the moves give {json.dumps(result(pos))}")
    return pos


def push_tokens(pos: Position, tokens: Sequence[object], pile_known: bool = True) -> None:
    """Make the moves written `tokens`; RecordError names the move number (from 1) and why not.

    A `draw:SW3` must take the top card while the pile's order is known; once the
    discard pile has been reshuffled (R11), or when `pile_known` is false (a position
    without `draw_pile`), its order is not, and any card in it may come.
    """
    known = pile_known
    for n, token in enumerate(tokens, 1):
        try:
            move = Move.parse(token)
            reason = pos.why_illegal(move)
            if reason:
                raise RecordError(reason)
            card = None
            if move == DRAW:
                known = known and bool(pos.pile)  # R11: lazy reshuffle at this draw
                named = drawn_card(str(token))
                if named is not None:
                    card = _drawn(pos, named, known)
                if pos.reshuffle == Reshuffle.EAGER and len(pos.pile) == 1:
                    known = False  # R11 option: eager reshuffle after this draw
            pos.push(move, card)
        except (NotationError, RecordError) as exc:
            raise RecordError(f"move {n} ({label(token)}): {exc}") from None


def _drawn(pos: Position, card: int, known: bool) -> int:
    """The card a `draw:` token names, checked against the draw pile."""
    pile = pos.pile or pos.discard  # an empty pile is the discard pile, reshuffled (R11)
    if card not in pile:
        raise RecordError(f"{CARD_NAMES[card]} is not in the draw pile")
    if known and card != pile[-1]:
        raise RecordError(f"{CARD_NAMES[card]} is not the top card of the draw pile ({CARD_NAMES[pile[-1]]} is)")
    return card


@dataclass
class Reading:
    """Where a reading of JSON Lines stands (`read_records`), handed from one part of a file to the next:
    whether a record has been read, and a line that is no record, waiting for what follows it."""

    seen: bool = False
    held: JSONInputError | None = None


def read_records(lines: Iterable[tuple[int, str]], where: str = "records",
                 torn: Callable[[str], object] | None = None, at: Reading | None = None,
                 last: bool = True) -> Iterator[tuple[int, Any]]:
    """Yield (line number, record) for each non-blank line of `lines`, (line number, text) pairs
    of a JSON Lines file; JSONInputError names `where` and the line.

    With `torn`, a torn line — what a write cut short (a power loss) leaves of a record: not
    JSON, and either the start of a record (`{"`), the last line, or followed by a record, as
    the next append starts a line of its own — is skipped instead, and what is wrong with it
    handed to `torn`. Two lines in a row that are no record are not a torn line but an error,
    and so is a file with no record: it starts with a record, or with one torn line and a record.

    A file read in consecutive parts gives what it gives read whole when `at`, updated as lines
    are read, goes from each part to the next, and `last` is false but for the last part.

    >>> [r for _, r in read_records([(1, '{"a": 1}'), (2, ' '), (3, '[]')])]
    [{'a': 1}, []]
    >>> [r for _, r in read_records([(1, 'cut'), (2, '{"a": 2}'), (3, '{"a": 3')], "f.jsonl", torn=print)]
    f.jsonl:1: not JSON: Expecting value (line 1, column 1)
    f.jsonl:3: not JSON: Expecting ',' delimiter (line 1, column 8)
    [{'a': 2}]
    >>> list(read_records([(1, '{"a": 1')], "f.jsonl", torn=print))
    Traceback (most recent call last):
    ...
    engine.jsonio.JSONInputError: f.jsonl:1: not JSON: Expecting ',' delimiter (line 1, column 8)
    """
    at = Reading() if at is None else at
    for n, line in lines:
        if not line.strip():
            continue
        try:
            record = loads(line, f"{where}:{n}")
        except JSONInputError as exc:
            if torn is None:
                raise
            if at.seen and line.lstrip("\0").startswith('{"'):
                torn(str(exc))
            elif at.held is not None:
                raise at.held from None
            else:
                at.held = exc
            continue
        if at.held is not None and torn is not None:
            torn(str(at.held))
            at.held = None
        at.seen = True
        yield n, record
    if last and at.held is not None and torn is not None:
        if not at.seen:
            raise at.held from None
        torn(str(at.held))
        at.held = None
