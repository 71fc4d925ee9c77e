"""`roseking simulate`, tournaments and the agent protocol (issue 3)."""
import io
import json
import subprocess
import sys

import pytest

import processes
from engine.position import Position
from engine.record import read_records, replay
from engine.serialize import to_json
from engine.simulate import game_seed, tasks
from engine.stats import elo_ratings, sprt, wilson
from firmware_py.atomic import atomic_writer
from firmware_py.cli import main


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_one_and_two_workers_write_identical_records(tmp_path, capsys):
    for k in (1, 2):
        code, _, _ = cli(capsys, "simulate", "--games", "30", "--seed", "5", "--players", "easy:5,random",
                         "--records", str(tmp_path / f"k{k}.jsonl"), "--workers", str(k))
        assert code == 0
    one = (tmp_path / "k1.jsonl").read_text()
    assert one == (tmp_path / "k2.jsonl").read_text()
    games = [r for _, r in read_records(enumerate(one.splitlines(), 1))]
    assert len(games) == 30
    assert [g["seed"] for g in games] == [game_seed(5, i) for i in range(30)]
    for g in games:
        replay(g)  # the records replay to their stored results


def test_games_are_the_same_in_any_chunking():
    def lines(chunk):
        todo = tasks("teams", 2, [("random",) * 4, ("easy:3", "random") * 2], 12, True, pace=chunk)
        return [g.line for task in todo for g in task()]

    assert lines(1) == lines(5) == lines(12)


def test_the_summary_accounts_for_every_game(capsys):
    code, out, err = cli(capsys, "simulate", "--games", "40", "--seed", "1", "--variant", "teams",
                         "--players", "random,greedy", "--json")
    assert code == 0 and err == ""
    s = json.loads(out)
    assert s["games"] == 40
    assert s["colours"]["red"]["wins"] + s["colours"]["white"]["wins"] + s["colours"]["draws"] == 40
    assert sum(s["reasons"].values()) == 40 and set(s["reasons"]) <= {"last-stone", "blockade"}
    assert s["players"]["random"]["games"] == s["players"]["greedy"]["games"] == 40
    for c in ("red", "white"):
        assert 0 <= s["heroes_used"][c]["min"] <= s["heroes_used"][c]["max"] <= 4  # R21: 2 per seat
        lo, hi = s["colours"][c]["ci95"]
        assert lo <= s["colours"][c]["rate"] <= hi


def test_a_player_against_itself_is_not_counted_twice(capsys):
    """The main job plays random against random: its games are counted once, not as wins."""
    code, out, _ = cli(capsys, "simulate", "--games", "30", "--seed", "1", "--players", "random,random")
    assert code == 0
    assert "player random: 30 games against itself (see the colours)" in out.splitlines()
    assert "wins," not in out.split("red wins")[0]


