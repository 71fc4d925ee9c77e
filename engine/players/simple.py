"""Players that do not search: uniformly random, and greedy (best immediate result)."""
from engine.players.base import Player
from engine.players.expectimax import Expectimax


class RandomPlayer(Player):
    """Plays a uniformly random legal move."""

    name = "random"

    def search(self, pos, moves):
        return moves[int(self.rng.random() * len(moves))]


class GreedyPlayer(Expectimax):
    """The best move one ply deep by the classical evaluation; ties broken at random."""

    name = "greedy"

    def __init__(self, seed=None, budget=None):
        super().__init__(seed, budget, depth=1)
