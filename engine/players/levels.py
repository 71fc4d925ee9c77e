"""The levels by name, `Level` (a name with its own budget, `hard:5000`) and `make_player`, which makes one.

>>> Level.parse("hard:5000")
Level(name='hard', work=5000)
>>> str(Level.parse("medium")), Level.parse("hard:5000").budget.work
('medium', 5000)
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.errors import RoseKingError, UnknownPlayerError
from engine.jsonio import brief
from engine.players.ab7 import AB7
from engine.players.base import Budget, Player
from engine.players.expectimax import Expectimax
from engine.players.ismcts import ISMCTS
from engine.players.mcts import MCTS
from engine.players.negamax import Negamax
from engine.players.simple import GreedyPlayer, RandomPlayer

Make = Callable[[int | None, Budget | None], Player]
"""What makes a level's player from a seed and a budget: a player class, or a function."""


def learned(seed: int | None = None, budget: Budget | None = None) -> Player:
    """The alpha-beta search with the learned evaluation (engine.learn, its shipped weights)."""
    from engine.learn.model import shipped_evaluation  # the weights load with the first such player
    return Negamax(seed, budget, evaluation=shipped_evaluation())


# name -> (maker, default budget). Work is chosen so that on the development machine easy and
# medium stay under 0.1 s a move and hard under 0.4 s (a Pi 4 is about five times slower); the
# seconds are wall-clock caps, a safety net that the table may lower (make_player's `seconds`).
# `hard-2026`, `max-2026` (today's hard and max with the classical evaluation), `ab7` and `ismcts`
# are fixed references: never change them.
LEVELS: dict[str, tuple[Make, Budget | None]] = {
    "random": (RandomPlayer, None),
    "greedy": (GreedyPlayer, None),
    "easy": (MCTS, Budget(60, 1.0)),
    "medium": (MCTS, Budget(400, 1.0)),
    "hard": (Negamax, Negamax.DEFAULT_BUDGET),
    "max": (Negamax, Budget(120000, 10.0)),
    "hard-learned": (learned, Budget(7500, 2.0)),  # 3 piles: its evaluation costs about 1.4 times the classical
    "max-learned": (learned, Budget(90000, 10.0)),  # 36 piles, the same time as max
    "alphabeta": (Expectimax, Expectimax.DEFAULT_BUDGET),
    "ab7": (AB7, None),
    "hard-2026": (Negamax, Budget(10000, 2.0)),
    "max-2026": (Negamax, Budget(120000, 10.0)),
    "ismcts": (ISMCTS, ISMCTS.DEFAULT_BUDGET),
}
NAMES = tuple(LEVELS)


@dataclass(frozen=True)
class Level:
    """A computer player as written on the command line and in records: a level's `name`, and for a
    searching player its own `work` budget (iterations for MCTS, nodes for alpha-beta), `hard:5000`."""

    name: str
    work: int | None = None

    @classmethod
    def parse(cls, spec: str) -> Level:
        """The level written `spec`; UnknownPlayerError names an unknown name, RoseKingError a bad budget."""
        name, _, extra = spec.partition(":")
        if name not in LEVELS:
            raise UnknownPlayerError(f"unknown player {brief(name)} (choose from {', '.join(NAMES)})")
        if not extra:
            return cls(name)
        if not (extra.isascii() and extra.isdigit()) or len(extra) > 9 or int(extra) < 1 or LEVELS[name][1] is None:
            raise RoseKingError(f"player {brief(spec)}: a budget must be a whole number from 1 to 999999999 "
                                f"after a searching player's name, e.g. hard:5000")
        return cls(name, int(extra))

    @property
    def budget(self) -> Budget | None:
        """The level's budget with its own `work`; None for a player that does not search."""
        budget = LEVELS[self.name][1]
        return Budget(self.work or budget.work, budget.seconds) if budget is not None else None

    def __str__(self) -> str:
        return f"{self.name}:{self.work}" if self.work is not None else self.name


def make_player(spec: str | Level, seed: int | None = None, work: int | None = None,
                seconds: float | None = None) -> Player:
    """The player named by `spec` (`hard`, or `hard:5000` with its own work budget).

    `work` (unless the name gives one) and `seconds` override the level's budget. RoseKingError
    names unknown names.
    """
    level = spec if isinstance(spec, Level) else Level.parse(spec)
    budget = level.budget
    if budget is not None and (work or seconds):
        budget = Budget(level.work or work or budget.work, seconds or budget.seconds)
    player = LEVELS[level.name][0](seed, budget)
    player.name = str(spec)
    return player


def check_names(specs: Iterable[str]) -> None:
    """Raise RoseKingError for the first unknown or malformed player spec in `specs`."""
    for spec in specs:
        Level.parse(spec)
