"""`ismcts`: a fixed reference of another family, single-observer information-set MCTS.

Written to judge the learned evaluation by a player it was never trained against, and then
frozen: do not tune it. One tree over the moves the player can see (Cowling, Powley and
Whitehouse, 2012): each iteration samples a pile order the player cannot see (R7), walks
down the children that are legal in that sample, choosing by UCB1 with availability counts
(a child is judged against the times it could have been chosen), adds one child, plays
ROLLOUT_PLIES random moves (R11 draws from the sampled pile) and scores what it reaches
with its own simple evaluation: the game's result (R19) if it ended, else a logistic of
the score difference plus HERO points an unused hero (R18, R5). A draw is one move of the
tree whatever card it brings, unlike `easy`'s chance nodes (engine.players.mcts).
"""
import math
import time
from typing import ClassVar, Final

from engine.moves import Move
from engine.players.base import Budget, Searcher
from engine.players.evaluate import margin, result
from engine.playout import random_playout
from engine.position import Position, shuffle

EXPLORATION: Final = 0.7
ROLLOUT_PLIES: Final = 8
HERO: Final = 15  # points an unused hero is worth to its evaluation
SCALE: Final = 12.0  # points of margin that make a 73% chance (logistic)
CHECK_EVERY: Final = 32  # iterations between looks at the clock


class Node:
    """The moves tried from an information set: wins of the colour that moved into it."""

    __slots__ = ("colour", "visits", "wins", "seen", "children")

    def __init__(self, colour: int) -> None:
        self.colour = colour
        self.visits = 0
        self.wins = 0.0
        self.seen = 1  # availability: the times this child was among the legal moves at a choice
        self.children: dict[int, Node] = {}


class ISMCTS(Searcher):
    """The reference player; `budget.work` counts iterations."""

    name = "ismcts"
    DEFAULT_BUDGET: ClassVar[Budget] = Budget(400, 2.0)

    def search(self, pos: Position, moves: list[Move]) -> Move:
        rng = self.rng
        sample = self.view(pos)
        root = Node(1 - (pos.to_move & 1))
        deadline = time.perf_counter() + self.limits.seconds
        done = 0
        while done < self.limits.work:
            shuffle(rng, sample.pile)  # a fresh guess at the pile's order (R7)
            self._iterate(root, sample)
            done += 1
            if done % CHECK_EVERY == 0 and time.perf_counter() > deadline:
                break
        self.work = done
        tried = [m for m in moves if m in root.children]
        return max(tried, key=lambda m: root.children[m].visits) if tried else moves[0]

    def _iterate(self, root: Node, pos: Position) -> None:
        """Select among the sample's legal moves, expand one, roll out, back the reward up, unmake."""
        rng = self.rng
        path = [root]
        node = root
        pushed = 0
        while moves := pos.legal_moves():
            new = [m for m in moves if m not in node.children]
            if new:
                move = new[int(rng.random() * len(new))]
                node.children[move] = child = Node(pos.to_move & 1)
                pos.push(move)
                pushed += 1
                path.append(child)
                break
            for m in moves:
                node.children[m].seen += 1
            children = node.children
            move = max(moves, key=lambda m: _ucb(children[m]))
            node = node.children[move]
            pos.push(move)
            pushed += 1
            path.append(node)
        pushed += random_playout(pos, rng, ROLLOUT_PLIES)
        red = self.reward(pos)
        for n in path:
            n.visits += 1
            n.wins += red if n.colour == 0 else 1.0 - red
        for _ in range(pushed):
            pos.pop()

    @staticmethod
    def reward(pos: Position) -> float:
        """Red's reward in 0 … 1: the result of a finished game (R19), else a logistic of Red's margin."""
        if not pos.legal_moves():
            return result(pos.bits, 0)
        return 1.0 / (1.0 + math.exp(-margin(pos, 0, HERO) / SCALE))


def _ucb(child: Node) -> float:
    """UCB1 with the child's availability in place of its parent's visits."""
    v = child.visits
    return child.wins / v + math.sqrt(EXPLORATION * EXPLORATION * math.log(child.seen) / v) if v else math.inf
