"""The builder's configuration: one TOML file, every key validated, errors naming the key.

Every key has a default (the pin plan of hardware/README.md), except `backend`, which must be
chosen in the file or on the command line. See `hardware/roseking.example.toml`.

>>> c = parse_config({"board": {"rotation": 90}})
>>> c.board.rotation, c.buttons.pins["red.card1"], c.displays.chain[5]
(90, 4, 'white.card1')
>>> parse_config({"board": {"rotation": 45}}, "roseking.toml")
Traceback (most recent call last):
...
hardware.errors.ConfigError: roseking.toml: board.rotation: must be one of 0, 90, 180, 270 (got 45)
>>> read_config("[board]\\nbrightness = nan", "roseking.toml")
Traceback (most recent call last):
...
hardware.errors.ConfigError: roseking.toml: board.brightness: must be a finite number (got nan)
"""
import datetime
import json
import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from itertools import permutations
from types import MappingProxyType
from typing import Any, TypeVar

from hardware.errors import ConfigError
from hardware.events import ButtonTiming
from hardware.frame import CELLS
from hardware.layout import CORNERS, ROTATIONS, SIDES, VIEW_TURNS, default_sides
from hardware.names import CARDS, CONTROLS, MENU_BUTTON, SEAT_PATTERN, STAFF_KEY, card_slots, controls, seat_slots, \
    split_name
from hardware.power import least_amps

BACKENDS = ("pi", "sim")
PIXEL_ORDERS = tuple("".join(p) for p in permutations("RGB"))
BLOCK_ORIENTATIONS = (0, 90, -90, 180)
SPI_SPEEDS = (500_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000)   # the MAX7219 tops out at 10 MHz
SPI_PINS = {0: (9, 10, 11), 1: (19, 20, 21)}    # MISO, MOSI, SCLK of SPI0 and SPI1
SPI_CHIP_SELECTS = {0: (8, 7), 1: (18, 17)}    # CE0, CE1: `spi_device` picks one, the other stays free
DEFAULT_PINS = {
    "red": dict(zip(CONTROLS, (4, 17, 27, 22, 5, 6, 13))),
    "white": dict(zip(CONTROLS, (23, 24, 25, 12, 16, 20, 26))),
}
DEFAULT_MENU_PIN = 19
DEFAULTS = "<defaults>"


@dataclass(frozen=True)
class BoardConfig:
    """The 9 × 9 WS2812 chain: data pin, layout, colour order and power."""
    pin: int = 18
    start: str = "bottom-left"
    serpentine: bool = True
    rotation: int = 0
    pixel_order: str = "GRB"
    brightness: float = 0.3
    supply_amps: float = 4.0
    gamma: float = 2.6


@dataclass(frozen=True)
class Panel:
    """One seat's panel: the board `side` it sits at, and how the software turns (`rotation`, clockwise)
    and mirrors (`flip`) its bitmaps so that they read upright for that seat's player."""
    seat: str
    side: str = "south"
    rotation: int = 0
    flip: bool = False


@dataclass(frozen=True)
class DisplayConfig:
    """The MAX7219 chain: SPI settings and which slot each matrix shows, nearest the Pi first."""
    chain: tuple[str, ...]
    spi_port: int = 0
    spi_device: int = 0
    spi_speed_hz: int = 8_000_000
    block_orientation: int = 0
    reverse_order: bool = False
    intensity: int = 4
    dim_intensity: int = 1
    """The intensity of the displays a frame dims (the seats waiting for their turn), 0 to `intensity`."""
    panels: tuple[Panel, ...] = ()
    """Each seat's side and turn; by default the seats sit round the board as `default_sides` says, and
    each is turned to read upright on a chain whose modules all face the same way up as seen from the
    south (the first seat 0, one opposite 180, one to the west 90, one to the east 270)."""

    def panel(self, seat: str | None) -> Panel:
        """The panel of `seat` (a seat the configuration does not name sits south, unturned)."""
        return next((p for p in self.panels if p.seat == seat), Panel(seat or ""))

    def turn_of(self, slot: str) -> tuple[int, bool]:
        """`(rotation, flip)` for the display `slot`."""
        p = self.panel(split_name(slot)[0])
        return p.rotation, p.flip

    def sides(self) -> dict[str, str]:
        """Seat → the board edge it sits at, in the order of the seats."""
        return {p.seat: p.side for p in self.panels}

    def view_of(self, seat: str) -> int:
        """How far (clockwise) the board as `seat` sees it is turned from the board as seen from the south."""
        return VIEW_TURNS[self.panel(seat).side]


