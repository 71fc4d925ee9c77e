"""Statistics for match results: Wilson score intervals, Elo ratings and a sequential test.

>>> [round(x, 3) for x in wilson(90, 100)]
[0.826, 0.945]
>>> round(elo_difference(0.75))
191
"""
import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval (low, high) of a proportion `wins`/`n` (wins may be x.5)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def proportion(k: float, n: int) -> tuple[float | None, list[float]]:
    """`(k / n, [low, high])` rounded to 4 places, the interval by `wilson`; the rate is None for n = 0."""
    lo, hi = wilson(k, n)
    return (round(k / n, 4) if n else None), [round(lo, 4), round(hi, 4)]


def elo_difference(score: float) -> float:
    """The Elo difference implied by an expected score in (0, 1)."""
    return -400 * math.log10(1 / score - 1)


def elo_ratings(points: Mapping[tuple[str, str], tuple[float, int]], rounds: int = 200) -> dict[str, float]:
    """Elo ratings (mean 0) fitted to `points[(a, b)]` = (points of a, games) by Bradley–Terry.

    Draws count half a point. Each pairing gets one virtual draw so that a clean sweep
    gives a finite rating.
    """
    names = sorted({n for pair in points for n in pair})
    won = {n: 0.0 for n in names}
    games: dict[tuple[str, str], int] = {}
    for (a, b), (pts, n) in points.items():
        won[a] += pts + 0.5
        won[b] += n - pts + 0.5
        games[a, b] = games[b, a] = games.get((a, b), 0) + n + 1
    gamma = {n: 1.0 for n in names}
    for _ in range(rounds):
        for a in names:
            denom = sum(g / (gamma[a] + gamma[b]) for (x, b), g in games.items() if x == a)
            gamma[a] = won[a] / denom if denom else 1.0
        mean = sum(math.log10(g) for g in gamma.values()) / len(names)
        gamma = {n: g / 10 ** mean for n, g in gamma.items()}
    return {n: 400 * math.log10(gamma[n]) for n in names}


SPRT_MIN_PAIRS = 10  # no verdict before this many deals (each played twice)


def sprt(pair_scores: Sequence[float], p0: float, p1: float, alpha: float = 0.05,
         beta: float = 0.05) -> tuple[float, tuple[float, float], str | None]:
    """A sequential probability ratio test on paired games: `(llr, (lower, upper), verdict)`.

    `pair_scores` holds one player's mean score on each deal played twice (0, ¼, ½, ¾, 1),
    H0 says its expected score is `p0`, H1 that it is `p1` (> p0). The log-likelihood ratio
    uses the normal approximation with the pairs' own variance (the GSPRT of chess engine
    testing); the verdict is "H1" or "H0" once it leaves the bounds, else None.

    >>> llr, bounds, verdict = sprt([1.0, 0.75] * 10, 0.5, 0.6)
    >>> verdict, [round(b, 2) for b in bounds]
    ('H1', [-2.94, 2.94])
    """
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = len(pair_scores)
    if n < SPRT_MIN_PAIRS:
        return 0.0, (lower, upper), None
    mean = sum(pair_scores) / n
    var = max(sum((x - mean) ** 2 for x in pair_scores) / n, 1e-3)
    llr = (p1 - p0) * (2 * mean - p0 - p1) * n / (2 * var)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else None
    return llr, (lower, upper), verdict
