"""Names of the table's controls and display slots: `red.card3`, `white.draw`, `menu`, `red.hero`.

>>> seat_controls("red")[:2]
('red.card1', 'red.card2')
>>> split_name("white.draw"), split_name("menu")
(('white', 'draw'), (None, 'menu'))
"""
import re
from collections.abc import Collection, Mapping

CARDS = 5
CONTROLS = tuple(f"card{i}" for i in range(1, CARDS + 1)) + ("hero", "draw")
MENU_BUTTON = "menu"
"""The table-wide MENU button (it belongs to no seat)."""
STAFF_KEY = "staff"
"""The staff's key switch (`[staff] key_pin`), where a table has one: down while the key is turned."""
SEAT_PATTERN = re.compile(r"[a-z][a-z0-9_]*\Z")


def controls(cards: int = CARDS) -> tuple[str, ...]:
    """A seat panel's buttons: one under each of its `cards` cards (three in teams, R21), then HERO and DRAW.

    >>> controls(3)
    ('card1', 'card2', 'card3', 'hero', 'draw')
    """
    return CONTROLS[:cards] + CONTROLS[CARDS:]


def seat_controls(seat: str, cards: int = CARDS) -> tuple[str, ...]:
    """The button names of one seat with `cards` cards, in the order of `controls`."""
    return tuple(f"{seat}.{c}" for c in controls(cards))


def card_slots(seat: str, cards: int = CARDS) -> tuple[str, ...]:
    """The display slots under one seat's `cards` cards."""
    return tuple(f"{seat}.card{i}" for i in range(1, cards + 1))


def seat_slots(seat: str, cards: int = CARDS) -> tuple[str, ...]:
    """Every display slot a seat with `cards` cards may have: its cards, then its hero count."""
    return card_slots(seat, cards) + (f"{seat}.hero",)


def split_name(name: str) -> tuple[str | None, str]:
    """`(seat, control)` of a button or slot name; the table-wide menu has seat None."""
    seat, _, control = name.rpartition(".")
    return (seat or None), control


def panels_by_side(slots: Collection[str], sides: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The display slots along each board edge (`sides`: seat → edge), as seen from above with rank 9
    at the top: left to right along the south and north edges, top to bottom along the west and east.

    Each player's card 1 is at his left: first along the south and west edges, last along the north
    and east (facing south, a player's left is east; facing west, it is south).

    >>> panels_by_side(["red.card1", "red.card2", "white.card1", "white.card2"], {"red": "south", "white": "north"})
    {'south': ('red.card1', 'red.card2'), 'north': ('white.card2', 'white.card1')}
    """
    out: dict[str, tuple[str, ...]] = {}
    for seat, side in sides.items():
        row = tuple(s for s in seat_slots(seat) if s in slots)
        if row:
            out[side] = out.get(side, ()) + (row[::-1] if side in ("north", "east") else row)
    return out
