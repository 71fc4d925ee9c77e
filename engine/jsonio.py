"""JSON from untrusted text, bounded: size, nesting depth and integer length are capped.

Every position, record and agent line is read through `loads`, so no input can end
in a RecursionError, a huge integer or a standard-library ValueError.

>>> loads('{"a": [1, 2]}', "pos.json")
{'a': [1, 2]}
>>> loads('[' * 100, "pos.json")
Traceback (most recent call last):
...
engine.jsonio.JSONInputError: pos.json: not JSON: nested more than 32 deep (byte 32)
>>> brief("x" * 100, width=8)
"'xxxxxx…"
"""
import json
import re
from typing import Any

from engine.errors import RoseKingError

MAX_BYTES = 1 << 20  # one position or one record line (a whole game is about 3 KB); every input file is capped so
MAX_DEPTH = 32  # a record is 4 deep
MAX_DIGITS = 40  # seeds are 64-bit; nothing we read needs more

# A string (to its closing quote, or to the end when it has none) or a bracket. Nothing here
# can backtrack and each match starts where the last ended, so one pass reads any text.
_TOKENS = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}]', re.DOTALL)


class JSONInputError(RoseKingError):
    """Text that is not JSON, or JSON beyond the limits above; the message names where."""


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"an integer of more than {MAX_DIGITS} digits")
    return int(text)


def _constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _check_depth(text: str, where: str) -> None:
    """JSONInputError if brackets outside strings nest deeper than MAX_DEPTH."""
    depth = 0
    for m in _TOKENS.finditer(text):
        if m.group()[0] == '"':
            continue
        depth += 1 if m.group() in "[{" else -1
        if depth > MAX_DEPTH:
            offset = len(text[:m.start()].encode())
            raise JSONInputError(f"{where}: not JSON: nested more than {MAX_DEPTH} deep (byte {offset})")


def loads(text: str, where: str) -> Any:
    """The JSON value in `text`; JSONInputError naming `where` if it is not JSON or too big."""
    if len(text) > MAX_BYTES:
        raise JSONInputError(f"{where}: longer than {MAX_BYTES} characters")
    _check_depth(text, where)
    try:
        return json.loads(text, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JSONInputError(f"{where}: not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        raise JSONInputError(f"{where}: not JSON: {exc}") from None


def brief(value: object, width: int = 60) -> str:
    """`repr(value)` cut to `width` characters, for error messages about untrusted values."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 1] + "…"


def label(value: object, width: int = 60) -> str:
    """A key or a token for an error message: as it is when it is short printable text, else `brief(value)`.

    >>> label("hands"), label("a\\nb"), label(""), label(["N1"])
    ('hands', "'a\\\\nb'", "''", "['N1']")
    """
    if isinstance(value, str) and value and value.isprintable() and len(value) <= width:
        return value
    return brief(value, width)