@dataclass(frozen=True)
class ButtonConfig:
    """Button name → BCM pin (the staff's key switch among them as `staff`, when `[staff] key_pin` wires one),
    and the timing that makes their events (hold time, debounce window)."""
    pins: dict[str, int]
    timing: ButtonTiming = ButtonTiming()

    @property
    def panel(self) -> tuple[str, ...]:
        """The buttons a player may press: every one but the staff's key."""
        return tuple(name for name in self.pins if name != STAFF_KEY)


@dataclass(frozen=True)
class Config:
    """Everything a builder changes; `backend` is None when the file leaves it to `--sim`."""
    backend: str | None
    seats: tuple[str, ...]
    board: BoardConfig
    displays: DisplayConfig
    buttons: ButtonConfig
    source: str = DEFAULTS
    table: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The `[table]` section as read, for the table service to validate (the hardware never reads it)."""
    cards_per_seat: int = CARDS
    """The cards of each seat panel (five, or three for teams, R21): its card displays and card buttons."""
    web: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    """The `[web]` section as read, for the table service's web page to validate."""
    exhibit: Mapping[str, Any] | None = None
    """The `[exhibit]` section as read (idle, attract mode, walk-away, opening hours), for the table service;
    None when the file has none (a home or a café table: no attract mode, no walk-away)."""


def spi_pins(displays: DisplayConfig) -> tuple[int, ...]:
    """The GPIO pins the display chain's SPI really uses: MISO, MOSI, SCLK and its one chip select.

    >>> spi_pins(DisplayConfig(("red.card1",), spi_device=1))
    (9, 10, 11, 7)
    """
    return SPI_PINS[displays.spi_port] + (SPI_CHIP_SELECTS[displays.spi_port][displays.spi_device],)


def _show(value: object) -> str:
    """A TOML value as the file would write it, cut short: `"pi"`, `90.0`, `nan`, `1979-05-27`."""
    if isinstance(value, (datetime.date, datetime.time)):
        text = value.isoformat()
    elif isinstance(value, float) and not math.isfinite(value):
        text = str(value)
    else:
        text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:59] + "…"


# The readers: each takes a TOML value and returns it as its key's type, or raises Invalid
# saying what is wrong. Every numeric key goes through `choice` (a fixed set of whole
# numbers), `integer` or `number`: whole-number keys refuse 18.0; number keys take 1 or 0.5,
# never nan or inf. The table service reads its own `[table]` section with them too.

T = TypeVar("T")
Reader = Callable[[object], T]
"""Reads one TOML value as its key's type (`bool`, `int`, `float`, one of some choices, …)."""


class Invalid(ValueError):
    """What is wrong with a value, before it is known which key of which file holds it."""


def choice(*choices: T) -> Reader[T]:
    """One of `choices`, of the same type: `choice(0, 90)` refuses 90.0 and `true`.

    >>> choice("pi", "sim")("pie")
    Traceback (most recent call last):
    ...
    hardware.config.Invalid: must be one of "pi", "sim" (got "pie")
    """
    def read(v: object) -> T:
        for c in choices:
            if v == c and type(v) is type(c):
                return c
        raise Invalid(f"must be one of {', '.join(map(_show, choices))} (got {_show(v)})")
    return read


def integer(lo: int, hi: int) -> Reader[int]:
    """A whole number from `lo` to `hi` (never a float, nor `true`)."""
    def read(v: object) -> int:
        if type(v) is not int:
            raise Invalid(f"must be a whole number (got {_show(v)})")
        if not lo <= v <= hi:
            raise Invalid(f"must be between {lo} and {hi} (got {v})")
        return v
    return read


def number(lo: float, hi: float, open_low: bool = False) -> Reader[float]:
    """A finite number from `lo` (above it, with `open_low`) to `hi`, whole or not, as a float."""
    def read(v: object) -> float:
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise Invalid(f"must be a number (got {_show(v)})")
        if not math.isfinite(v):
            raise Invalid(f"must be a finite number (got {_show(v)})")
        if (v <= lo if open_low else v < lo) or v > hi:
            low = f"above {lo}" if open_low else f"at least {lo}"
            raise Invalid(f"must be {low} and at most {hi} (got {v})")
        return float(v)
    return read


def boolean(v: object) -> bool:
    """`true` or `false`."""
    if not isinstance(v, bool):
        raise Invalid(f"must be true or false (got {_show(v)})")
    return v


