"""The `[table]` section of the configuration file: the game keys of the table service, each one checked.

>>> s = parse_settings({"hint": False, "think_seconds": 2.5})
>>> s.hint, s.takeback, s.think_seconds, s.cards_per_seat
(False, True, 2.5, 5)
>>> parse_settings({"think_seconds": 0}, "roseking.toml")
Traceback (most recent call last):
...
hardware.errors.ConfigError: roseking.toml: table.think_seconds: must be above 0.1 and at most 60 (got 0)
"""
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.players import NAMES as PLAYER_NAMES
from hardware.config import DEFAULTS, Config, _boolean, _choice, _number, _Table

LEVELS = ("easy", "medium", "hard", "max")
"""The levels the menu offers, weakest first (any player name works on the command line)."""


@dataclass(frozen=True)
class Settings:
    """What the table service reads from `[table]`: help at the table, the computer, the displays' text,
    where games are kept."""
    hint: bool = True
    takeback: bool = True
    takeback_agree: bool = True
    """Between people, a takeback needs a press from each colour that a person plays (false: one press)."""
    think_seconds: float = 10.0
    level: str = "medium"
    show_seconds: float = 2.0
    scroll_speed: float = 20.0
    """Columns a second that text scrolls across the card displays (a letter is about six)."""
    cards_per_seat: int = 5
    data_dir: str | None = None

    def data_path(self) -> Path:
        """The data directory: `data_dir`, else `$XDG_DATA_HOME/roseking` (default `~/.local/share/roseking`)."""
        if self.data_dir:
            return Path(self.data_dir).expanduser()
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
        return Path(base) / "roseking"


DEFAULT_SETTINGS = Settings()
"""Every key at its default: a table without a `[table]` section."""


def _path(v: Any) -> str | None:
    if not isinstance(v, str) or not v.strip() or "\0" in v:
        return f"must be a directory path (got {v!r})"
    return None


def parse_settings(data: Mapping[str, Any], where: str = DEFAULTS, cards: int = Settings.cards_per_seat) -> Settings:
    """The `Settings` of a parsed `[table]` table on seat panels of `cards` cards (the hardware's top-level
    `cards_per_seat`, which `table.cards_per_seat` may repeat but not contradict); ConfigError names the file
    and the key at fault.

    >>> parse_settings({"cards_per_seat": 5}, "roseking.toml", cards=3)
    Traceback (most recent call last):
    ...
    hardware.errors.ConfigError: roseking.toml: table.cards_per_seat: must agree with cards_per_seat = 3 (got 5)
    """
    t = _Table(dict(data), "table.", where)
    s = Settings(
        hint=t.get("hint", Settings.hint, _boolean),
        takeback=t.get("takeback", Settings.takeback, _boolean),
        takeback_agree=t.get("takeback_agree", Settings.takeback_agree, _boolean),
        think_seconds=float(t.get("think_seconds", Settings.think_seconds, _number(0.1, 60, open_low=True))),
        level=t.get("level", Settings.level, _choice(*(n for n in PLAYER_NAMES if n in LEVELS))),
        show_seconds=float(t.get("show_seconds", Settings.show_seconds, _number(0.05, 10))),
        scroll_speed=float(t.get("scroll_speed", Settings.scroll_speed, _number(4, 64))),
        cards_per_seat=t.get("cards_per_seat", cards,
                             lambda v: None if v == cards and type(v) is int else
                             f"must agree with cards_per_seat = {cards} (got {v!r})"),
        data_dir=t.get("data_dir", None, _path),
    )
    t.finish()
    return s


def table_settings(config: Config) -> Settings:
    """The `Settings` of a configured table."""
    return parse_settings(config.table, config.source, config.cards_per_seat)
