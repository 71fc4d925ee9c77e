"""Round robins on paired deals: every pairing plays each deal twice, colours swapped.

All pairings use the same deals (deal k of a run seeded S is `game_seed(S, k)`), so
differences between players are not differences of luck.
"""
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any

from engine.outcomes import Winner
from engine.simulate import Game, Task, seat_names, tasks
from engine.stats import elo_ratings, proportion


def schedule(variant: str, seed: int, players: Sequence[str], games: int, workers: int = 1,
             record: bool = False, chunk: int | None = None) -> Iterator[tuple[tuple[str, str], Task]]:
    """(pairing, Task) pairs for `games` games per pairing (rounded up to whole deals), made lazily;
    `record`: the games keep their record lines; `chunk=2` makes every task one deal played
    twice, as a sequential test needs."""
    games += games % 2
    for a, b in combinations(players, 2):
        lineups = (seat_names(variant, (a, b)), seat_names(variant, (b, a)))
        for t in tasks(variant, seed, lineups, games, record, paired=True, chunk=chunk, workers=workers):
            yield (a, b), t


class Standings:
    """Wins, draws and losses per player and per pairing, from finished Games; a player
    not named at the start is added when first met."""

    def __init__(self, players: Iterable[str] = ()) -> None:
        self.wdl = {p: [0, 0, 0] for p in players}
        self.pairs: dict[tuple[str, str], list[int]] = {}  # (a, b) -> [a wins, draws, b wins]
        self.task_scores: dict[tuple[str, str], list[float]] = {}  # (a, b) -> a's mean score per task added
        self.think = {p: [0.0, 0] for p in self.wdl}  # CPU seconds choosing, moves chosen with a choice

    def add(self, pair: tuple[str, str], games: Iterable[Game]) -> None:
        """Count the finished `games` of pairing `pair` = (a, b)."""
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
        if sum(tally) > count:
            self.task_scores.setdefault(pair, []).append((tally[0] + tally[1] / 2 - before) / (sum(tally) - count))

    def to_dict(self) -> dict[str, list[dict[str, Any]]]:
        """Per player W/D/L, score with its 95% Wilson interval, Elo and mean CPU seconds per move
        with a choice; per pairing W/D/L and score."""
        elo = elo_ratings({pair: (w + d / 2, w + d + l) for pair, (w, d, l) in self.pairs.items()})
        players = []
        for p in sorted(self.wdl, key=lambda p: -elo[p]):
            w, d, l = self.wdl[p]
            spent, moves = self.think[p]
            players.append({"player": p, **_row(w, d, l), "elo": round(elo[p]),
                            "seconds_per_move": round(spent / moves, 4) if moves else None})
        pairs = [{"player": a, "opponent": b, **_row(*t)} for (a, b), t in self.pairs.items()]
        return {"players": players, "pairings": pairs}


def _row(w: int, d: int, l: int) -> dict[str, Any]:
    n = w + d + l
    score, ci95 = proportion(w + d / 2, n)
    return {"games": n, "wins": w, "draws": d, "losses": l, "score": score, "ci95": ci95}
