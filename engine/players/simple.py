"""Players that do not search: uniformly random, and greedy (best immediate result)."""
from engine.moves import Move
from engine.players.base import Budget, Player
from engine.players.expectimax import Expectimax
from engine.position import Position


class RandomPlayer(Player):
    """Plays a uniformly random legal move."""

    name = "random"

    def search(self, pos: Position, moves: list[Move]) -> Move:
        return moves[int(self.rng.random() * len(moves))]


class GreedyPlayer(Expectimax):
    """The best move one ply deep by the classical evaluation; ties broken at random."""

    name = "greedy"

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        super().__init__(seed, budget, depth=1)
