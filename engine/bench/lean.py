"""The lean loop: a random game of The Rose King written plainly, the yardstick of the engine's speed.

What a competent programmer writes to play random games with no engine around it, in one
small module: the board as a list of 81 squares (0 empty, 1 red, 2 white), hands as lists
of cards, each card's target square worked out once for every square, and the rules of the
classic game — the deal (R7), a card (R10), a hero (R12, R13), a draw with the lazy
reshuffle of the discard pile (R11), the forced pass (R14), the last stone (R16), the
blockade (R17) — and the score by flood fill (R18) with its tie-breaks (R19). No bitboards,
no move objects, no undo, no records. Cards and moves are numbered as the engine numbers
them (NOTATION.md: card = direction × 3 + distance − 1; 24 + card a hero; 48 a draw), but
nothing of the engine is used. `roseking bench --only engine` sets the engine against it;
tests/test_lean.py checks that it plays the rules' games and scores them right.

>>> red, white, moves = game(random.Random(1))
>>> red[2] + white[2] <= STONES < moves
True
"""
import random

STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))  # N NE E SE S SW W NW (R2)
CARDS = [(df * n, dr * n) for df, dr in STEPS for n in (1, 2, 3)]  # R3: (file, rank) steps of each card
HAND, HEROES, STONES, CENTRE = 5, 4, 52, 40  # R11, R5, R4, R6 (e5)
HERO, DRAW = 24, 48  # a hero move is HERO + card


def _square(f: int, r: int) -> int:
    return r * 9 + f if 0 <= f < 9 and 0 <= r < 9 else -1


# TARGETS[square][card]: where the card sends the crown from that square, -1 off the board (R10).
TARGETS = [[_square(sq % 9 + df, sq // 9 + dr) for df, dr in CARDS] for sq in range(81)]
# NEIGHBOURS[square]: the squares sharing an edge with it (R18).
NEIGHBOURS = [[t for t in (_square(sq % 9 + df, sq // 9 + dr) for df, dr in STEPS[::2]) if t >= 0]
              for sq in range(81)]


def legal_moves(board: list[int], hand: list[int], heroes: int, crown: int, colour: int) -> list[int]:
    """The actions of the player of `colour` (1 red, 2 white) holding `hand` (R9–R13)."""
    moves = []
    targets = TARGETS[crown]
    for card in hand:
        t = targets[card]
        if t < 0:
            continue  # R13: off the board
        stone = board[t]
        if not stone:
            moves.append(card)  # R10
        elif stone != colour and heroes:
            moves.append(HERO + card)  # R12
    if len(hand) < HAND:
        moves.append(DRAW)  # R11
    return moves


def figures(board: list[int], colour: int) -> tuple[int, int, int]:
    """(score, largest region, stones) of `colour`: regions by flood fill (R18), what R19 compares."""
    seen = [False] * 81
    score = largest = stones = 0
    for start in range(81):
        if board[start] != colour or seen[start]:
            continue
        seen[start] = True
        todo, size = [start], 0
        while todo:
            sq = todo.pop()
            size += 1
            for n in NEIGHBOURS[sq]:
                if board[n] == colour and not seen[n]:
                    seen[n] = True
                    todo.append(n)
        score += size * size
        largest = max(largest, size)
        stones += size
    return score, largest, stones


def game(rng: random.Random) -> tuple[tuple[int, int, int], tuple[int, int, int], int]:
    """A whole random game: red's and white's (score, largest, stones) and the number of moves.

    The winner is the larger of the two by R19 (a draw when they are equal)."""
    cards = list(range(24))
    rng.shuffle(cards)  # R7
    hands, pile = [cards[:HAND], cards[HAND:2 * HAND]], cards[2 * HAND:]
    discard: list[int] = []
    board, heroes = [0] * 81, [HEROES, HEROES]
    crown, stones, seat, moves = CENTRE, 0, 0, 0
    while stones < STONES:  # R16
        hand = hands[seat]
        options = legal_moves(board, hand, heroes[seat], crown, seat + 1)
        if options:
            move = rng.choice(options)
            if move == DRAW:
                if not pile:  # R11: the discard pile, shuffled, becomes the draw pile
                    pile, discard = discard, []
                    rng.shuffle(pile)
                hand.append(pile.pop())
            else:
                card = move % HERO
                hand.remove(card)
                discard.append(card)
                crown = TARGETS[crown][card]
                board[crown] = seat + 1
                if move < HERO:
                    stones += 1  # R10: a stone from the supply
                else:
                    heroes[seat] -= 1  # R12: the stone flipped, the hero spent
        elif not legal_moves(board, hands[1 - seat], heroes[1 - seat], crown, 2 - seat):
            break  # R17: neither can act
        seat = 1 - seat  # R8; after no action, a pass (R14)
        moves += 1
    return figures(board, 1), figures(board, 2), moves


def games(n: int, seed: int = 7) -> int:
    """Play `n` random games from one generator; the red wins (so that nothing is optimised away)."""
    rng = random.Random(seed)
    wins = 0
    for _ in range(n):
        red, white, _ = game(rng)
        wins += red > white
    return wins
