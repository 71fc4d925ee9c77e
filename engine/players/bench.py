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

RUNS = 3


def midgame(seed=1, plies=50):
    """A position after `plies` random moves from the deal of `seed`: the mid-game workload."""
    pos = Position.new(seed=seed)
    random_playout(pos, random.Random(seed), plies)
    return pos


def search_rate(name, pos, work):
    """Median iterations (or nodes) per second of player `name` thinking on `pos`."""
    rates = []
    for run in range(RUNS):
        player = make_player(name, seed=run, work=work, seconds=60)
        t = time.perf_counter()
        player.search(pos, pos.legal_moves())
        rates.append(player.work / (time.perf_counter() - t))
    return round(statistics.median(rates))


def _noop():
    return None


def simulation_rate(workers, games_per_worker=6000):
    """Random-vs-random games per second with `workers` processes, records written to a file."""
    games = games_per_worker * workers
    todo = simulate.tasks("classic", 1, [("random", "random")], games, record=True, workers=workers)
    with tempfile.TemporaryDirectory() as folder, open(os.path.join(folder, "r.jsonl"), "w") as out:
        pool = ProcessPoolExecutor(workers) if workers > 1 else None
        try:
            if pool:
                for f in [pool.submit(_noop) for _ in range(workers)]:  # start them before the clock
                    f.result()
            t = time.perf_counter()
            for batch in simulate.run(todo, pool):
                for g in batch:
                    out.write(f"{g.line}\n")
            return games / (time.perf_counter() - t)
        finally:
            if pool:
                pool.shutdown()


def figures():
    """MCTS iterations/s (opening, mid-game), alphabeta nodes/s, simulation games/s and speed-up."""
    opening, middle = Position.new(seed=1), midgame()
    one, two = simulation_rate(1), simulation_rate(2)
    return {
        "mcts_iterations_per_s_opening": search_rate("hard", opening, 3000),
        "mcts_iterations_per_s_midgame": search_rate("hard", middle, 3000),
        "alphabeta_nodes_per_s_midgame": search_rate("alphabeta", middle, 30000),
        "simulation_games_per_s_1_worker": round(one),
        "simulation_games_per_s_2_workers": round(two),
        "speedup_2_workers": round(two / one, 2),
    }