class ConfigTable:
    """One TOML table being read: each key through its reader, errors naming the file and the key,
    and any key left unread an error at `finish`.

    >>> t = ConfigTable({"hint": 1}, "table.", "roseking.toml")
    >>> t.get("hint", True, boolean)
    Traceback (most recent call last):
    ...
    hardware.errors.ConfigError: roseking.toml: table.hint: must be true or false (got 1)
    """

    def __init__(self, data: Mapping[str, object], prefix: str, where: str) -> None:
        self.data, self.prefix, self.where = data, prefix, where
        self.used: set[str] = set()

    def error(self, key: str, message: str) -> ConfigError:
        """The error of `key`, saying `message`."""
        return ConfigError(f"{self.where}: {self.prefix}{key}: {message}")

    def get(self, key: str, default: T, read: Reader[T]) -> T:
        """The value of `key` as `read` reads it, or `default` when the table does not have it."""
        self.used.add(key)
        if key not in self.data:
            return default
        try:
            return read(self.data[key])
        except Invalid as exc:
            raise self.error(key, str(exc)) from None

    def sub(self, key: str) -> "ConfigTable":
        """The table under `key` (empty when there is none)."""
        self.used.add(key)
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise self.error(key, f"must be a table (got {_show(value)})")
        return ConfigTable(value, f"{self.prefix}{key}.", self.where)

    def finish(self) -> None:
        """ConfigError for the first key no `get` or `sub` asked for."""
        for key in self.data:
            if key not in self.used:
                raise self.error(key, "unknown key")


def _seats(top: ConfigTable) -> tuple[str, ...]:
    def read(v: object) -> tuple[str, ...]:
        if not isinstance(v, list) or not v:
            raise Invalid(f"must be a list of seat names (got {_show(v)})")
        for name in v:
            if not isinstance(name, str) or not SEAT_PATTERN.match(name) or name == MENU_BUTTON:
                raise Invalid(f"{_show(name)} is not a seat name (lower-case letters, digits, _)")
        if len(set(v)) != len(v):
            raise Invalid("names a seat twice")
        return tuple(v)
    return top.get("seats", ("red", "white"), read)


def _board(t: ConfigTable) -> BoardConfig:
    b = BoardConfig(
        pin=t.get("pin", BoardConfig.pin, integer(2, 27)),
        start=t.get("start", BoardConfig.start, choice(*CORNERS)),
        serpentine=t.get("serpentine", BoardConfig.serpentine, boolean),
        rotation=t.get("rotation", BoardConfig.rotation, choice(*ROTATIONS)),
        pixel_order=t.get("pixel_order", BoardConfig.pixel_order, choice(*PIXEL_ORDERS)),
        brightness=t.get("brightness", BoardConfig.brightness, number(0, 1, open_low=True)),
        supply_amps=t.get("supply_amps", BoardConfig.supply_amps, number(0, 100, open_low=True)),
        gamma=t.get("gamma", BoardConfig.gamma, number(1.0, 4.0)),
    )
    if b.supply_amps <= least_amps(CELLS):
        raise t.error("supply_amps", f"must exceed the {least_amps(CELLS):.3f} A that {CELLS} LEDs draw "
                      "at their dimmest")
    t.finish()
    return b


