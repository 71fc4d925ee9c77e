"""The player interface: a player chooses a legal move for the side to move.

Players see only what a player at the table sees (R7): hands, heroes, board, discard
and how many cards are in the draw pile, never its order. A searching player starts
from `Player.view(pos)`, never from the position it was given.
"""
import random
from dataclasses import dataclass
from typing import ClassVar

from engine.errors import RoseKingError
from engine.moves import Move
from engine.position import Position, shuffle


@dataclass(frozen=True)
class Budget:
    """How long a player may think: `work` iterations or nodes (reproducible) and a
    wall-clock cap in `seconds` (a safety net on slow machines)."""

    work: int
    seconds: float


class OutOfBudget(Exception):
    """A search's work budget or time cap is spent."""


class Player:
    """A player; `choose(pos)` returns a legal Move for `pos.to_move` and never changes `pos`.

    The same `seed` and budget give the same moves for the same positions in the same order.
    """

    name = "player"

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        self.rng = random.Random(seed)
        self.budget: Budget | None = budget
        self.work = 0  # iterations or nodes spent on the last search

    def choose(self, pos: Position) -> Move:
        """The move to play; a lone legal move is played without thinking (R14 passes, say)."""
        moves = pos.legal_moves()
        if not moves:
            raise RoseKingError(f"the game is over ({pos.outcome()}): there is no move to choose")
        if len(moves) == 1:
            self.work = 0
            return moves[0]
        return self.search(pos, moves)

    def view(self, pos: Position) -> Position:
        """A copy of `pos` with the draw pile in an order drawn from the player's own rng (R7).

        The pile is put in card order before the shuffle, so the copy, and everything the
        player does with it, depends on which cards are in the pile, never on their order.
        """
        work = pos.determinized(self.rng)
        work.pile.sort()
        shuffle(self.rng, work.pile)
        return work

    def search(self, pos: Position, moves: list[Move]) -> Move:
        """The move to play among `moves` (at least two)."""
        raise NotImplementedError

    def hint(self, pos: Position) -> Move:
        """The player's best move for the side to move: the one it would play."""
        return self.choose(pos)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class Searcher(Player):
    """A player that thinks within a budget: its own, or DEFAULT_BUDGET when given none; `limits` is
    that budget (`budget` too, which a player that does not search may have none of)."""

    DEFAULT_BUDGET: ClassVar[Budget] = Budget(3000, 1.0)

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        self.limits: Budget = budget or self.DEFAULT_BUDGET
        super().__init__(seed, self.limits)
