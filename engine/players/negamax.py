"""`hard` and `max`: alpha-beta over several sampled piles, each with a transposition table.

The pile's order is the one thing a player cannot see (R7), so the search plays out
several views of it, each shuffled by the player's own generator (Player.view), with an
equal share of the node budget: one view per WORLD_NODES nodes, so that a bigger budget
averages over more piles rather than searching one pile deeper (which only plans further
on cards it will not necessarily draw). In each, a draw (R11) takes the top card of that
view's pile, except in the first CHANCE_PLIES plies, where a draw is a chance node: the
mean over the top CHANCE_CARDS cards, each drawn in turn, so that a choice near the root
cannot count on knowing the card a draw will bring. Iterative deepening searches every
root move with a full window, so each world gives every move an exact value v; the move
with the highest sum of v / (|v| + SQUASH) over the worlds is played
(perfect-information Monte Carlo, which blunts the clairvoyance of a single sampled
pile). The squash is nearly proportional to a close margin and nearly ±1 for a clear win
or loss, so a move that wins in more piles beats one that wins bigger in a few; IEEE
divisions summed in a fixed order give the same total on every machine. Positions are
keyed by a Zobrist hash updated move by move (stones, crown, hands, heroes, seat to
move); the table keeps each position's value bound and best move, which is tried first,
then the moves that caused cut-offs most (history heuristic). The evaluation is the
score difference plus HERO_POINTS per unused hero (R18, R5), or the `evaluation` a Negamax is
given (engine.learn's model, say). Budgets count nodes, so a seed and a budget give the same
move anywhere.
"""
import random
import time
from collections.abc import Callable, Iterable, Iterator
from typing import ClassVar, Final

from engine.moves import DRAW, HERO, Move
from engine.players.base import Budget, OutOfBudget, Searcher
from engine.players.evaluate import WIN, final, heroes
from engine.scoring import figures
from engine.position import TARGETS, Position, shuffle

HERO_POINTS: Final = 30  # the value of an unused hero to the evaluation
SQUASH: Final = 20  # a view's value v counts v / (|v| + SQUASH): winning in more views beats winning bigger in few
CHANCE_PLIES: Final = 2  # a draw this near the root (the root's moves and the replies) is a chance node …
CHANCE_CARDS: Final = 2  # … averaging this many cards from the top of the view's pile
MAX_DEPTH = 64
CHECK_EVERY: Final = 1024  # nodes between looks at the clock
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2

_rng = random.Random(20260101)  # fixed: the same keys on every machine; 62 bits, which mypyc keeps unboxed
Z_STONE: Final = [[_rng.getrandbits(62) for _ in range(81)] for _ in range(2)]
Z_CROWN: Final = [_rng.getrandbits(62) for _ in range(81)]
Z_CARD: Final = [[_rng.getrandbits(62) for _ in range(24)] for _ in range(4)]
Z_HEROES: Final = [[_rng.getrandbits(62) for _ in range(5)] for _ in range(4)]
Z_TURN: Final = [_rng.getrandbits(62) for _ in range(4)]


def squashed_best(order: list[Move], views: Iterable[dict[Move, int] | None]) -> Move:
    """The move of `order` with the highest sum of v / (|v| + SQUASH) over the views' values (the
    first in `order` on a tie); the views end at the first None."""
    totals = dict.fromkeys(order, 0.0)
    for values in views:
        if values is None:
            break
        for move, value in values.items():
            totals[move] += value / (abs(value) + SQUASH)
    return max(order, key=totals.__getitem__)


def zobrist(pos: Position) -> int:
    """The hash of what the search tells positions apart by: stones, crown, hands, heroes, turn."""
    key = Z_CROWN[pos.crown] ^ Z_TURN[pos.to_move]
    for sq, stone in enumerate(pos.board):
        if stone:
            key ^= Z_STONE[stone - 1][sq]
    for seat, hand in enumerate(pos.hands):
        for card in hand:
            key ^= Z_CARD[seat][card]
        key ^= Z_HEROES[seat][pos.heroes[seat]]
    return key


