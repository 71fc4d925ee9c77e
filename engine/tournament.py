"""Round robins on paired deals: every pairing plays each deal twice, colours swapped.

All pairings use the same deals (deal k of a run seeded S is `game_seed(S, k)`), so
differences between players are not differences of luck.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any

from engine.outcomes import Winner
from engine.simulate import Game, Pace, Task, seat_names, tasks
from engine.stats import elo_ratings, proportion


def schedule(variant: str, seed: int, players: Sequence[str], games: int, record: bool = False,
             pace: Pace | int | None = None, fold: bool = True) -> Iterator[Task]:
    """The tasks of `games` games per pairing (rounded up to whole deals), pairing after pairing,
    made lazily and sized by `pace` (see engine.simulate.tasks); a task of pairing (a, b) seats
    (a, b) on its even games and (b, a) on its odd ones. `record`: the games keep their record
    lines; `fold`: the workers send back each task's Standings (`standings_of`), else its Games."""
    games += games % 2
    for a, b in combinations(players, 2):
        lineups = (seat_names(variant, (a, b)), seat_names(variant, (b, a)))
        pair_fold = functools.partial(standings_of, (a, b)) if fold else None
        yield from tasks(variant, seed, lineups, games, record, paired=True, pace=pace, fold=pair_fold)


def pairing(task: Task) -> tuple[str, str]:
    """The pairing (a, b) a task of `schedule` plays."""
    a, b = task.lineups[0][:2]
    return a, b


class Standings:
    """Wins, draws and losses per player and per pairing, from finished Games; a player
    not named at the start is added when first met."""

    def __init__(self, players: Iterable[str] = ()) -> None:
        self.wdl = {p: [0, 0, 0] for p in players}
        self.pairs: dict[tuple[str, str], list[int]] = {}  # (a, b) -> [a wins, draws, b wins]
        self.think = {p: [0.0, 0] for p in self.wdl}  # CPU seconds choosing, moves chosen with a choice

    def add(self, pair: tuple[str, str], games: Iterable[Game]) -> float:
        """Count the finished `games` of pairing `pair` = (a, b); a's mean score in them (nan for none)."""
        a, b = pair
        tally = self.pairs.setdefault(pair, [0, 0, 0])
        for p in pair:
            self.wdl.setdefault(p, [0, 0, 0])
            self.think.setdefault(p, [0.0, 0])
        before, count = tally[0] + tally[1] / 2, sum(tally)
        for g in games:
            for name, (spent, moves) in zip(g.players, g.think):
                self.think[name][0] += spent
                self.think[name][1] += moves
            if g.winner == Winner.DRAW:
                tally[1] += 1
                self.wdl[a][1] += 1
                self.wdl[b][1] += 1
                continue
            won = g.players[0 if g.winner == Winner.RED else 1]
            tally[0 if won == a else 2] += 1
            self.wdl[won][0] += 1
            self.wdl[b if won == a else a][2] += 1
        added = sum(tally) - count
        return (tally[0] + tally[1] / 2 - before) / added if added else math.nan

    def merge(self, other: Standings) -> None:
        """Count what `other` counted, as if added after these games; a pairing met here the other
        way round, (b, a) for (a, b), keeps this orientation."""
        for p, (w, d, l) in other.wdl.items():
            mine = self.wdl.setdefault(p, [0, 0, 0])
            mine[0] += w
            mine[1] += d
            mine[2] += l
        for p, (spent, moves) in other.think.items():
            mine_t = self.think.setdefault(p, [0.0, 0])
            mine_t[0] += spent
            mine_t[1] += moves
        for (a, b), (wa, d, wb) in other.pairs.items():
            if (b, a) in self.pairs and (a, b) not in self.pairs:
                (a, b), wa, wb = (b, a), wb, wa
            tally = self.pairs.setdefault((a, b), [0, 0, 0])
            tally[0] += wa
            tally[1] += d
            tally[2] += wb

    def to_dict(self) -> dict[str, list[dict[str, Any]]]:
        """Per player W/D/L, score with its 95% Wilson interval, Elo and mean CPU seconds per move (three
        significant figures) with a choice; per pairing W/D/L and score."""
        elo = elo_ratings({pair: (w + d / 2, w + d + l) for pair, (w, d, l) in self.pairs.items()})
        players = []
        for p in sorted(self.wdl, key=lambda p: -elo[p]):
            w, d, l = self.wdl[p]
            spent, moves = self.think[p]
            players.append({"player": p, **_row(w, d, l), "elo": round(elo[p]),
                            "seconds_per_move": float(f"{spent / moves:.3g}") if moves else None})
        pairs = [{"player": a, "opponent": b, **_row(*t)} for (a, b), t in self.pairs.items()]
        return {"players": players, "pairings": pairs}


def standings_of(pair: tuple[str, str], games: list[Game]) -> Standings:
    """The standings of `games` of pairing `pair` (a task's fold, see engine.simulate.Fold)."""
    standings = Standings()
    standings.add(pair, games)
    return standings


def _row(w: int, d: int, l: int) -> dict[str, Any]:
    n = w + d + l
    score, ci95 = proportion(w + d / 2, n)
    return {"games": n, "wins": w, "draws": d, "losses": l, "score": score, "ci95": ci95}
