"""`roseking bench --only engine`: the lean loop and `roseking simulate` (a real subprocess, start-up
included) set against the engine; with the compiled core in use, the pure figures beside them."""
import json
import sys

from firmware_py.bench import engine as bench_engine
from firmware_py.cli import main
from firmware_py.commands import bench


def test_the_engine_section_sets_the_engine_and_the_command_against_the_lean_loop(monkeypatch, capsys):
    monkeypatch.setattr(bench_engine, "SIMULATE_GAMES", 30)  # the real command, small
    monkeypatch.setattr(bench_engine, "LEAN_GAMES", 20)
    monkeypatch.setattr(bench_engine.core, "figures",
                        lambda quick=False: {"random_games_per_s": 1000})  # minutes at full size
    assert main(["bench", "--only", "engine"]) == 0
    out = json.loads(capsys.readouterr().out)
    figures = out["engine"]
    assert figures["lean_games_per_s"] > 0 and figures["simulate_games_per_s_with_startup"] > 0
    assert figures["engine_to_lean"] > 0
    assert abs(figures["simulate_to_lean"] - figures["simulate_games_per_s_with_startup"]
               / figures["lean_games_per_s"]) < 0.02
    assert out["compiled"] is False and "pure" not in out  # the tree's engine is the pure one


def test_the_pure_figures_come_from_a_process_that_uses_the_sources(monkeypatch):
    echo = "import json, os; print(json.dumps({'engine': {'pure': os.environ['ROSEKING_PURE']}, 'search': {}}))"
    monkeypatch.setattr(bench, "roseking", lambda: [sys.executable, "-c", echo])
    assert bench.pure_figures(["engine"]) == {"engine": {"pure": "1"}}
