"""Text on the card displays, and how long it takes to read: the rule every timed text follows.

Text that fits its displays stands still for `STILL_SECONDS`; longer text starts at its
first letter, waits `HOLD_SECONDS`, slides at `[table] scroll_speed` columns a second until
its last letter shows, and waits again: one showing (`lasts`). Whatever the table says for a
while (a note, a refusal, a question, an announcement, the state of the game) is shown for
its `window`: at least one whole showing of its text, however long the text or its language.

>>> lasts("WAIT", 5, 20.0)
1.5
>>> window(["LEAVE THIS GAME? PRESS START AGAIN"], 4, 20.0, at_least=5.0) > 5.0
True
"""
from collections.abc import Sequence
from functools import lru_cache

from hardware.frame import Bitmap
from hardware.glyphs import scroll, text_columns

STILL_SECONDS = 1.5          # text that fits its displays stands this long
HOLD_SECONDS = 0.8           # longer text waits this long at its start and at its end

scrolled = lru_cache(maxsize=1024)(scroll)
"""`hardware.glyphs.scroll`, remembered: a scene draws the same few texts at the same offsets again and again."""


@lru_cache(maxsize=256)
def width(message: str) -> int:
    """The columns `message` takes on the displays."""
    return len(text_columns(message))


def text(message: str, since: float, now: float, count: int, speed: float) -> tuple[Bitmap, ...]:
    """`message` on `count` displays side by side from `since`: centred and still when it fits; else
    its start, then sliding left at `speed` columns a second to its end, then its end, and again."""
    room = 8 * count
    if width(message) <= room:
        return scrolled(message, -((room - width(message)) // 2), count, room)
    slide = width(message) - room
    t = (now - since) % lasts(message, count, speed)
    return scrolled(message, int(min(max(0.0, t - HOLD_SECONDS) * speed, slide)), count, room)


def lasts(message: str, count: int, speed: float) -> float:
    """Seconds one showing of `message` on `count` displays takes: `STILL_SECONDS` when it fits, else
    its start held, the slide and its end held."""
    slide = width(message) - 8 * count
    return STILL_SECONDS if slide <= 0 else 2 * HOLD_SECONDS + slide / speed


def window(messages: Sequence[str], count: int, speed: float, at_least: float = 0.0) -> float:
    """Seconds to show `messages` on `count` displays: one showing of each, one after the other, and
    `at_least` (the time a person needs to act on it, say)."""
    return max(at_least, sum(lasts(message, count, speed) for message in messages))


def pages(lines: Sequence[str], since: float, now: float, count: int, speed: float) -> tuple[Bitmap, ...]:
    """`lines` shown one after the other on `count` displays from `since`, each for one showing, round and round."""
    times = [lasts(line, count, speed) for line in lines]
    t = (now - since) % sum(times)
    for line, length in zip(lines, times):
        if t < length:
            return text(line, now - t, now, count, speed)
        t -= length
    return text(lines[-1], now, now, count, speed)
