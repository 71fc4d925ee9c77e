"""Learning the evaluation from self-play: generations of games, a least-squares fit, a curve.

Each generation plays `games` self-play games with the current weights (both seats the
alpha-beta search of `hard`, engine.players.negamax, with `nodes` nodes a move and the
current model as its evaluation; the first `explore` plies each random with one chance in
two, so that the games differ), keeps every position where the side to move has a choice,
and fits, stage by stage (features.phase), the final margin of the side to move (R18,
clipped at ±CLIP points) on its features by ridge regression, on every position of every
generation so far (fitting game outcomes, TD(λ) with λ = 1). With `target_nodes`, it keeps
one such position in TARGET_EVERY and fits instead what a search of `target_nodes` nodes
with the current model concludes from it (Negamax.root_values: the mean over its piles of
the best move's value, each clipped at ±CLIP): a target with less of the pile's luck in it,
bootstrapped from the search as in TD-leaf. The new weights are then
played against fixed references they never met in training (`references`), `eval_games`
games each on paired deals at `eval_nodes` nodes a move: the learning curve. Every game is
seeded from (seed, generation, game) alone, so a seed gives the same weights and curve with
any executor.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.learn.features import NAMES, PHASES, Features, phase
from engine.learn.model import CLASSICAL, Model
from engine.players import make_player
from engine.players.base import Budget, Player
from engine.players.negamax import Negamax
from engine.position import Position
from engine.scoring import figures, winner
from engine.simulate import game_seed, ordered
from engine.stats import proportion

if TYPE_CHECKING:
    from concurrent.futures import Executor

CLIP = 60.0  # the fitted margin is clipped at ±CLIP points: a rout teaches no more than a clear win
RIDGE = 1.0  # the ridge penalty on every weight but the bias, per thousand positions
HELD_OUT = 5  # every HELD_OUT-th game's positions are kept out of the fit that measures the models
TARGET_EVERY = 6  # with search targets, one position with a choice in TARGET_EVERY is kept (each costs a search)
SECONDS = 600.0  # a self-play move's time cap: far above what its nodes take, so nodes decide

Sample = tuple[int, list[int], float]
"""A position seen in self-play: its stage, its features for the side to move, and that side's final margin."""
Weights = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class Settings:
    """What a training run does; see the module's docstring."""

    seed: int = 0
    generations: int = 4
    games: int = 100
    nodes: int = 1000
    explore: int = 8
    references: tuple[str, ...] = ("hard-2026", "ab7")
    eval_games: int = 20
    eval_nodes: int = 10000
    target_nodes: int = 0


def searcher(weights: Weights, seed: int, nodes: int) -> Negamax:
    """The alpha-beta player of `hard` with `nodes` nodes a move and the model of `weights`."""
    return Negamax(seed, Budget(nodes, SECONDS), evaluation=Model(weights))


@dataclass(frozen=True)
class SelfPlay:
    """Self-play game `index` of generation `generation` (a picklable job): its positions' Samples, each
    with the mover's final margin, or with `target_nodes` the value a search of that many nodes finds."""

    weights: Weights
    seed: int
    generation: int
    index: int
    nodes: int
    explore: int
    target_nodes: int = 0

    def __call__(self) -> list[Sample]:
        deal = game_seed(self.seed, f"self-play:{self.generation}:{self.index}")
        pos = Position.new(seed=deal)
        players = [searcher(self.weights, game_seed(deal, k), self.nodes) for k in range(2)]
        rng, pick = random.Random(game_seed(deal, "explore")), random.Random(game_seed(deal, "targets"))
        features = Features()
        seen: list[tuple[int, int, list[int], float | None]] = []
        while moves := pos.legal_moves():
            colour = pos.to_move & 1
            if len(moves) > 1 and not self.target_nodes:
                seen.append((colour, phase(pos.stones), features(pos, colour), None))
            elif len(moves) > 1 and pick.random() * TARGET_EVERY < 1:
                seen.append((colour, phase(pos.stones), features(pos, colour), self.searched(pos, deal)))
            if len(pos.stack) < self.explore and rng.random() < 0.5:
                pos.push(moves[int(rng.random() * len(moves))])
            else:
                pos.push(players[pos.to_move].choose(pos))
        margin = figures(pos.bits[0])[0] - figures(pos.bits[1])[0]
        return [(stage, x, float(margin if colour == 0 else -margin) if y is None else y)
                for colour, stage, x, y in seen]

    def searched(self, pos: Position, deal: int) -> float:
        """The mean over the piles of a `target_nodes` search of `pos` of the best move's value (for the
        side to move), each clipped at ±CLIP."""
        values = searcher(self.weights, game_seed(deal, f"target:{len(pos.stack)}"), self.target_nodes).root_values(pos)
        return sum(max(-CLIP, min(CLIP, float(v))) for v in values) / max(1, len(values))


@dataclass(frozen=True)
class Duel:
    """Deal `deal` of generation `generation` against `reference`, played twice with colours swapped
    (a picklable job): the candidate's points, 0 to 2, a draw half a point (R19)."""

    weights: Weights
    seed: int
    generation: int
    reference: str
    deal: int
    nodes: int

    def __call__(self) -> float:
        deal = game_seed(self.seed, f"judge:{self.generation}:{self.deal}")
        points = 0.0
        for candidate_colour in (0, 1):
            pos = Position.new(seed=deal)
            seats: list[Player] = [searcher(self.weights, game_seed(deal, 0), self.nodes),
                                   make_player(self.reference, seed=game_seed(deal, 1))]
            if candidate_colour:
                seats.reverse()
            while len(pos.legal_moves()):
                pos.push(seats[pos.to_move].choose(pos))
            won = winner(figures(pos.bits[0]), figures(pos.bits[1]))
            points += 0.5 if won == "draw" else float(won == ("red", "white")[candidate_colour])
        return points


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """The solution x of a x = b (a square, positive definite) by Gaussian elimination with pivoting.

    >>> solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])
    [0.8, 1.4]
    """
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = round((m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r], 12)
    return x


