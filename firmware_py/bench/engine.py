"""`roseking bench --only engine`: the engine's core figures (`engine.bench.core`) set against the lean
loop (`engine.bench.lean`, a plain pure-Python random game) and against `roseking simulate` as a user
runs it, in a process of its own, start-up included."""
import os
import subprocess
import sys
import time

from engine.bench import core, lean
from engine.bench.core import median_seconds

SIMULATE_GAMES = 20_000
LEAN_GAMES = 3_000
RUNS = 3


def roseking() -> list[str]:
    """The `roseking` command of this Python: the console script beside it, or the same entry point."""
    script = os.path.join(os.path.dirname(sys.executable), "roseking")
    if os.access(script, os.X_OK):
        return [script]
    return [sys.executable, "-c", "import sys; from firmware_py.cli import main; sys.exit(main())"]


def simulate_seconds(games: int) -> float:
    """Wall-clock seconds of `roseking simulate --games N --players random,random`, start to exit."""
    argv = [*roseking(), "simulate", "--games", str(games), "--players", "random,random"]
    t = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def figures(quick: bool = False) -> dict[str, float]:
    """The core's figures; then, in turn so that all three see the same machine, the engine's random
    games (`engine.bench.core.games`), the lean loop's and `roseking simulate`'s (20,000 games, start-up
    included), each a median of runs, and the ratios of the engine's and the command's speed to the
    lean loop's (`quick`: one run of a hundredth of the games)."""
    out: dict[str, float] = dict(core.figures(quick))
    runs, lean_games, simulate_games = (1, LEAN_GAMES // 100, SIMULATE_GAMES // 100) if quick else \
        (RUNS, LEAN_GAMES, SIMULATE_GAMES)
    engines, leans, simulates = [], [], []
    for _ in range(runs):
        engines.append(median_seconds(lambda: core.games(lean_games), 1))
        leans.append(median_seconds(lambda: lean.games(lean_games), 1))
        simulates.append(simulate_seconds(simulate_games))
    engine_rate = lean_games / sorted(engines)[runs // 2]
    lean_rate = lean_games / sorted(leans)[runs // 2]
    simulate_rate = simulate_games / sorted(simulates)[runs // 2]
    out |= {
        "lean_games_per_s": round(lean_rate),
        "simulate_games_per_s_with_startup": round(simulate_rate),
        "engine_to_lean": round(engine_rate / lean_rate, 2),
        "simulate_to_lean": round(simulate_rate / lean_rate, 2),
    }
    return out
