"""Elo ratings with their uncertainty: the Bradley–Terry fit of `engine.stats` and its Fisher information.

>>> r = elo_intervals({("a", "b"): (75, 100)})
>>> round(r["a"][0] - r["b"][0]), round(r["a"][1])
(189, 39)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.stats import Z95, elo_ratings


def elo_intervals(points: dict[tuple[str, str], tuple[float, int]]) -> dict[str, tuple[float, float]]:
    """(rating, half-width of its 95% interval) per player, `points` as `elo_ratings` takes them.

    The ratings are `elo_ratings(points)` (mean 0); their covariance is the pseudo-inverse
    of the fit's Fisher information, counting the virtual draw the fit adds to each pairing.
    """
    ratings = elo_ratings(points)
    names = sorted(ratings)
    at = {name: i for i, name in enumerate(names)}
    info = np.zeros((len(names), len(names)))
    slope = math.log(10) / 400
    for (a, b), (_, games) in points.items():
        p = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
        w = (games + 1) * p * (1 - p) * slope * slope
        i, j = at[a], at[b]
        info[i, i] += w
        info[j, j] += w
        info[i, j] -= w
        info[j, i] -= w
    errors = np.sqrt(np.clip(np.diag(np.linalg.pinv(info)), 0.0, None))
    return {name: (ratings[name], Z95 * float(errors[at[name]])) for name in names}


def elo_ratings_with_errors(table: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """(Elo, 95% half-width) per side of a tournament table (`Standings.to_dict()`)."""
    return elo_intervals({(p["player"], p["opponent"]): (p["wins"] + p["draws"] / 2, p["games"])
                          for p in table["pairings"]})
