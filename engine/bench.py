"""Speed figures of the engine core, measured on fixed seeds (single thread, median of runs)."""
import random
import statistics
import time

from engine.playout import random_playout
from engine.position import Position

RUNS = 5


def _rate(work, count):
    """Median operations per second of `work()`, which performs `count` operations."""
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        work()
        times.append(time.perf_counter() - t)
    return round(count / statistics.median(times))


def sample_positions(n=200, seed=1):
    """`n` positions from random games, cut at random plies: the bench's fixed workload."""
    rng = random.Random(seed)
    out = []
    for g in range(n):
        pos = Position.new(seed=seed * 100_000 + g)
        random_playout(pos, rng, rng.randrange(1, 160))
        out.append(pos)
    return out


def figures():
    """Complete random games, legal-move generations and full scorings per second."""
    games = 300

    def play():
        rng = random.Random(7)
        for g in range(games):
            pos = Position.new(seed=g)
            random_playout(pos, rng)
            pos.score()

    positions = sample_positions()
    reps = 25

    def legal():
        for _ in range(reps):
            for pos in positions:
                pos.legal_moves()

    def score():
        for pos in positions:
            pos.score()

    return {
        "random_games_per_s": _rate(play, games),
        "legal_move_generations_per_s": _rate(legal, reps * len(positions)),
        "scorings_per_s": _rate(score, len(positions)),
    }
