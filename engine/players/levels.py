"""The levels by name and `make_player`, which makes one: `make_player("hard", seed=7)`."""
from collections.abc import Iterable

from engine.errors import RoseKingError
from engine.jsonio import brief
from engine.players.ab7 import AB7
from engine.players.base import Budget, Player
from engine.players.expectimax import Expectimax
from engine.players.mcts import MCTS
from engine.players.negamax import Negamax
from engine.players.simple import GreedyPlayer, RandomPlayer

# name -> (class, default budget). Work is chosen so that on the development machine easy and
# medium stay under 0.1 s a move and hard under 0.4 s (a Pi 4 is about five times slower); the
# seconds are wall-clock caps, a safety net that the table may lower (make_player's `seconds`).
LEVELS: dict[str, tuple[type[Player], Budget | None]] = {
    "random": (RandomPlayer, None),
    "greedy": (GreedyPlayer, None),
    "easy": (MCTS, Budget(60, 1.0)),
    "medium": (MCTS, Budget(400, 1.0)),
    "hard": (Negamax, Negamax.DEFAULT_BUDGET),
    "max": (Negamax, Budget(120000, 10.0)),
    "alphabeta": (Expectimax, Expectimax.DEFAULT_BUDGET),
    "ab7": (AB7, None),
}
NAMES = tuple(LEVELS)


def make_player(spec: str, seed: int | None = None, work: int | None = None,
                seconds: float | None = None) -> Player:
    """The player named by `spec` (`hard`, or `hard:5000` with its own work budget).

    `work` and `seconds` override the level's budget. RoseKingError names unknown names.
    """
    name, _, extra = str(spec).partition(":")
    if name not in LEVELS:
        raise RoseKingError(f"unknown player {brief(name)} (choose from {', '.join(NAMES)})")
    cls, budget = LEVELS[name]
    if extra:
        if not (extra.isascii() and extra.isdigit()) or len(extra) > 9 or int(extra) < 1 or budget is None:
            raise RoseKingError(f"player {brief(spec)}: a budget must be a whole number from 1 to 999999999 "
                                f"after a searching player's name, e.g. hard:5000")
        work = int(extra)
    if budget is not None and (work or seconds):
        budget = Budget(work or budget.work, seconds or budget.seconds)
    player = cls(seed, budget)
    player.name = spec
    return player


def check_names(specs: Iterable[str]) -> None:
    """Raise RoseKingError for the first unknown or malformed player spec in `specs`."""
    for spec in specs:
        make_player(spec)

