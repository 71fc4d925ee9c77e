"""Random games: the uniformly random player's whole game, as fast as the core allows."""
from __future__ import annotations

import random
from itertools import repeat
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.outcomes import Outcome
    from engine.position import Position


def random_playout(pos: Position, rng: random.Random, plies: int | None = None) -> Outcome | None:
    """Play uniformly random legal moves on `pos` until the game ends (or `plies` moves are made).

    Returns `pos.outcome()`. The moves are pushed, so `pos.history()` and `pos.pop()`
    still work afterwards.
    """
    rand = rng.random
    legal = pos.legal_moves
    push = pos.push
    for _ in repeat(None) if plies is None else range(plies):
        moves = legal()
        if not moves:
            break
        push(moves[int(rand() * len(moves))])
    return pos.outcome()
