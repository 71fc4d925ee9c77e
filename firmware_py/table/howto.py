"""How to play, between attract games: a move (R10), a hero (R12), a draw (R11), how regions score (R18).

Each step is a text on every seat's displays (`firmware_py.table.messages`) and a small picture on
the board (`firmware_py.table.scenes.board_howto`), shown for the text's `reading.window`, at
least `STEP_SECONDS`.

>>> steps = schedule(Language.EN, cards=5, speed=20.0)
>>> [key for _, _, key in steps]
['howto-move', 'howto-hero', 'howto-draw', 'howto-score']
>>> step_at(steps, 0.5) == (steps[0][2], 0.0)
True
"""
from collections.abc import Sequence

from firmware_py.table.messages import Language, say
from firmware_py.table.reading import window

STEPS = ("howto-move", "howto-hero", "howto-draw", "howto-score")
STEP_SECONDS = 6.0
Schedule = Sequence[tuple[float, float, str]]
"""Each step: (from, to seconds after the start, its message key)."""


def schedule(language: Language, cards: int, speed: float) -> list[tuple[float, float, str]]:
    """The steps one after the other, each as long as its text takes to read on `cards` displays."""
    out, t = [], 0.0
    for key in STEPS:
        length = window([say(key, language)], cards, speed, STEP_SECONDS)
        out.append((t, t + length, key))
        t += length
    return out


def length(steps: Schedule) -> float:
    """How long the whole sequence takes."""
    return steps[-1][1] if steps else 0.0


def step_at(steps: Schedule, t: float) -> tuple[str, float] | None:
    """The step shown `t` seconds after the start and when it began, or None once all are over."""
    for start, end, key in steps:
        if start <= t < end:
            return key, start
    return None