@pytest.mark.parametrize("argv, needle", [
    (["--players", "random,wizard"], "unknown player 'wizard' (choose from random, greedy"),
    (["--players", "random,random,random"], "3 names for 2 seats"),
    (["--games", "0"], "--games"),
    (["--workers", "0"], "--workers"),
])
def test_user_errors_are_one_line_and_status_2(capsys, argv, needle):
    code, out, err = cli(capsys, "simulate", *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and needle in err and err.count("\n") == 1


def test_an_interrupted_write_leaves_nothing_behind(tmp_path):
    target = tmp_path / "records.jsonl"
    with pytest.raises(RuntimeError):
        with atomic_writer(target) as f:
            f.write("half a line")
            raise RuntimeError("stop")
    assert list(tmp_path.iterdir()) == []


def test_a_tournament_plays_each_deal_twice_with_colours_swapped(capsys):
    code, out, _ = cli(capsys, "tournament", "--players", "random,greedy,easy:4", "--games", "6",
                       "--seed", "2", "--json")
    assert code == 0
    table = json.loads(out)
    assert {r["player"] for r in table["players"]} == {"random", "greedy", "easy:4"}
    for r in table["players"]:
        assert r["games"] == 12 and r["wins"] + r["draws"] + r["losses"] == 12
    assert len(table["pairings"]) == 3
    assert abs(sum(r["elo"] for r in table["players"])) <= 2


def test_a_tournament_refuses_an_odd_number_of_games(capsys):
    """Each deal is played twice, colours swapped: 3 games cannot be played as asked."""
    code, out, err = cli(capsys, "tournament", "--players", "random,greedy", "--games", "3")
    assert code == 2 and out == ""
    assert err == "error: --games: must be an even number, at least 2 (each deal is played twice), got 3\n"


def test_tournament_schedules_paired_deals():
    todo = tasks("classic", 1, [("random", "greedy"), ("greedy", "random")], 4, paired=True, pace=4)
    games = next(todo)()
    assert [g.players for g in games] == [("random", "greedy"), ("greedy", "random")] * 2
    assert games[0].seed == games[1].seed != games[2].seed == games[3].seed


def test_wilson_interval_and_elo():
    lo, hi = wilson(90, 100)
    assert 0.82 < lo < 0.83 and 0.94 < hi < 0.95
    assert wilson(0, 0) == (0.0, 1.0)
    elo = elo_ratings({("a", "b"): (75, 100)})
    assert elo["a"] == pytest.approx(-elo["b"]) and 150 < elo["a"] - elo["b"] < 200


def test_the_agent_answers_each_line_and_goes_on_after_a_bad_one():
    pos = to_json(Position.new(seed=3), pile=False)
    over = to_json(Position.new(seed=3)) | {"board": ["RRRRRRRRR"] * 5 + ["WWWWWWW.."] + ["........."] * 3}
    lines = [json.dumps(pos).encode(), b"not json", json.dumps(pos | {"crown": "z9"}).encode(),
             json.dumps(over).encode(), b"[" * 1000, b'{"seed": ' + b"7" * 5000 + b"}", b'{"a": "\xff"}',
             b" " * (2 << 20), json.dumps(pos).encode()]
    proc = processes.run([sys.executable, "-m", "firmware_py.cli", "agent", "--level", "easy:10", "--seed", "1"],
                          input=b"\n".join(lines) + b"\n", capture_output=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
    answers = proc.stdout.decode().splitlines()
    assert len(answers) == 9
    assert answers[0] in [str(m) for m in Position.new(seed=3).legal_moves()]
    assert answers[1].startswith("error: not JSON")
    assert answers[2].startswith("error: crown")
    assert answers[3].startswith("error: the game is over (last-stone)")
    assert answers[4] == "error: not JSON: nested more than 32 deep (byte 32)"
    assert answers[5] == "error: not JSON: an integer of more than 40 digits"
    assert answers[6] == "error: not UTF-8 text (byte 7)"
    assert answers[7] == f"error: line longer than {1 << 20} bytes"
    assert answers[8] == answers[0]  # the same position, the same seed: the same move


def test_the_agent_answers_before_the_next_line_arrives():
    """A program may wait for each answer before it sends the next position."""
    pos = Position.new(seed=4)
    with processes.started([sys.executable, "-m", "firmware_py.cli", "agent", "--level", "greedy"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as proc:
        for _ in range(3):
            proc.stdin.write(json.dumps(to_json(pos)) + "\n")
            proc.stdin.flush()
            move = proc.stdout.readline().strip()
            pos.play(move)  # a legal move, or IllegalMoveError
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0


def test_the_agent_through_main(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(to_json(Position.new(seed=1))).encode()
                                                                  + b"\n")))
    code, out, _ = cli(capsys, "agent", "--level", "greedy")
    assert code == 0 and len(out.splitlines()) == 1


def test_sprt_accepts_the_hypothesis_the_scores_favour():
    strong, weak, even = [1.0, 0.75] * 15, [0.0, 0.25] * 15, [0.5, 0.25, 0.75, 0.5]
    assert sprt(strong, 0.5, 0.6)[2] == "H1"
    assert sprt(weak, 0.5, 0.6)[2] == "H0"
    assert sprt(strong[:8], 0.5, 0.6)[2] is None  # too few deals for any verdict
    assert sprt(even * 3, 0.45, 0.55)[2] is None  # in between: keep playing
    llr, (lower, upper), _ = sprt(even * 3, 0.45, 0.55)
    assert lower < llr < upper and lower == pytest.approx(-upper)


def test_a_tournament_with_sprt_stops_once_settled(capsys):
    code, out, _ = cli(capsys, "tournament", "--players", "greedy,random", "--games", "200",
                       "--seed", "3", "--sprt", "50,70", "--json")
    assert code == 0
    table = json.loads(out)
    test = table["sprt"]
    assert test["verdict"] == "H1" and test["llr"] >= test["bounds"][1]
    assert test["games"] == table["pairings"][0]["games"] < 200  # stopped early, on whole deals
    assert table["players"][0]["player"] == "greedy" and table["players"][0]["seconds_per_move"] > 0


@pytest.mark.parametrize("argv, message", [
    (["--players", "easy:5,random,greedy", "--sprt", "50,60"], "exactly two players"),
    (["--players", "easy:5,random", "--sprt", "60,50"], "0 < P0 < P1 < 100"),
    (["--players", "easy:5,random", "--sprt", "50,nan"], "0 < P0 < P1 < 100"),
    (["--players", "easy:5,random", "--sprt", "fifty"], "two percentages"),
])
def test_bad_sprt_options_are_refused(capsys, argv, message):
    code, out, err = cli(capsys, "tournament", "--games", "4", *argv)
    assert code == 2 and out == "" and message in err and err.startswith("error: ")


def test_an_empty_sprt_is_refused_not_ignored(capsys):
    code, out, err = cli(capsys, "tournament", "--players", "greedy,random", "--games", "2", "--sprt", "")
    assert (code, out) == (2, "") and err == "error: --sprt: expected two percentages P0,P1 such as 50,60, got ''\n"


def test_a_run_in_one_process_loads_no_progress_bar_nor_process_pool():
    """Start-up counts in a short run: with no terminal to draw on, `simulate` loads neither tqdm nor
    multiprocessing, concurrent.futures or logging (a tenth of a second together)."""
    code = ("import sys; from firmware_py.cli import main; main(['simulate', '--games', '3']); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'tqdm', 'multiprocessing', 'concurrent', 'logging'}))")
    out = processes.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]"


def test_the_progress_bar_is_drawn_on_a_terminal_only(monkeypatch):
    from firmware_py import executors

    with executors.progress(5) as bar:
        bar.update(2)
        assert isinstance(bar, executors.Silent) and bar.n == 2 and bar.total == 5
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with executors.progress(5) as bar:
        assert type(bar).__name__ == "tqdm" and bar.total == 5
