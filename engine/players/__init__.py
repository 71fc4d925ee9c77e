"""Computer players, found by name: `make_player("hard", seed=7)`.

Names: `random`, `greedy`, the searching levels `easy`, `medium`, `hard`, `max` (MCTS),
and the classical baseline `alphabeta`. A name may carry its own budget after a colon,
`hard:5000` (iterations for MCTS, nodes for alphabeta).

>>> from engine.position import Position
>>> pos = Position.new(seed=1)
>>> make_player("easy", seed=1).choose(pos) in pos.legal_moves()
True
"""
from engine.errors import RoseKingError
from engine.jsonio import brief
from engine.players.base import Budget, Player
from engine.players.expectimax import Expectimax
from engine.players.mcts import MCTS
from engine.players.simple import GreedyPlayer, RandomPlayer

# name -> (class, default budget). Work is chosen so that on the development machine
# easy and medium stay under 0.1 s a move and hard under 1 s; the seconds are the caps.
LEVELS = {
    "random": (RandomPlayer, None),
    "greedy": (GreedyPlayer, None),
    "easy": (MCTS, Budget(60, 0.1)),
    "medium": (MCTS, Budget(400, 0.1)),
    "hard": (MCTS, Budget(3000, 1.0)),
    "max": (MCTS, Budget(30000, 10.0)),
    "alphabeta": (Expectimax, Budget(32000, 1.0)),
}
NAMES = tuple(LEVELS)


def make_player(spec, seed=None, work=None, seconds=None):
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


def check_names(specs):
    """Raise RoseKingError for the first unknown or malformed player spec in `specs`."""
    for spec in specs:
        make_player(spec)


__all__ = ["Budget", "Player", "make_player", "check_names", "NAMES", "LEVELS"]
