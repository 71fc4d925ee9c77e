"""Monte Carlo tree search over the draw as chance (determinized, open-hand ISMCTS).

Everything at the table is open except the order of the draw pile (R7), so the search
runs on one determinized copy whose pile is reshuffled before every iteration. A draw
(R11) leads to a chance node whose children are keyed by the card drawn; the card is
whatever the shuffled pile yields, i.e. uniform over the cards the player cannot see.
Each node keeps the wins of the colour that moved into it; selection is UCT, the
playout is uniformly random (engine.playout), the reward 1/½/0 by R19.
"""
import math
import random
import time
from typing import Final

from engine.moves import DRAW, Move
from engine.players.base import Searcher
from engine.players.evaluate import result
from engine.playout import random_playout
from engine.position import Position, shuffle

EXPLORATION: Final = 0.7
CHECK_EVERY: Final = 32  # iterations between looks at the clock


class Node:
    """A decision node (moves not yet tried in `untried`) or, after a draw, a chance node
    (`outcomes`: card -> decision node)."""

    __slots__ = ("colour", "visits", "wins", "untried", "children", "outcomes")

    def __init__(self, colour: int) -> None:
        self.colour = colour  # the colour that moved into this node
        self.visits = 0
        self.wins = 0.0
        self.untried: list[Move] | None = None  # legal moves still to expand; None until first visited
        self.children: list[tuple[Move, Node]] = []
        self.outcomes: dict[int, Node] | None = None


class MCTS(Searcher):
    """The searching player; `budget.work` is the number of iterations."""

    name = "mcts"

    def search(self, pos: Position, moves: list[Move]) -> Move:
        rng = self.rng
        work = self.view(pos)
        root = Node(1 - (pos.to_move & 1))
        root.untried = list(moves)
        shuffle(rng, root.untried)
        limit = self.limits.work
        deadline = time.perf_counter() + self.limits.seconds
        done = 0
        while done < limit:
            shuffle(rng, work.pile)  # a fresh determinization (R7, R11)
            self._iterate(root, work, rng)
            done += 1
            if done % CHECK_EVERY == 0 and (time.perf_counter() > deadline or _settled(root, limit - done)):
                break
        self.work = done
        return max(root.children, key=lambda mc: mc[1].visits)[0]

    def _iterate(self, root: Node, pos: Position, rng: random.Random) -> None:
        """Select, expand one node, play out at random, back the result up."""
        path = [root]
        node = root
        pushed = 0
        while True:
            if node.untried is None:
                node.untried = pos.legal_moves()
                shuffle(rng, node.untried)
            if node.untried:
                node = self._expand(node, pos, path)
                pushed += 1
                break
            if not node.children:
                break  # the game is over here
            move, node = _select(node)
            pos.push(move)
            pushed += 1
            path.append(node)
            if move == DRAW:
                card = pos.last_drawn()
                assert node.outcomes is not None  # a draw's node always has its chance outcomes
                child = node.outcomes.get(card)
                if child is None:
                    child = node.outcomes[card] = Node(node.colour)
                    path.append(child)
                    break
                node = child
                path.append(node)
        sim = pos.copy(rng=rng)  # one random stream for the playout's moves and reshuffles
        random_playout(sim, rng, undo=False)
        red = self.reward(sim.bits)
        for n in path:
            n.visits += 1
            n.wins += red if n.colour == 0 else 1.0 - red
        for _ in range(pushed):
            pos.pop()

    @staticmethod
    def reward(bits: list[int]) -> float:
        """Red's reward for a finished board: 1, ½ or 0 (R19)."""
        return result(bits, 0)

    @staticmethod
    def _expand(node: Node, pos: Position, path: list[Node]) -> Node:
        """Add the child for one untried move, push it and return the new leaf."""
        assert node.untried
        move = node.untried.pop()
        child = Node(pos.to_move & 1)
        node.children.append((move, child))
        pos.push(move)
        path.append(child)
        if move == DRAW:
            leaf = Node(child.colour)
            child.outcomes = {pos.last_drawn(): leaf}
            path.append(leaf)
            return leaf
        return child


def _select(node: Node) -> tuple[Move, Node]:
    """The child with the highest UCT value."""
    log_n = EXPLORATION * EXPLORATION * math.log(node.visits)
    best, best_value = node.children[0], -1.0
    for mc in node.children:
        child = mc[1]
        v = child.visits
        value = child.wins / v + math.sqrt(log_n / v)
        if value > best_value:
            best, best_value = mc, value
    return best


def _settled(root: Node, remaining: int) -> bool:
    """Whether no other move can catch up with the most visited one in `remaining` iterations."""
    visits = sorted((c.visits for _, c in root.children), reverse=True)
    return len(visits) > 1 and visits[0] - visits[1] > remaining
