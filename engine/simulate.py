"""Headless games between players, in game order whatever the executor (issue 3).

A run is cut into tasks of consecutive games. Every game's deal and players are seeded
from (run seed, game index) alone, so the records are the same with one worker, many
workers or a cluster. A `Pace` sizes the tasks by what they cost (about a second of work
each, measured as the run goes), and `run` yields each task's `Batch` in game order, with
a bounded number of tasks in flight. Any `concurrent.futures`-style executor works (a
process pool, a Dask client's executor).
"""
from __future__ import annotations

import functools
import hashlib
import random
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from engine import record as records
from engine.errors import RoseKingError
from engine.players import check_names, evaluate, make_player
from engine.playout import random_playout
from engine.position import Position
from engine.outcomes import Outcome, Winner
from engine.scoring import figures, winner
from engine.variants import variant as find_variant

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

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
        # the fast path for random players; the record needs the moves kept
        moves = random_playout(pos, random.Random(game_seed(seed, "moves")), undo=record)
    else:
        seats = [make_player(p, seed=game_seed(seed, k)) for k, p in enumerate(players)]
        while n := len(pos.legal_moves()):
            seat = pos.to_move
            t = time.process_time()
            pos.push(seats[seat].choose(pos))
            if n > 1:
                spent, count = think[seat]
                think[seat] = (spent + time.process_time() - t, count + 1)
        moves = len(pos.stack)
    red, white = figures(pos.bits[0]), figures(pos.bits[1])
    full = pos.variant.heroes * len(players) // 2
    line = None
    if record:
        names = dict(zip(pos.variant.seats, players))
        line = records.dumps(records.make_record(start, pos, names, seed))
    return Game(index, seed, tuple(players), winner(red, white), red[0], white[0], moves,
                pos.outcome(), start.to_move & 1,
                (full - evaluate.heroes(pos, 0), full - evaluate.heroes(pos, 1)), line, tuple(think))


TASK_SECONDS = 1.0
"""The work a task is sized to: long beside a scheduler's round trip (milliseconds), short
beside a run, so that progress shows and the workers finish together."""

Fold = Callable[[list[Game]], Any]
"""What a worker makes of a task's games before sending them back (`Summary.of`, say): a
picklable top-level function whose results the caller merges."""


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
    fold: Fold | None = None  # see Batch

    def __call__(self) -> list[Game]:
        """Play the task's games, in order."""
        out = []
        for i in range(self.first, self.first + self.count):
            deal = game_seed(self.seed, i // 2 if self.paired else i)
            out.append(play(self.variant, deal, self.lineups[i % len(self.lineups)], i, self.record))
        return out


class Batch(NamedTuple):
    """A finished task: `folded`, its games as `task.fold` made them (the Games, without their
    record lines, when it has none); `lines`, their records, each line ending in a newline
    ('' without records); `seconds`, the wall-clock time the games took."""

    task: Task
    folded: Any
    lines: str
    seconds: float


def run_task(task: Task) -> Batch:
    """Run one task (a picklable top-level function for process pools and clusters)."""
    t = time.perf_counter()
    games = task()
    seconds = time.perf_counter() - t
    lines = "".join(f"{g.line}\n" for g in games) if task.record else ""
    folded = task.fold(games) if task.fold else [g._replace(line=None) for g in games]
    return Batch(task, folded, lines, seconds)


class Pace:
    """How many games the next task of a kind gets: about `seconds` of work at the speed its
    tasks have shown so far (one game, or deal, until one has come back), and at most a share
    of the games left, so that `slots` workers finish together. Each kind (a set of lineups,
    a pairing) is timed on its own: a dear pairing after a cheap one starts small again.

    >>> pace = Pace(slots=2)
    >>> pace.size("a", 10_000), pace.size("a", 10_000, unit=2)
    (1, 2)
    >>> pace.observe("a", 100, 0.05)  # 0.5 ms a game: a second is 2,000 games
    >>> pace.size("a", 100_000), pace.size("a", 1_000)
    (2000, 250)
    """

    def __init__(self, slots: int = 1, seconds: float = TASK_SECONDS) -> None:
        self.slots, self.seconds = max(1, slots), seconds
        self.spent: dict[Hashable, tuple[float, int]] = {}  # kind -> (seconds, games) measured

    @property
    def ahead(self) -> int:
        """Tasks in flight: enough to keep every slot busy while the oldest is awaited."""
        return 3 * self.slots

    def observe(self, kind: Hashable, games: int, seconds: float) -> None:
        """Count a finished task of `games` games that took `seconds`."""
        spent, count = self.spent.get(kind, (0.0, 0))
        self.spent[kind] = (spent + seconds, count + games)

    def size(self, kind: Hashable, left: int, unit: int = 1) -> int:
        """Games for the next task of `kind` with `left` games to hand out: a multiple of `unit`."""
        spent, count = self.spent.get(kind, (0.0, 0))
        if not count:
            return unit
        games = min(self.seconds * count / max(spent, 1e-9), left / (2 * self.slots))
        return max(unit, int(games) // unit * unit)


def tasks(variant: str, seed: int, lineups: Sequence[Lineup], games: int, record: bool = False, paired: bool = False,
          pace: Pace | int | None = None, fold: Fold | None = None, first: int = 0) -> Iterator[Task]:
    """The tasks of games `first` … `first + games - 1` of a run, in game order, made as they are
    asked for: each sized by `pace` when it is made (an int: that many games a task; None: the
    whole run in one). Paired tasks hold whole deals: they start at an even game."""
    kind, unit = tuple(lineups), 2 if paired else 1
    if paired and first % 2:
        raise RoseKingError(f"a paired run starts at an even game, not {first}")
    i, end = first, first + games
    while i < end:
        size = pace.size(kind, end - i, unit) if isinstance(pace, Pace) else pace or games
        count = min(size, end - i)
        yield Task(variant, seed, kind, i, count, record, paired, fold)
        i += count


R = TypeVar("R")


def ordered(todo: Iterable[Callable[[], R]], executor: Executor | None = None, ahead: int = 64,
            watch: Callable[[], None] | None = None) -> Iterator[R]:
    """Each job's result, in order: in this process when `executor` is None, else with at most
    `ahead` jobs submitted and not yet yielded (a long run stays small); a job must then be
    picklable. While a result is awaited, `watch()` is called every second: it raises when the
    workers have gone. Closing the iterator cancels the jobs not yet started."""
    if executor is None:
        for job in todo:
            yield job()
        return

    from concurrent.futures import wait  # with its logging: loaded for an executor only

    def result(future: Future[R]) -> R:
        while watch and not wait([future], timeout=1.0).done:
            watch()
        return future.result()

    window: deque[Future[R]] = deque()
    try:
        for job in todo:
            window.append(executor.submit(job))
            if len(window) >= ahead:
                yield result(window.popleft())
        while window:
            yield result(window.popleft())
    finally:
        for future in window:
            future.cancel()


def run(todo: Iterable[Task], executor: Executor | None = None, pace: Pace | None = None,
        watch: Callable[[], None] | None = None) -> Iterator[Batch]:
    """The Batch of each task, in order (see `ordered`); each one timed into `pace`, which sizes
    the tasks still to be made when `todo` comes from `tasks(..., pace=pace)`."""
    pace = pace or Pace()
    for batch in ordered((functools.partial(run_task, task) for task in todo), executor, pace.ahead, watch):
        pace.observe(batch.task.lineups, batch.task.count, batch.seconds)
        yield batch
