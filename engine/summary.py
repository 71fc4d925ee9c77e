"""The summary of a simulation: wins per player and per colour with 95% Wilson intervals,
scores, game length, end reasons (R16, R17), first-player advantage and hero use.

Figures are kept as running sums, so a summary of millions of games stays small, and
summaries of parts of a run merge into the summary of the whole (`Summary.merge`).
"""
from __future__ import annotations

import functools
import math
import operator
from collections.abc import Iterable, Sequence
from typing import Any

from engine.outcomes import Winner
from engine.simulate import Game
from engine.stats import proportion
from engine.variants import COLOURS


class Spread:
    """Running mean, standard deviation, minimum and maximum of a series."""

    def __init__(self) -> None:
        self.n, self.total, self.squares = 0, 0.0, 0.0
        self.low: float | None = None
        self.high: float | None = None

    def add(self, x: float) -> None:
        """Take one more value."""
        self.n += 1
        self.total += x
        self.squares += x * x
        if self.low is None or x < self.low:
            self.low = x
        if self.high is None or x > self.high:
            self.high = x

    def extend(self, xs: Sequence[float]) -> None:
        """Take the values `xs`, as `add` would one by one (the sums are exact for whole numbers)."""
        if not xs:
            return
        self.n += len(xs)
        self.total += sum(xs)
        self.squares += sum(map(operator.mul, xs, xs))
        low, high = min(xs), max(xs)
        self.low = low if self.low is None else min(self.low, low)
        self.high = high if self.high is None else max(self.high, high)

    def merge(self, other: Spread) -> None:
        """Take the values `other` took (after these: the sums are exact for whole numbers)."""
        self.n += other.n
        self.total += other.total
        self.squares += other.squares
        for x in (other.low, other.high):
            if x is not None:
                self.low = x if self.low is None else min(self.low, x)
                self.high = x if self.high is None else max(self.high, x)

    def to_dict(self) -> dict[str, float | None]:
        """mean and sd (2 places), min and max; all None before the first value."""
        if not self.n:
            return {"mean": None, "sd": None, "min": None, "max": None}
        mean = self.total / self.n
        var = (self.squares - self.n * mean * mean) / (self.n - 1) if self.n > 1 else 0.0
        return {"mean": round(mean, 2), "sd": round(math.sqrt(max(var, 0.0)), 2),
                "min": self.low, "max": self.high}


def _rate(k: float, n: int) -> dict[str, Any]:
    rate, ci95 = proportion(k, n)
    return {"rate": rate, "ci95": ci95}


@functools.lru_cache(maxsize=256)
def _sides(players: tuple[str, ...]) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each player of a lineup, in seat order, with the colours it plays (R20-R22: seats alternate)."""
    return tuple((name, frozenset(COLOURS[k & 1] for k, n in enumerate(players) if n == name))
                 for name in dict.fromkeys(players))


class Summary:
    """Add finished Games (engine.simulate.Game) one by one; `to_dict()` and `text()` report."""

    def __init__(self) -> None:
        self.games = 0
        self.players: dict[str, list[int]] = {}  # name -> [games against others, wins, draws, games against itself]
        self.colours: dict[str, int] = {w: 0 for w in Winner}
        self.scores = {c: Spread() for c in COLOURS}
        self.margin = Spread()
        self.length = Spread()
        self.reasons: dict[str, int] = {}
        self.first_won = 0
        self.heroes = {c: Spread() for c in COLOURS}

    def add(self, g: Game) -> None:
        """Count one finished game."""
        self.extend([g])

    def extend(self, games: Sequence[Game]) -> None:
        """Count finished games, in order (a task's at once: the spreads take each column whole)."""
        for g in games:
            self.games += 1
            self.colours[g.winner] += 1
            for name, colours in _sides(g.players):
                row = self.players.setdefault(name, [0, 0, 0, 0])
                if len(colours) == 2:  # on both sides: the game says nothing of its strength
                    row[3] += 1
                    continue
                row[0] += 1
                row[1] += g.winner in colours
                row[2] += g.winner == Winner.DRAW
            reason = str(g.reason)
            self.reasons[reason] = self.reasons.get(reason, 0) + 1
            self.first_won += g.winner == COLOURS[g.first]
        self.scores["red"].extend([g.red for g in games])
        self.scores["white"].extend([g.white for g in games])
        self.margin.extend([g.red - g.white for g in games])
        self.length.extend([g.moves for g in games])
        for k, c in enumerate(COLOURS):
            self.heroes[c].extend([g.heroes[k] for g in games])

    @classmethod
    def of(cls, games: Iterable[Game]) -> Summary:
        """The summary of `games` (a task's fold, see engine.simulate.Fold)."""
        summary = cls()
        summary.extend(list(games))
        return summary

    def merge(self, other: Summary) -> None:
        """Count the games `other` counted, as if added after these ones."""
        self.games += other.games
        for name, row in other.players.items():
            mine = self.players.setdefault(name, [0, 0, 0, 0])
            for k, v in enumerate(row):
                mine[k] += v
        for w, k in other.colours.items():
            self.colours[w] += k
        for c in COLOURS:
            self.scores[c].merge(other.scores[c])
            self.heroes[c].merge(other.heroes[c])
        self.margin.merge(other.margin)
        self.length.merge(other.length)
        for reason, k in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + k
        self.first_won += other.first_won

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data (the shape `roseking simulate --json` prints)."""
        n = self.games
        return {
            "games": n,
            "players": {name: {"games": k, "wins": w, "draws": d, **_rate(w + d / 2, k), "games_against_itself": m}
                        for name, (k, w, d, m) in self.players.items()},
            "colours": {c: {"wins": self.colours[c], **_rate(self.colours[c], n)} for c in COLOURS}
            | {"draws": self.colours[Winner.DRAW]},
            "scores": {c: s.to_dict() for c, s in self.scores.items()} | {"margin_red": self.margin.to_dict()},
            "moves": self.length.to_dict(),
            "reasons": dict(sorted(self.reasons.items())),
            "first_player_wins": {"wins": self.first_won, **_rate(self.first_won, n)},
            "heroes_used": {c: s.to_dict() for c, s in self.heroes.items()},
        }

    def text(self) -> str:
        """The summary for a person, a few aligned lines."""
        d = self.to_dict()

        def pct(r: dict[str, Any]) -> str:
            return "-" if r["rate"] is None else \
                f"{100 * r['rate']:.1f}% [{100 * r['ci95'][0]:.1f}–{100 * r['ci95'][1]:.1f}]"

        def spread(s: dict[str, Any]) -> str:
            return f"{s['mean']} ± {s['sd']} ({s['min']}–{s['max']})"

        lines = [f"games: {d['games']}"]
        for name, r in d["players"].items():
            if r["games"]:
                lines.append(f"player {name}: {r['wins']} wins, {r['draws']} draws in {r['games']} games, "
                             f"score {pct(r)}")
            if r["games_against_itself"]:
                lines.append(f"player {name}: {r['games_against_itself']} games against itself (see the colours)")
        for c in COLOURS:
            lines.append(f"{c} wins: {d['colours'][c]['wins']}, {pct(d['colours'][c])}")
        lines.append(f"draws: {d['colours']['draws']}")
        lines.append(f"first player wins: {pct(d['first_player_wins'])}")
        for c in COLOURS:
            lines.append(f"{c} score: {spread(d['scores'][c])}; heroes used {spread(d['heroes_used'][c])}")
        lines.append(f"moves per game: {spread(d['moves'])}")
        lines.append("end: " + ", ".join(f"{k} {v}" for k, v in d["reasons"].items()))
        return "\n".join(lines)
