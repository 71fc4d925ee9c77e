"""Results everywhere they are counted: drawn games (R19) in the players' evaluation, tournament
standings and the tournament table a person reads, and the simulation summary's order."""
import json
import os

import processes
from engine.outcomes import Outcome, Winner
from engine.players import evaluate
from engine.simulate import Game
from engine.tournament import Standings
from firmware_py.commands.tournament import text

from engine_testkit import make

# R19: equal score, equal largest region, equal stones: a draw. Red a1 b1, White h9 i9.
LEVEL = {"a1": "R", "b1": "R", "h9": "W", "i9": "W"}


def game(players, winner):
    return Game(0, 1, players, winner, 4, 4, 30, Outcome.LAST_STONE, 0, (0, 0), None)


def test_r19_level_figures_are_a_draw_for_the_score_and_the_evaluation():
    pos = make(stones=LEVEL)
    assert pos.score().winner is Winner.DRAW
    for colour in (0, 1):
        assert evaluate.result(pos.bits, colour) == 0.5
        assert evaluate.final(pos, colour) == 0
        assert evaluate.margin(pos, colour) == 0


def test_r19_one_more_stone_breaks_the_tie_in_the_evaluation():
    pos = make(stones=LEVEL | {"e5": "R"})
    assert evaluate.result(pos.bits, 0) == 1.0 and evaluate.result(pos.bits, 1) == 0.0
    assert evaluate.final(pos, 0) > 0 > evaluate.final(pos, 1)


def test_a_drawn_game_counts_half_a_point_for_both_players_of_the_pairing():
    standings = Standings(["a", "b"])
    standings.add(("a", "b"), [game(("a", "b"), Winner.DRAW), game(("b", "a"), Winner.RED),
                               game(("a", "b"), Winner.DRAW), game(("b", "a"), Winner.WHITE)])
    table = standings.to_dict()
    rows = {r["player"]: r for r in table["players"]}
    assert (rows["a"]["wins"], rows["a"]["draws"], rows["a"]["losses"]) == (1, 2, 1)
    assert (rows["b"]["wins"], rows["b"]["draws"], rows["b"]["losses"]) == (1, 2, 1)
    assert rows["a"]["score"] == rows["b"]["score"] == 0.5
    assert rows["a"]["elo"] == rows["b"]["elo"] == 0
    assert table["pairings"] == [{"player": "a", "opponent": "b", "games": 4, "wins": 1, "draws": 2, "losses": 1,
                                  "score": 0.5, "ci95": rows["a"]["ci95"]}]


def test_the_tournament_table_for_a_person():
    standings = Standings(["easy", "random"])
    standings.add(("easy", "random"), [game(("easy", "random"), Winner.RED), game(("random", "easy"), Winner.WHITE),
                                       game(("easy", "random"), Winner.DRAW), game(("random", "easy"), Winner.WHITE)])
    lines = text(standings.to_dict()).splitlines()
    assert lines[0].split() == ["player", "games", "W", "D", "L", "score", "95%", "CI", "Elo", "CPU", "s/move"]
    easy, rand = lines[1].split(), lines[2].split()
    assert easy[:6] == ["easy", "4", "3", "1", "0", "87.5%"] and easy[-2].startswith("+")
    assert rand[:6] == ["random", "4", "0", "1", "3", "12.5%"] and rand[-2].startswith("-")
    assert easy[-1] == rand[-1] == "–"  # games made by hand carry no thinking time
    assert lines[3] == ""
    assert lines[4].startswith("easy vs random: 3-1-0 (87.5%, 95% CI ")
    assert len(lines) == 5


def test_the_simulation_summary_is_the_same_whatever_the_hash_seed():
    """Players are listed in seat order, not in the order of a set of strings."""
    import sys

    def summary(hash_seed):
        argv = [sys.executable, "-m", "firmware_py.cli", "simulate", "--games", "4", "--seed", "4",
                "--players", "random,greedy", "--json"]
        return processes.run(argv, env={**os.environ, "PYTHONHASHSEED": hash_seed}, capture_output=True,
                              text=True, check=True, timeout=60).stdout

    outputs = {summary(str(h)) for h in range(6)}
    assert len(outputs) == 1
    assert list(json.loads(outputs.pop())["players"]) == ["random", "greedy"]
