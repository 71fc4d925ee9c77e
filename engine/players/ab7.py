"""`ab7`: a fixed reference, a stand-in for the strongest published Rose King program.

Plain alpha-beta (negamax, fail-hard, moves in generation order) to a fixed depth of
seven plies; the evaluation is the score difference plus 30 points per unused hero
(R18, R5); a draw (R11) in the search is resolved by one card sampled from the cards
the player cannot see. No time cap. It is a yardstick for the ladder: do not tune it.
"""
from typing import Final

from engine.moves import DRAW, Move
from engine.players.base import Player
from engine.players.evaluate import final, margin
from engine.position import Position

DEPTH: Final = 7
HERO: Final = 30
INF: Final = 10**9


class AB7(Player):
    """Depth-7 alpha-beta; `work` counts the nodes of the last search."""

    name = "ab7"

    def search(self, pos: Position, moves: list[Move]) -> Move:
        view = self.view(pos)
        self.work = 0
        best, alpha = moves[0], -INF
        for move in moves:
            self._push(view, move)
            value = -self._negamax(view, DEPTH - 1, -INF, -alpha)
            view.pop()
            if value > alpha:
                best, alpha = move, value
        return best

    def _push(self, pos: Position, move: int) -> None:
        """Make `move`; a draw takes one card sampled from those the player cannot see."""
        if move == DRAW:
            cards = pos.pile or pos.discard  # R11: an empty pile is the reshuffled discard
            pos.push(DRAW, cards[int(self.rng.random() * len(cards))])
        else:
            pos.push(move)

    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int) -> int:
        """The value for the side to move, within (alpha, beta); colours alternate every ply (R8, R22)."""
        self.work += 1
        moves = pos.legal_moves()
        colour = pos.to_move & 1
        if not moves:
            return final(pos, colour)
        if depth == 0:
            return margin(pos, colour, HERO)
        for move in moves:
            self._push(pos, move)
            value = -self._negamax(pos, depth - 1, -beta, -alpha)
            pos.pop()
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
        return alpha
