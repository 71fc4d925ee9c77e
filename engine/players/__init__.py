"""Computer players, found by name: `make_player("hard", seed=7)`.

Names: `random`, `greedy`, the searching levels `easy`, `medium` (MCTS), `hard`, `max`
(alpha-beta over sampled piles, engine.players.negamax), the classical baseline `alphabeta`
and the fixed reference `ab7`. A name may carry its own budget after a colon, `hard:5000`
(iterations for MCTS, nodes for the alpha-beta players; `ab7` has none): `Level.parse` reads one.

>>> from engine.players import make_player
>>> from engine.position import Position
>>> pos = Position.new(seed=1)
>>> make_player("easy", seed=1).choose(pos) in pos.legal_moves()
True
"""
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.players.base import Budget, Player
    from engine.players.levels import LEVELS, NAMES, Level, check_names, make_player

# The names below load their module on first use, so that importing one player module
# never imports the others (and no module imports this package's modules back).
_HOME = {"Budget": "base", "Player": "base", "LEVELS": "levels", "NAMES": "levels", "Level": "levels",
         "check_names": "levels", "make_player": "levels"}
__all__ = ["LEVELS", "NAMES", "Budget", "Level", "Player", "check_names", "make_player"]


def __getattr__(name: str) -> Any:
    """Load the module that defines `name` (PEP 562)."""
    if name not in _HOME:
        raise AttributeError(f"module 'engine.players' has no attribute {name!r}")
    return getattr(import_module(f"engine.players.{_HOME[name]}"), name)
