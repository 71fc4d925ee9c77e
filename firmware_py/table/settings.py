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

from engine.players import NAMES as PLAYER_NAMES
from firmware_py.table.messages import Language
from hardware.config import DEFAULTS, Config, ConfigTable, Invalid, boolean, choice, number

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
    language: Language = Language.EN
    """The language of every text the table scrolls (`firmware_py.table.messages`)."""
    data_dir: str | None = None
    shutdown_command: tuple[str, ...] = ("systemctl", "poweroff")
    """What a clean shutdown runs (the operator's page, with `[web] allow_shutdown`): a program and its
    arguments, run without a shell."""

    def data_path(self) -> Path:
        """The data directory: `data_dir`, else `$XDG_DATA_HOME/roseking` (default `~/.local/share/roseking`)."""
        if self.data_dir:
            return Path(self.data_dir).expanduser()
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
        return Path(base) / "roseking"


DEFAULT_SETTINGS = Settings()
"""Every key at its default: a table without a `[table]` section."""


def _path(v: object) -> str:
    if not isinstance(v, str) or not v.strip() or "\0" in v:
        raise Invalid(f"must be a directory path (got {v!r})")
    return v


def _command(v: object) -> tuple[str, ...]:
    if not isinstance(v, list) or not 1 <= len(v) <= 16 or not all(
            isinstance(word, str) and word and len(word) <= 256 and "\0" not in word for word in v):
        raise Invalid(f"must be a program and its arguments, 1 to 16 words, as a list of strings (got {v!r})")
    return tuple(v)


def parse_settings(data: Mapping[str, object], where: str = DEFAULTS, cards: int = Settings.cards_per_seat) -> Settings:
    """The `Settings` of a parsed `[table]` table on seat panels of `cards` cards (the hardware's top-level
    `cards_per_seat`, which `table.cards_per_seat` may repeat but not contradict); ConfigError names the file
    and the key at fault.

    >>> parse_settings({"cards_per_seat": 5}, "roseking.toml", cards=3)
    Traceback (most recent call last):
    ...
    hardware.errors.ConfigError: roseking.toml: table.cards_per_seat: must agree with cards_per_seat = 3 (got 5)
    """
    def same_cards(v: object) -> int:
        if v != cards or type(v) is not int:
            raise Invalid(f"must agree with cards_per_seat = {cards} (got {v!r})")
        return v

    t = ConfigTable(data, "table.", where)
    s = Settings(
        hint=t.get("hint", Settings.hint, boolean),
        takeback=t.get("takeback", Settings.takeback, boolean),
        takeback_agree=t.get("takeback_agree", Settings.takeback_agree, boolean),
        think_seconds=t.get("think_seconds", Settings.think_seconds, number(0.1, 60, open_low=True)),
        level=t.get("level", Settings.level, choice(*(n for n in PLAYER_NAMES if n in LEVELS))),
        show_seconds=t.get("show_seconds", Settings.show_seconds, number(0.05, 10)),
        scroll_speed=t.get("scroll_speed", Settings.scroll_speed, number(4, 64)),
        cards_per_seat=t.get("cards_per_seat", cards, same_cards),
        language=Language(t.get("language", Settings.language.value, choice(*(str(x) for x in Language)))),
        data_dir=t.get("data_dir", None, _path),
        shutdown_command=t.get("shutdown_command", Settings.shutdown_command, _command),
    )
    t.finish()
    return s


def table_settings(config: Config) -> Settings:
    """The `Settings` of a configured table."""
    return parse_settings(config.table, config.source, config.cards_per_seat)