class Negamax(Searcher):
    """The searching player of `hard` and `max`; `budget.work` counts nodes over all worlds."""

    name = "negamax"
    DEFAULT_BUDGET: ClassVar[Budget] = Budget(10000, 2.0)
    WORLD_NODES: ClassVar[int] = 2500  # nodes per sampled pile: a bigger budget samples more piles, not deeper

    def __init__(self, seed: int | None = None, budget: Budget | None = None,
                 evaluation: Callable[[Position, int], int] | None = None) -> None:
        super().__init__(seed, budget)
        self.evaluation = evaluation  # (position, colour) -> value of an unfinished position; None: `evaluate`

    def search(self, pos: Position, moves: list[Move]) -> Move:
        order = list(moves)
        shuffle(self.rng, order)  # a random tie-break among equal moves
        return squashed_best(order, self._views(pos, order))

    def root_values(self, pos: Position) -> list[int]:
        """The value of the best move in each view that a search of `pos` (a choice of two moves or more)
        makes, within the player's budget: what the search concludes, pile by pile (engine.learn's targets)."""
        return [max(values.values()) for values in self._views(pos, pos.legal_moves()) if values is not None]

    def _views(self, pos: Position, order: list[Move]) -> Iterator[dict[Move, int] | None]:
        """Each view's root values (None: out of time before a first look at every move), work counted: the
        search's clock and count start at the first."""
        self.deadline = time.perf_counter() + self.limits.seconds
        self.work = 0
        worlds = max(1, self.limits.work // self.WORLD_NODES)
        for _ in range(worlds):
            values = self._values(self.view(pos), order, self.limits.work // worlds)
            self.work += self.nodes
            yield values

    def _values(self, view: Position, order: list[Move], nodes: int) -> dict[Move, int] | None:
        """Each root move's value in the deepest iteration finished within `nodes` on one view."""
        self.nodes = 0
        self.limit = nodes
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.scores: dict[int, int] = {}
        self.history = [0] * 50
        key = zobrist(view)
        order = list(order)
        values = None
        try:
            for depth in range(1, MAX_DEPTH + 1):
                self.horizon = depth
                current = {move: -self._child(view, key, move, depth - 1, -2 * WIN, 2 * WIN) for move in order}
                values = current
                order.sort(key=current.__getitem__, reverse=True)  # the best first next time
                if all(abs(v) >= WIN - 400 for v in current.values()):
                    break  # every result is decided
        except OutOfBudget:
            pass
        return values

    def _child(self, pos: Position, key: int, move: int, depth: int, alpha: int, beta: int) -> int:
        """Make `move`, search the position after it (value for the side then to move), unmake."""
        if move == DRAW and self.horizon - depth <= CHANCE_PLIES and len(pos.pile) >= CHANCE_CARDS:
            return self._chance(pos, key, depth)
        value = self._negamax(pos, self.key_after(pos, key, move), depth, alpha, beta)
        pos.pop()  # OutOfBudget skips this: the view is thrown away then
        return value

    def _chance(self, pos: Position, key: int, depth: int) -> int:
        """A draw as a chance node: the mean value over the top CHANCE_CARDS cards of the view's
        pile, each drawn in turn with the rest of the pile left in its order (R11)."""
        total = 0
        for card in pos.pile[-CHANCE_CARDS:]:
            total += self._negamax(pos, self.key_after(pos, key, DRAW, card), depth, -2 * WIN, 2 * WIN)
            pos.pop()
        return total // CHANCE_CARDS

    @staticmethod
    def key_after(pos: Position, key: int, move: int, card: int | None = None) -> int:
        """Push `move` on `pos` and return the Zobrist key after it, from `key` before it.

        A draw takes `card` when given, as in `Position.push`, else the top card."""
        seat = pos.to_move
        key ^= Z_TURN[seat] ^ Z_TURN[(seat + 1) % pos.n_seats]
        if move < DRAW:
            card = move if move < HERO else move - HERO
            crown = pos.crown
            t = TARGETS[crown][card]
            colour = seat & 1
            key ^= Z_CROWN[crown] ^ Z_CROWN[t] ^ Z_STONE[colour][t] ^ Z_CARD[seat][card]
            if move >= HERO:
                n = pos.heroes[seat]
                key ^= Z_STONE[1 - colour][t] ^ Z_HEROES[seat][n] ^ Z_HEROES[seat][n - 1]
            pos.push(move)
        else:
            pos.push(move, card)
            if move == DRAW:
                key ^= Z_CARD[seat][pos.last_drawn()]
        return key

    def evaluate(self, pos: Position, colour: int) -> int:
        """The value of an unfinished position for `colour`: score difference and heroes (R18, R5).

        Scores are kept by bitboard for the search: siblings share one colour's stones.
        """
        if self.evaluation is not None:
            return self.evaluation(pos, colour)
        scores = self.scores
        mine, theirs = pos.bits[colour], pos.bits[1 - colour]
        a = scores.get(mine)
        if a is None:
            a = scores[mine] = figures(mine)[0]
        b = scores.get(theirs)
        if b is None:
            b = scores[theirs] = figures(theirs)[0]
        return a - b + HERO_POINTS * (heroes(pos, colour) - heroes(pos, 1 - colour))

    def _negamax(self, pos: Position, key: int, depth: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta value for the side to move (colours alternate every ply, R8, R22)."""
        if self.nodes >= self.limit or (self.nodes % CHECK_EVERY == 0 and time.perf_counter() > self.deadline):
            raise OutOfBudget
        self.nodes += 1
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            d, v, flag, first = entry
            if d >= depth and (flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha)):
                return v
        moves = pos.legal_moves()
        if not moves:
            return final(pos, pos.to_move & 1)
        if depth <= 0:
            return self.evaluate(pos, pos.to_move & 1)
        history = self.history
        moves.sort(key=lambda m: m == first and 1 << 60 or history[m], reverse=True)
        start = alpha
        best, best_move = -WIN * 2, moves[0]
        for move in moves:
            value = -self._child(pos, key, move, depth - 1, -beta, -alpha)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        history[move] += depth * depth
                        break
        flag = LOWER if best >= beta else UPPER if best <= start else EXACT
        self.table[key] = (depth, best, flag, best_move)
        return best
