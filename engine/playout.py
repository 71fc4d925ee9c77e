"""Random games: the uniformly random player's whole game, as fast as the core allows."""


def random_playout(pos, rng):
    """Play uniformly random legal moves on `pos` until the game ends; returns the reason.

    The moves are pushed, so `pos.history()` and `pos.pop()` still work afterwards.
    """
    rand = rng.random
    legal = pos.legal_moves
    push = pos.push
    while True:
        moves = legal()
        if not moves:
            return pos.outcome()
        push(moves[int(rand() * len(moves))])
