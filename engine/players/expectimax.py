"""The classical baseline: depth-limited alpha-beta with chance nodes for draws (expectimax).

Evaluation: score difference plus a value per unused hero (evaluate.margin). A draw (R11)
is a chance node averaging over every card that may lie in the draw pile — the player
knows which cards are there, not their order. Iterative deepening stops when the node
budget is spent; the deepest finished iteration decides, so results are reproducible.
"""
import time
from typing import ClassVar, Final

from engine.moves import DRAW, Move
from engine.players import evaluate
from engine.players.base import Budget, OutOfBudget, Searcher
from engine.position import Position, shuffle

INF: Final = float("inf")


class Expectimax(Searcher):
    """Alpha-beta on choice nodes, full-window averages on draw nodes."""

    name = "alphabeta"
    DEFAULT_BUDGET: ClassVar[Budget] = Budget(32000, 1.0)

    def __init__(self, seed: int | None = None, budget: Budget | None = None, depth: int = 64) -> None:
        super().__init__(seed, budget)
        self.depth = depth

    def search(self, pos: Position, moves: list[Move]) -> Move:
        pos = self.view(pos)  # a copy: `pos` stays untouched
        order = list(moves)
        shuffle(self.rng, order)  # random tie-break
        self.nodes = 0
        self.limit = float(self.limits.work)
        self.deadline = time.perf_counter() + self.limits.seconds
        best = order[0]
        try:
            for depth in range(1, self.depth + 1):
                top, choice = -INF, order[0]
                for move in order:
                    value = self._move(pos, move, depth, top, INF)
                    if value > top:
                        top, choice = value, move
                best = choice
                order.remove(best)
                order.insert(0, best)
                if abs(top) >= evaluate.WIN - 200:
                    break  # the result is decided
        except OutOfBudget:
            pass
        self.work = self.nodes
        return best

    def _move(self, pos: Position, move: int, depth: int, alpha: float, beta: float) -> float:
        """The value of `move` for the side to move, searching `depth` plies in all."""
        if move == DRAW:
            cards = set(pos.pile or pos.discard)  # R11: an empty pile is the reshuffled discard
            total = 0.0
            for card in cards:
                pos.push(DRAW, card)
                total -= self._value(pos, depth - 1, -INF, INF)
                pos.pop()
            return total / len(cards)
        pos.push(move)
        value = -self._value(pos, depth - 1, -beta, -alpha)
        pos.pop()
        return value

    def _value(self, pos: Position, depth: int, alpha: float, beta: float) -> float:
        """Negamax value for the side to move (colours alternate every ply, R8, R22)."""
        self.nodes += 1
        if self.nodes > self.limit or (self.nodes & 1023 == 0 and time.perf_counter() > self.deadline):
            raise OutOfBudget
        moves = pos.legal_moves()
        colour = pos.to_move & 1
        if not moves:
            return evaluate.final(pos, colour)
        if depth <= 0:
            return evaluate.margin(pos, colour)
        best = -INF
        for move in moves:
            value = self._move(pos, move, depth, alpha, beta)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best
