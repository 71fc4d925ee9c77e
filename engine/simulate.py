"""Headless games between players, in game order whatever the executor (issue 3).

A run is cut into tasks of consecutive games. Every game's deal and players are seeded
from (run seed, game index) alone, so the records are the same with one worker, many
workers or a cluster; `run` yields each task's games in game order. Any
`concurrent.futures`-style executor works (a process pool, a Dask client's executor).
"""
from __future__ import annotations

import hashlib
import random
import time
from collections import deque
from collections.abc import Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import NamedTuple

from engine import record as records
from engine.errors import RoseKingError
from engine.players import check_names, evaluate, make_player
from engine.playout import random_playout
from engine.position import Position
from engine.outcomes import Outcome, Winner
from engine.scoring import figures, winner
from engine.variants import variant as find_variant

Lineup = tuple[str, ...]
"""One player name per seat, in seat order."""


class Game(NamedTuple):
    """One finished game: `players` per seat, `winner` red/white/draw, scores `red`
    and `white`, `moves` (incl. draws and passes), end `reason`, the `first` colour to move,
    `heroes` used per colour (red, white), the record `line` (JSON) or None, and per seat
    `think`: (CPU seconds spent choosing, moves chosen among two or more). CPU time, not
    wall-clock time, so that a figure taken on a busy machine means what it would on a quiet one."""

    index: int  # type: ignore[assignment]  # the game's number in its run shadows tuple.index
    seed: int
    players: Lineup
    winner: Winner
    red: int
    white: int
    moves: int
    reason: Outcome | None
    first: int
    heroes: tuple[int, int]
    line: str | None
    think: tuple[tuple[float, int], ...] = ()  # none for a game made by hand


def game_seed(seed: int, index: int | str) -> int:
    """The seed of game `index` in a run seeded `seed` (a 48-bit int, the same on every machine).

    Within a game, `game_seed(deal, k)` seeds the player in seat k and
    `game_seed(deal, "moves")` the random players' fast path."""
    digest = hashlib.sha256(f"roseking:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def seat_names(variant: str, players: Iterable[str]) -> Lineup:
    """One player name per seat: as many names as seats, or one per colour (teams, R20)."""
    seats = find_variant(variant).seats
    players = list(players)
    if len(players) == 2 and len(seats) == 4:
        players = players * 2  # red1, white1, red2, white2 (R22)
    if len(players) != len(seats):
        raise RoseKingError(f"players: {len(players)} names for {len(seats)} seats ({', '.join(seats)})")
    check_names(players)
    return tuple(players)


def play(variant: str, seed: int, players: Lineup, index: int = 0, record: bool = False) -> Game:
    """Play one game from the deal of `seed` (R7) with one player name per seat; a Game."""
    start = Position.new(variant, seed)
    pos = start.copy() if record else start  # the record needs the deal as dealt
    think = [(0.0, 0)] * len(players)
    if players.count("random") == len(players):
        random_playout(pos, random.Random(game_seed(seed, "moves")))  # the fast path for random players
    else:
        seats = [make_player(p, seed=game_seed(seed, k)) for k, p in enumerate(players)]
        while n := len(pos.legal_moves()):
            seat = pos.to_move
            t = time.process_time()
            pos.push(seats[seat].choose(pos))
            if n > 1:
                spent, count = think[seat]
                think[seat] = (spent + time.process_time() - t, count + 1)
    red, white = figures(pos.bits[0]), figures(pos.bits[1])
    full = pos.variant.heroes * len(players) // 2
    line = None
    if record:
        names = dict(zip(pos.variant.seats, players))
        line = records.dumps(records.make_record(start, pos, names, seed))
    return Game(index, seed, tuple(players), winner(red, white), red[0], white[0], len(pos.stack),
                pos.outcome(), start.to_move & 1,
                (full - evaluate.heroes(pos, 0), full - evaluate.heroes(pos, 1)), line, tuple(think))


@dataclass(frozen=True)
class Task:
    """Games `first` … `first + count - 1` of a run. Game i seats lineup i mod len(lineups)
    on the deal `game_seed(seed, i)`, or `game_seed(seed, i // 2)` when `paired`."""

    variant: str
    seed: int
    lineups: tuple[Lineup, ...]  # one lineup per game index modulo its length
    first: int
    count: int
    record: bool
    paired: bool = False  # tournaments: games 2k and 2k+1 share a deal, lineups swapped

    def __call__(self) -> list[Game]:
        """Play the task's games, in order."""
        out = []
        for i in range(self.first, self.first + self.count):
            deal = game_seed(self.seed, i // 2 if self.paired else i)
            out.append(play(self.variant, deal, self.lineups[i % len(self.lineups)], i, self.record))
        return out


def run_task(task: Task) -> list[Game]:
    """Run one task (a picklable top-level function for process pools and clusters)."""
    return task()


def tasks(variant: str, seed: int, lineups: Sequence[Lineup], games: int, record: bool = False, paired: bool = False,
          chunk: int | None = None, workers: int = 1) -> Iterator[Task]:
    """The tasks of a run of `games` games, in game order, made as they are asked for."""
    if chunk is None:
        searching = any(p != "random" for lineup in lineups for p in lineup)
        chunk = 2 if searching else max(1, min(1000, games // (8 * workers)))
    return (Task(variant, seed, tuple(lineups), i, min(chunk, games - i), record, paired)
            for i in range(0, games, chunk))


def run(todo: Iterable[Task], executor: Executor | None = None,
        ahead: int = 64) -> Generator[list[Game], None, None]:
    """Yield the list of Games of each task in order; in this process when `executor` is None,
    else with at most `ahead` tasks submitted and not yet yielded (a long run stays small)."""
    if executor is None:
        for task in todo:
            yield task()
        return
    window: deque[Future[list[Game]]] = deque()
    try:
        for task in todo:
            window.append(executor.submit(run_task, task))
            if len(window) >= ahead:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()
    finally:
        for future in window:
            future.cancel()