def _displays(t: ConfigTable, seats: tuple[str, ...], cards: int) -> DisplayConfig:
    allowed = [s for seat in seats for s in seat_slots(seat, cards)]

    def read_chain(v: object) -> tuple[str, ...]:
        if not isinstance(v, list) or not v:
            raise Invalid(f"must be a list of display slots (got {_show(v)})")
        for slot in v:
            if slot not in allowed:
                raise Invalid(f"{_show(slot)} is not a display slot (one of {', '.join(allowed)})")
        if len(set(v)) != len(v):
            raise Invalid("names a slot twice")
        return tuple(v)

    default_chain = tuple(s for seat in seats for s in card_slots(seat, cards))
    d = DisplayConfig(
        chain=t.get("chain", default_chain, read_chain),
        spi_port=t.get("spi_port", DisplayConfig.spi_port, choice(0, 1)),
        spi_device=t.get("spi_device", DisplayConfig.spi_device, choice(0, 1)),
        spi_speed_hz=t.get("spi_speed_hz", DisplayConfig.spi_speed_hz, choice(*SPI_SPEEDS)),
        block_orientation=t.get("block_orientation", DisplayConfig.block_orientation,
                                choice(*BLOCK_ORIENTATIONS)),
        reverse_order=t.get("reverse_order", DisplayConfig.reverse_order, boolean),
        intensity=t.get("intensity", DisplayConfig.intensity, integer(0, 15)),
        panels=_panels(t, seats),
    )
    d = replace(d, dim_intensity=t.get("dim_intensity", d.intensity // 4, integer(0, d.intensity)))
    t.finish()
    return d


def _panels(t: ConfigTable, seats: tuple[str, ...]) -> tuple[Panel, ...]:
    """Each seat's panel, at an edge of its own: two players at one edge would see the board alike and
    crowd each other's displays."""
    panels: list[Panel] = []
    for seat, side in zip(seats, default_sides(len(seats))):
        panel = _panel(t.sub(seat), seat, side)
        other = next((p.seat for p in panels if p.side == panel.side), None)
        if other is not None:
            raise t.error(f"{seat}.side", f"{_show(panel.side)} is the side of {other} too; each seat needs an edge "
                          "of its own")
        panels.append(panel)
    return tuple(panels)


def _panel(t: ConfigTable, seat: str, side: str) -> Panel:
    side = t.get("side", side, choice(*SIDES))
    panel = Panel(seat, side, t.get("rotation", (360 - VIEW_TURNS[side]) % 360, choice(*ROTATIONS)),
                  t.get("flip", False, boolean))
    t.finish()
    return panel


def _buttons(t: ConfigTable, seats: tuple[str, ...], cards: int, reserved: Mapping[int, str],
             staff: ConfigTable) -> ButtonConfig:
    pins: dict[str, int] = {}
    taken: dict[int, str] = {}

    def pin(table: ConfigTable, key: str, default: int | None) -> int:
        value = table.get(key, default, integer(2, 27))
        if value is None:
            raise table.error(key, "missing (no default pin for this seat)")
        if value in reserved:
            raise table.error(key, f"GPIO {value} is {reserved[value]}")
        if value in taken:
            raise table.error(key, f"GPIO {value} is already used by {taken[value]}")
        taken[value] = f"{table.prefix}{key}"
        return value

    hold = t.get("hold_seconds", ButtonTiming.hold_seconds, number(0, 10, open_low=True))
    debounce_ms = t.get("debounce_ms", ButtonTiming.debounce_seconds * 1000, number(0, 500))
    min_pulse_ms = t.get("min_pulse_ms", ButtonTiming.min_pulse_seconds * 1000, number(0, 100))
    stuck = t.get("stuck_seconds", ButtonTiming.stuck_seconds, number(hold, 3600, open_low=True))   # above the hold
    for seat in seats:
        table = t.sub(seat)
        defaults = DEFAULT_PINS.get(seat, {})
        for control in controls(cards):
            pins[f"{seat}.{control}"] = pin(table, control, defaults.get(control))
        table.finish()
    pins[MENU_BUTTON] = pin(t, MENU_BUTTON, DEFAULT_MENU_PIN)
    t.finish()
    if "key_pin" in staff.data:                 # the staff's key switch: optional, no default pin
        pins[STAFF_KEY] = pin(staff, "key_pin", None)
    staff.finish()
    return ButtonConfig(pins, ButtonTiming(hold, debounce_ms / 1000, min_pulse_ms / 1000, stuck))



def parse_config(data: Mapping[str, object], where: str = DEFAULTS) -> Config:
    """A `Config` from parsed TOML `data`; `where` (the file name) starts every error."""
    top = ConfigTable(data, "", where)
    backend = top.get("backend", None, choice(*BACKENDS))
    seats = _seats(top)
    cards = top.get("cards_per_seat", CARDS, integer(3, CARDS))
    board = _board(top.sub("board"))
    displays = _displays(top.sub("displays"), seats, cards)
    spi = f"used by SPI{displays.spi_port} (the card displays)"
    if board.pin in spi_pins(displays):
        raise top.error("board.pin", f"GPIO {board.pin} is {spi}")
    reserved = {p: spi for p in spi_pins(displays)}
    reserved[board.pin] = "the board's LED data pin (board.pin)"
    buttons = _buttons(top.sub("buttons"), seats, cards, reserved, top.sub("staff"))
    table = top.sub("table").data
    web = top.sub("web").data
    exhibit = top.sub("exhibit").data if "exhibit" in data else None
    top.finish()
    return Config(backend, seats, board, displays, buttons, where, MappingProxyType(dict(table)), cards,
                  MappingProxyType(dict(web)), None if exhibit is None else MappingProxyType(dict(exhibit)))


def read_config(text: str, where: str) -> Config:
    """Parse and validate the TOML `text` of the file named `where`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{where}: not valid TOML: arrays or tables nested too deeply") from None
    return parse_config(data, where)
