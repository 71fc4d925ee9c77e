"""Speed figures of the players and of simulation (the `search` section of `roseking bench`)."""
import os
import random
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

from engine import simulate
from engine.players import make_player
from engine.playout import random_playout
from engine.position import Position
from engine.summary import Summary

RUNS = 3


def midgame(seed: int = 1, plies: int = 50) -> Position:
    """A position after `plies` random moves from the deal of `seed`: the mid-game workload."""
    pos = Position.new(seed=seed)
    random_playout(pos, random.Random(seed), plies)
    return pos


def search_rate(name: str, pos: Position, work: int | None = None, runs: int = RUNS) -> int:
    """Median iterations (or nodes) per second of player `name` thinking on `pos`."""
    rates = []
    for run in range(runs):
        player = make_player(name, seed=run, work=work, seconds=60)
        t = time.perf_counter()
        player.search(pos, pos.legal_moves())
        rates.append(player.work / (time.perf_counter() - t))
    return round(statistics.median(rates))


def move_seconds(name: str, positions: list[Position], runs: int = RUNS, work: int | None = None) -> float:
    """Median over runs of the mean seconds player `name` takes for a move on `positions`."""
    means = []
    for run in range(runs):
        player = make_player(name, seed=run, work=work)
        t = time.perf_counter()
        for pos in positions:
            player.choose(pos)
        means.append((time.perf_counter() - t) / len(positions))
    return round(statistics.median(means), 4)


def _noop() -> None:
    return None


def simulation_rate(workers: int, games_per_worker: int = 6000, records: bool = True) -> float:
    """Random-vs-random games per second with `workers` processes, as `roseking simulate` plays
    them: each game counted in a Summary, and with `records` its record written to a file."""
    games = games_per_worker * workers
    pace = simulate.Pace(workers)
    todo = simulate.tasks("classic", 1, [("random", "random")], games, record=records, pace=pace, fold=Summary.of)
    summary = Summary()
    with tempfile.TemporaryDirectory() as folder, open(os.path.join(folder, "r.jsonl"), "w") as out:
        pool = ProcessPoolExecutor(workers) if workers > 1 else None
        try:
            if pool:
                for f in [pool.submit(_noop) for _ in range(workers)]:  # start them before the clock
                    f.result()
            t = time.perf_counter()
            for batch in simulate.run(todo, pool, pace):
                summary.merge(batch.folded)
                out.write(batch.lines)
            return games / (time.perf_counter() - t)
        finally:
            if pool:
                pool.shutdown()


def figures(quick: bool = False) -> dict[str, float]:
    """MCTS iterations/s (opening, mid-game), alpha-beta nodes/s, seconds per move of `hard`, `max`
    and `ab7` on ten positions with a choice, from opening to end game, games/s of `roseking simulate`
    (one process, no records), simulation games/s with records and the speed-up of two workers
    (`quick`: one run, two positions, budgets a tenth or less and a few hundred games)."""
    runs, work, games = (1, 2000, 100) if quick else (RUNS, None, 6000)
    iterations, nodes = (300, 3000) if quick else (3000, 30000)
    opening, middle = Position.new(seed=1), midgame()
    ten = [p for p in (midgame(seed, 9 * seed) for seed in range(30)) if len(p.legal_moves()) > 1][:2 if quick else 10]
    bare = statistics.median(simulation_rate(1, games // 2, records=False) for _ in range(runs))
    one, two = simulation_rate(1, games), simulation_rate(2, games)
    return {
        "mcts_iterations_per_s_opening": search_rate("medium", opening, iterations, runs),
        "mcts_iterations_per_s_midgame": search_rate("medium", middle, iterations, runs),
        "alphabeta_nodes_per_s_midgame": search_rate("alphabeta", middle, nodes, runs),
        "hard_nodes_per_s_midgame": search_rate("hard", middle, work, runs),
        "ab7_nodes_per_s_midgame": search_rate("ab7", middle, work, runs),
        "hard_seconds_per_move": move_seconds("hard", ten, runs, work),
        "max_seconds_per_move": move_seconds("max", ten, runs, work),
        "ab7_seconds_per_move": move_seconds("ab7", ten, runs, work),
        "simulate_games_per_s": round(bare),
        "simulation_games_per_s_1_worker": round(one),
        "simulation_games_per_s_2_workers": round(two),
        "speedup_2_workers": round(two / one, 2),
    }