def fit(samples: Iterable[Sample], columns: Sequence[int] | None = None) -> list[list[float]]:
    """Ridge least squares of the clipped margin on the features, stage by stage: the weights
    (bias first). `columns`: fit only those features (indexes of NAMES), the others weigh 0."""
    use = list(range(len(NAMES))) if columns is None else list(columns)
    k = len(use) + 1
    grams = [[[0.0] * k for _ in range(k)] for _ in range(len(PHASES) + 1)]
    moments = [[0.0] * k for _ in range(len(PHASES) + 1)]
    counts = [0] * (len(PHASES) + 1)
    for stage, x, y in samples:
        row = [1.0] + [float(x[i]) for i in use]
        y = max(-CLIP, min(CLIP, y))
        gram, moment = grams[stage], moments[stage]
        for i, xi in enumerate(row):
            moment[i] += xi * y
            gi = gram[i]
            for j in range(i, k):
                gi[j] += xi * row[j]
        counts[stage] += 1
    weights = []
    for stage, (gram, moment) in enumerate(zip(grams, moments)):
        for i in range(k):
            for j in range(i):
                gram[i][j] = gram[j][i]
            if i:
                gram[i][i] += RIDGE * max(1, counts[stage]) / 1000
        gram[0][0] += 1e-9
        solved = solve(gram, moment)
        full = [solved[0]] + [0.0] * len(NAMES)
        for i, column in enumerate(use):
            full[column + 1] = solved[i + 1]
        weights.append(full)
    return weights


def error(weights: Sequence[Sequence[float]], samples: Iterable[Sample]) -> float:
    """The root mean squared error, in points, of `weights` on the clipped margins of `samples`."""
    total, n = 0.0, 0
    for stage, x, y in samples:
        w = weights[stage]
        guess = w[0] + sum(wi * xi for wi, xi in zip(w[1:], x))
        total += (guess - max(-CLIP, min(CLIP, y))) ** 2
        n += 1
    return (total / n) ** 0.5 if n else float("nan")


def alternatives(samples: Sequence[tuple[int, Sample]]) -> dict[str, float]:
    """Held-out error (points) of the models one could use, each fitted on the games that are not
    held out: the classical evaluation as it is, score and heroes refitted, and every feature."""
    train = [s for game, s in samples if game % HELD_OUT]
    test = [s for game, s in samples if not game % HELD_OUT]
    return {"classical": round(error(CLASSICAL, test), 3),
            "score-and-heroes": round(error(fit(train, [0, 1]), test), 3),
            "all-features": round(error(fit(train), test), 3)}


Progress = Callable[[int], object]
"""Told how many games have just been played (self-play and judging)."""


def train(settings: Settings, executor: Executor | None = None, progress: Progress | None = None,
          watch: Callable[[], None] | None = None, ahead: int = 8) -> Iterator[dict[str, Any]]:
    """Run `settings`, yielding after each generation its point of the curve, whose "weights" are
    the model fitted so far; the jobs go to `executor` (None: this process), `ahead` at a time."""
    tell = progress or (lambda n: None)
    weights: Weights = tuple(tuple(w) for w in CLASSICAL)
    samples: list[tuple[int, Sample]] = []
    s = settings

    def judged(generation: int, candidate: Weights) -> dict[str, Any]:
        strength = {}
        for ref in s.references:
            jobs = (Duel(candidate, s.seed, generation, ref, d, s.eval_nodes) for d in range((s.eval_games + 1) // 2))
            points = 0.0
            for got in ordered(jobs, executor, ahead, watch):
                points += got
                tell(2)
            games = 2 * ((s.eval_games + 1) // 2)
            score, ci95 = proportion(points, games)
            strength[ref] = {"games": games, "points": points, "score": score, "ci95": ci95}
        return strength

    yield {"generation": 0, "games": 0, "positions": 0, "strength": judged(0, weights) if s.eval_games else {},
           "error": {}, "weights": [list(w) for w in weights]}
    for generation in range(1, s.generations + 1):
        jobs = (SelfPlay(weights, s.seed, generation, i, s.nodes, s.explore, s.target_nodes) for i in range(s.games))
        for i, found in enumerate(ordered(jobs, executor, ahead, watch)):
            game = (generation - 1) * s.games + i
            samples.extend((game, sample) for sample in found)
            tell(1)
        weights = tuple(tuple(w) for w in fit(sample for _, sample in samples))
        yield {"generation": generation, "games": generation * s.games, "positions": len(samples),
               "strength": judged(generation, weights) if s.eval_games else {},
               "error": alternatives(samples), "weights": [list(w) for w in weights]}


def total_games(settings: Settings) -> int:
    """The games a run plays: self-play and judging."""
    judging = len(settings.references) * 2 * ((settings.eval_games + 1) // 2) * (settings.generations + 1)
    return settings.generations * settings.games + (judging if settings.eval_games else 0)
