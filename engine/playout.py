"""Random games: the uniformly random player's whole game, as fast as the core allows.

The loop works on the position's lists directly. It makes every move — a card, a hero,
a draw (with the reshuffles of R11), a pass (R14) — with exactly `Position.push`'s effects
(the same stack entries, so `pop` unmakes them; the bitboards are brought up to date from
the board once, at the end), and ends where `legal_moves()` would be empty (R16, R17). The
moves are chosen among `legal_moves()` in its order, a forced pass too, so a seed gives the
same game as choosing from `legal_moves()` one push at a time (a property test holds it to
that).
"""
from __future__ import annotations

import random
from itertools import count
from typing import TYPE_CHECKING

from engine.moves import DRAW, HERO, PASS
from engine.position import FLOATS, TARGETS
from engine.scoring import bitboards
from engine.variants import STONES, Reshuffle

if TYPE_CHECKING:
    from engine.position import Position


def random_playout(pos: Position, rng: random.Random, plies: int | None = None, undo: bool = True) -> int:
    """Play uniformly random legal moves on `pos` until the game ends (or `plies` moves are made);
    the number of moves made.

    The moves are pushed, so `pos.history()` and `pos.pop()` still work afterwards; with
    `undo=False` the position forgets its moves instead (its stack is emptied, as a copy's
    is), which is faster for a position thrown away after its game.
    """
    rand = rng.random
    board, hands, heroes, stack = pos.board, pos.hands, pos.heroes, pos.stack
    pile, discard, eager = pos.pile, pos.discard, pos.reshuffle == Reshuffle.EAGER
    limit, seats = pos.hand_limit, pos.n_seats
    after = [*range(1, seats), 0]  # the next seat (R8, R22)
    others = [[(s + k) % seats for k in range(1, seats)] for s in range(seats)]  # the seats after each, in turn
    seat, crown, stones = pos.to_move, pos.crown, pos.stones
    moves = [0] * 25  # a ply's moves, kept across plies: a card of each of 24 at most, and a draw
    made = 0
    for made in count() if plies is None else range(plies):  # noqa: B007  `made`: the moves made before this one
        if stones >= STONES:
            break  # R16
        target = TARGETS[crown]
        hand = hands[seat]
        n = 0  # the moves of this ply are moves[:n]
        if heroes[seat]:
            mine = (seat & 1) + 1
            for card in hand:
                t = target[card]
                if t >= 0:
                    s = board[t]
                    if not s:
                        moves[n] = card  # R10
                        n += 1
                    elif s != mine:
                        moves[n] = card + HERO  # R12
                        n += 1
        else:
            for card in hand:
                t = target[card]
                if t >= 0 and not board[t]:
                    moves[n] = card  # R10
                    n += 1
        if len(hand) < limit:
            moves[n] = DRAW  # R11
            n += 1
        elif not n:
            pos.crown = crown
            for other in others[seat]:
                if pos.can_act(other):
                    break
            else:
                break  # R17: nobody can act
            rand()  # R14: a pass, the one move legal_moves() offers, chosen as any other
            if undo:
                stack.append((PASS, 0, None))
            seat = after[seat]
            continue
        move = moves[int(rand() * FLOATS[n])]
        if move < DRAW:
            if move < HERO:
                c = move
                stones += 1  # R10
            else:
                c = move - HERO
                heroes[seat] -= 1  # R12: the stone is flipped below
            discard.append(c)
            t = target[c]
            board[t] = (seat & 1) + 1
            if undo:
                i = hand.index(c)
                del hand[i]
                stack.append((move, i, crown))
            else:
                hand.remove(c)
            crown = t
        else:
            saved = None
            if len(pile) < 2:  # this draw may reshuffle (R11): `pop` needs the piles as they were
                if undo:
                    saved = (pile[:], discard[:])
                if not pile:
                    pos._reshuffle()  # R11: lazy, at the next draw
                    pile, discard = pos.pile, pos.discard
            card = pile.pop()
            hand.append(card)
            if eager and not pile:
                pos._reshuffle()  # R11 option: eager, on the last card
                pile, discard = pos.pile, pos.discard
            if undo:
                stack.append((move, card, saved))
        seat = after[seat]
    else:
        made = plies or 0  # every move asked for was made
    pos.crown, pos.stones, pos.to_move = crown, stones, seat
    pos.bits[0], pos.bits[1] = bitboards(board)
    if not undo:
        stack.clear()
    return made
