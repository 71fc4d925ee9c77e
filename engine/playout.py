"""Random games: the uniformly random player's whole game, as fast as the core allows.

The loop works on the position's lists directly. It makes the common moves — a card,
a hero, a draw from a pile of two or more cards — with exactly `Position.push`'s
effects (the same stack entries, so `pop` unmakes them); anything rarer (a draw that
may reshuffle, a pass, the end) goes through `push` and `legal_moves` themselves.
The moves are chosen among `legal_moves()` in its order, so a seed gives the same game
as choosing from `legal_moves()` one push at a time.
"""
from __future__ import annotations

import random
from itertools import count, repeat
from typing import TYPE_CHECKING

from engine.moves import DRAW, HERO
from engine.position import TARGETS
from engine.variants import STONES

if TYPE_CHECKING:
    from engine.outcomes import Outcome
    from engine.position import Position


def random_playout(pos: Position, rng: random.Random, plies: int | None = None) -> Outcome | None:
    """Play uniformly random legal moves on `pos` until the game ends (or `plies` moves are made).

    Returns `pos.outcome()`. The moves are pushed, so `pos.history()` and `pos.pop()`
    still work afterwards.
    """
    rand = rng.random
    board, bits, hands, heroes, stack = pos.board, pos.bits, pos.hands, pos.heroes, pos.stack
    pile, discard = pos.pile, pos.discard
    limit, after = pos.hand_limit, [*range(1, pos.n_seats), 0]  # the next seat (R8, R22)
    seat, crown, stones = pos.to_move, pos.crown, pos.stones
    for _ in count() if plies is None else repeat(None, plies):
        if stones >= STONES:
            break  # R16
        target = TARGETS[crown]
        hand = hands[seat]
        moves: list[int] = []
        if heroes[seat]:
            mine = (seat & 1) + 1
            for card in hand:
                t = target[card]
                if t >= 0:
                    s = board[t]
                    if not s:
                        moves.append(card)  # R10
                    elif s != mine:
                        moves.append(card + HERO)  # R12
        else:
            for card in hand:
                t = target[card]
                if t >= 0 and not board[t]:
                    moves.append(card)  # R10
        if len(hand) < limit:
            moves.append(DRAW)  # R11
        elif not moves:
            pos.crown, pos.stones, pos.to_move = crown, stones, seat
            moves = [int(m) for m in pos.legal_moves()]  # R14 pass or R17 blockade
            if not moves:
                break
        move = moves[int(rand() * len(moves))]
        if move < DRAW:
            if move < HERO:
                c = move
                stones += 1  # R10
            else:
                c = move - HERO
            i = hand.index(c)
            del hand[i]
            discard.append(c)
            t = target[c]
            colour = seat & 1
            board[t] = colour + 1
            bit = 1 << t
            bits[colour] |= bit
            if move >= HERO:
                bits[1 - colour] ^= bit  # R12: flipped
                heroes[seat] -= 1
            stack.append((move, i, crown))
            crown = t
            seat = after[seat]
        elif move == DRAW and len(pile) > 1:
            card = pile.pop()  # R11: no reshuffle can follow
            hand.append(card)
            stack.append((move, card, None))
            seat = after[seat]
        else:
            pos.crown, pos.stones, pos.to_move = crown, stones, seat
            pos.push(move)
            seat, pile, discard = pos.to_move, pos.pile, pos.discard  # a reshuffle replaces the piles
    pos.crown, pos.stones, pos.to_move = crown, stones, seat
    return pos.outcome()
