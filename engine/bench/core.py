"""Speed figures of the engine core, measured on fixed seeds (single thread, median of runs)."""
import random
import statistics
import timeit
from collections.abc import Callable

from engine.playout import random_playout
from engine.position import Position

RUNS = 5


def median_seconds(work: Callable[[], object], runs: int = RUNS) -> float:
    """The median wall-clock time of `runs` calls of `work()`: timeit's clock and loop, garbage collection on."""
    return statistics.median(timeit.repeat(work, "gc.enable()", number=1, repeat=runs))


def sample_positions(n: int = 200, seed: int = 1) -> list[Position]:
    """`n` positions from random games, cut at random plies: the bench's fixed workload."""
    rng = random.Random(seed)
    out = []
    for g in range(n):
        pos = Position.new(seed=seed * 100_000 + g)
        random_playout(pos, rng, rng.randrange(1, 160))
        out.append(pos)
    return out


def games(n: int) -> None:
    """`n` complete random games from fixed seeds as `roseking simulate` plays them without records: the
    deal, the playout (no undo kept, as in the lean loop) and the full score."""
    rng = random.Random(7)
    for g in range(n):
        pos = Position.new(seed=g)
        random_playout(pos, rng, undo=False)
        pos.score()


def figures(quick: bool = False) -> dict[str, int]:
    """Complete random games, legal-move generations and full scorings per second (`quick`: one run
    of a tenth of the work)."""
    n, runs, reps = (30, 1, 2) if quick else (300, RUNS, 25)
    positions = sample_positions(20 if quick else 200)

    def legal() -> None:
        for _ in range(reps):
            for pos in positions:
                pos.legal_moves()

    def score() -> None:
        for pos in positions:
            pos.score()

    return {
        "random_games_per_s": round(n / median_seconds(lambda: games(n), runs)),
        "legal_move_generations_per_s": round(reps * len(positions) / median_seconds(legal, runs)),
        "scorings_per_s": round(len(positions) / median_seconds(score, runs)),
    }
