"""Positions as JSON (`roseking-position/1`, docs/NOTATION.md), validated field by field.

This module reads and writes the fields; `Position.from_json` and `Position.to_json`
are the doors (the position module uses this one, never the other way round).

>>> from engine.position import Position
>>> pos = Position.new(seed=1)
>>> Position.from_json(to_json(pos)) == pos
True
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import NotationError, PositionError
from engine.jsonio import brief, label
from engine.notation import CARD_NAMES, parse_card, parse_square, square_name
from engine.variants import STONES, VARIANTS, Variant

if TYPE_CHECKING:
    from engine.position import Position

FORMAT = "roseking-position/1"
FIELDS = ("format", "variant", "board", "crown", "to_move", "hands", "heroes", "draw_pile", "discard")
STONE_TEXT = ".RW"  # an empty square, a red stone, a white stone
STONE_CHARS = {ch: stone for stone, ch in enumerate(STONE_TEXT)}


def board_rows(board: Sequence[int]) -> list[str]:
    """The board as 9 strings of `.`, `R` and `W`, rank 9 first, file a first (as Red sees it)."""
    return ["".join(STONE_TEXT[board[r * 9 + f]] for f in range(9)) for r in range(8, -1, -1)]


def to_json(pos: Position, pile: bool = True) -> dict[str, Any]:
    """The position as a JSON-ready dict; `pile=False` leaves out the draw pile's order."""
    seats = pos.variant.seats
    out: dict[str, Any] = {
        "format": FORMAT,
        "variant": pos.variant.name,
        "board": board_rows(pos.board),
        "crown": square_name(pos.crown),
        "to_move": seats[pos.to_move],
        "hands": {s: [CARD_NAMES[c] for c in pos.hands[i]] for i, s in enumerate(seats)},
        "heroes": {s: pos.heroes[i] for i, s in enumerate(seats)},
    }
    if pile:
        out["draw_pile"] = [CARD_NAMES[c] for c in reversed(pos.pile)]
    out["discard"] = [CARD_NAMES[c] for c in pos.discard]
    return out


@dataclass
class Fields:
    """A position as read from JSON, every field checked; `pile` is None when the JSON leaves it out.

    `pile` and `discard` list their cards with the top of the pile last.
    """

    variant: Variant
    board: list[int] = dataclasses.field(default_factory=lambda: [0] * 81)
    bits: list[int] = dataclasses.field(default_factory=lambda: [0, 0])
    stones: int = 0
    crown: int = 0
    to_move: int = 0
    hands: list[list[int]] = dataclasses.field(default_factory=list)
    heroes: list[int] = dataclasses.field(default_factory=list)
    pile: list[int] | None = None
    discard: list[int] = dataclasses.field(default_factory=list)


def read(obj: object) -> Fields:
    """The fields a JSON object describes; PositionError names the field at fault."""
    if not isinstance(obj, dict):
        raise PositionError(f"a position must be a JSON object, not {type(obj).__name__}")
    unknown = [k for k in obj if k not in FIELDS]
    if unknown:
        raise PositionError(f"{label(unknown[0])}: unknown field")
    if obj.get("format") != FORMAT:
        raise PositionError(f"format: expected {FORMAT!r}, got {brief(obj.get('format'))}")
    name = obj.get("variant", "classic")
    if not isinstance(name, str) or name not in VARIANTS:
        raise PositionError(f"variant: unknown variant {brief(name)} (choose classic or teams)")
    v = VARIANTS[name]
    pos = Fields(v)
    _board(pos, _need(obj, "board"))
    # In play the crown always stands on the last stone placed or flipped (R6, R10, R12), but a
    # position may be composed by hand: the crown may stand on any square, R10 measures from it.
    pos.crown = _square(_need(obj, "crown"), "crown")
    to_move = _need(obj, "to_move")
    if to_move not in v.seats:
        raise PositionError(f"to_move: unknown seat {brief(to_move)} (seats: {', '.join(v.seats)})")
    pos.to_move = v.seats.index(to_move)

    seen: dict[int, str] = {}
    hands = _seat_map(obj, "hands", v)
    heroes = _seat_map(obj, "heroes", v)
    for seat in v.seats:
        hand = _cards(hands[seat], f"hands.{seat}", seen)
        if len(hand) > v.hand_limit:
            raise PositionError(f"hands.{seat}: {len(hand)} cards, at most {v.hand_limit}")
        pos.hands.append(hand)
        n = heroes[seat]
        if type(n) is not int or not 0 <= n <= v.heroes:
            raise PositionError(f"heroes.{seat}: must be a whole number 0–{v.heroes}, got {brief(n)}")
        pos.heroes.append(n)
    pos.discard = _cards(obj.get("discard", []), "discard", seen)
    if "draw_pile" in obj:
        pos.pile = _cards(obj["draw_pile"], "draw_pile", seen)[::-1]
        missing = [CARD_NAMES[c] for c in range(24) if c not in seen]
        if missing:
            raise PositionError(f"draw_pile: cards in no pile or hand: {', '.join(missing)}")
    return pos


def _need(obj: dict[str, Any], key: str) -> Any:
    if key not in obj:
        raise PositionError(f"{key}: missing")
    return obj[key]


def _board(pos: Fields, rows: object) -> None:
    if not isinstance(rows, list) or len(rows) != 9:
        raise PositionError("board: must be a list of 9 strings, rank 9 first")
    for i, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != 9:
            raise PositionError(f"board[{i}]: must be a string of 9 characters, got {brief(row)}")
        rank = 8 - i
        for f, ch in enumerate(row):
            stone = STONE_CHARS.get(ch.upper())
            if stone is None:
                raise PositionError(f"board[{i}][{f}]: unknown stone {brief(ch)} (use . R W)")
            if stone:
                sq = rank * 9 + f
                pos.board[sq] = stone
                pos.bits[stone - 1] |= 1 << sq
                pos.stones += 1
    if pos.stones > STONES:
        raise PositionError(f"board: {pos.stones} stones, at most {STONES} (R4)")


def _square(text: object, field: str) -> int:
    try:
        return parse_square(text)
    except NotationError:
        raise PositionError(f"{field}: unknown square {brief(text)}") from None


def _seat_map(obj: dict[str, Any], key: str, v: Variant) -> dict[str, Any]:
    value = _need(obj, key)
    if not isinstance(value, dict):
        raise PositionError(f"{key}: must be an object keyed by seat ({', '.join(v.seats)})")
    for seat in value:
        if seat not in v.seats:
            raise PositionError(f"{key}.{label(seat)}: unknown seat (seats: {', '.join(v.seats)})")
    for seat in v.seats:
        if seat not in value:
            raise PositionError(f"{key}.{seat}: missing")
    return value


def _cards(names: object, field: str, seen: dict[int, str]) -> list[int]:
    """Parse a list of card names, each at most once across all piles (`seen`: card -> field)."""
    if not isinstance(names, list):
        raise PositionError(f"{field}: must be a list of cards")
    out = []
    for i, text in enumerate(names):
        where = f"{field}[{i}]"
        try:
            card = parse_card(text)
        except NotationError:
            raise PositionError(f"{where}: unknown card {brief(text)}") from None
        if card in seen:
            raise PositionError(f"{where}: card {CARD_NAMES[card]} appears twice (also at {seen[card]})")
        seen[card] = where
        out.append(card)
    return out
