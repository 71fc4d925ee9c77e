"""`roseking soak`: the real service on an accelerated clock, visited at random, a museum's morning in
seconds; a fault in the devices is found and counted; bad arguments are one error line."""
import datetime
import json
import tempfile

import pytest

from engine.record import replay
from firmware_py import soak as soak_module
from firmware_py.cli import main
from firmware_py.soak import Report, sim_devices, soak
from firmware_py.table.game import Game, Mode, Setup
from firmware_py.table.saves import ARCHIVE, Saves
from firmware_py.table.session import deal
from hardware import parse_config


pytestmark = pytest.mark.usefixtures("no_waiting_for_the_disk")  # a soak's hundreds of saves would wait


def archived(data):
    return [json.loads(line) for line in (data / ARCHIVE).read_text().splitlines()]


def busy_morning(monkeypatch, kinds, level=soak_module.LEVEL):
    """The soak's museum, busier: visitors of `kinds` only (kind → weight), one every five minutes on average,
    each thinking 0.3-1 s before a move, from two minutes before opening time (asleep, then open: attract mode
    between visits, its games played by `random`); `level` is the computer's in the visitors' games. The
    table and the visits are the same; what `roseking soak` sees in hours comes in a quarter of one. No palms
    here: tests/test_soak_season.py has them."""
    monkeypatch.setattr(soak_module, "VISITS", kinds)
    monkeypatch.setattr(soak_module, "PALM_VISITS", 0)
    monkeypatch.setattr(soak_module, "MEAN_IDLE_SECONDS", 5 * 60.0)
    monkeypatch.setattr(soak_module, "PERSON_THINKS", (0.3, 1.0))
    monkeypatch.setattr(soak_module, "START", datetime.datetime(2026, 12, 1, 9, 58))
    monkeypatch.setattr(soak_module, "EXHIBIT", {**soak_module.EXHIBIT, "attract_level": "random"})
    monkeypatch.setattr(soak_module, "LEVEL", level)


def assert_archived_as_reported(report, data):
    """Every game in the table's own archive replays (every move legal, every result right), and the report
    counts them."""
    records = archived(data)
    finished = [r for r in records if r["result"]["reason"] != "unfinished"]
    assert len(finished) == report.games_completed and len(records) - len(finished) == report.unfinished
    for record in records:
        replay(record)
    return finished


def test_a_short_soak_plays_games_to_the_end_against_people_and_the_worker_without_an_error(tmp_path, monkeypatch):
    """Players only, the computer at `random`: its answers come at once however busy the machine, so every run
    makes the same visits (a slip of a hand on the menu's level card would leave `random` out of the
    visitors' reach; seed 10 makes none). The table sleeps, wakes, opens, attracts between the visits."""
    busy_morning(monkeypatch, {"player": 1}, level="random")
    report = soak(0.27, seed=10, data_dir=tmp_path)
    tally = report.tally
    assert report.errors == 0, tally.errors
    assert report.games_completed >= 2 and set(tally.visits) == {"player"} and tally.presses > 250
    finished = assert_archived_as_reported(report, tmp_path)
    assert any("random" in r["players"].values() for r in finished)         # a whole game against the worker
    assert {"asleep", "attract", "play", "over"} <= set(dict(report.entered))
    assert 0 < report.worst_latency_ms < 10_000 and report.start_mb > 0 and report.end_mb > 0


def test_a_short_soak_walks_away_mashes_and_resets_without_an_error(tmp_path, monkeypatch):
    """The computer at `random`, as above, so that a busy machine changes nothing (at `easy`, a starved worker
    made seed 4's child press 14 buttons where it pressed 66); seed 7 brings each kind of visitor."""
    busy_morning(monkeypatch, {"walk-away": 1, "child": 1, "staff": 1}, level="random")
    report = soak(0.26, seed=7, data_dir=tmp_path)
    tally = report.tally
    assert report.errors == 0, tally.errors
    assert tally.walked_away >= 1 and tally.staff_resets >= 1 and set(tally.visits) == {"walk-away", "child", "staff"}
    assert report.unfinished >= tally.walked_away and tally.presses > 40
    assert_archived_as_reported(report, tmp_path)


def test_without_a_data_directory_the_soak_leaves_nothing_behind(tmp_path, monkeypatch):
    """(A child's game is saved in it; seed 1 asks the computer nothing in the 6 minutes.)"""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    report = soak(0.1, seed=1)
    assert report.errors == 0 and list(tmp_path.iterdir()) == []


class TenthFrameFails:
    """The board's lights, whose driver fails on every tenth frame (as `ws2811_render` does when the PWM
    cannot be written)."""

    def __init__(self, lights):
        self.inner, self.frames = lights, 0

    def show(self, board):
        self.frames += 1
        if self.frames % 10 == 0:
            raise RuntimeError("ws2811_render failed with code -7 (Failed to write to the PWM)")
        self.inner.show(board)

    def set_brightness(self, level):
        self.inner.set_brightness(level)

    def close(self):
        self.inner.close()


def faulty_devices():
    devices = sim_devices(parse_config({}))
    devices.lights = TenthFrameFails(devices.lights)
    return devices


def test_a_fault_in_the_devices_is_counted_as_errors_and_the_games_go_on(tmp_path, monkeypatch):
    busy_morning(monkeypatch, {"player": 1}, level="random")
    devices = faulty_devices()
    lights = devices.lights
    report = soak(0.15, seed=10, data_dir=tmp_path, devices=devices)
    assert report.refused_frames == lights.frames // 10 > 10          # each refused frame counted
    assert report.errors > report.refused_frames                               # and the service's log lines
    assert any(line.startswith("roseking: the board's lights failed (RuntimeError: ws2811_render")
               for line in report.tally.errors)
    assert report.games_completed >= 1                                         # the game went on to its end


def test_the_command_prints_its_figures_and_exits_1_when_there_were_errors(capsys, monkeypatch):
    """Seed 1: two children in the first 6 minutes, no question to the computer, 340 frames (34 refused)."""
    assert main(["soak", "--sim", "--hours", "0.1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    for figure in ("simulated: 0.1 hours", "games completed:", "games walked away from:", "errors: 0",
                   "resident memory:", "worst press → frame latency:"):
        assert figure in out
    monkeypatch.setattr(soak_module, "sim_devices", lambda config: faulty_devices())
    assert main(["soak", "--sim", "--hours", "0.1", "--seed", "1"]) == 1
    assert "errors: 0" not in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--hours", "0"], "--hours: must be above 0 and at most 2000 (got 0)"),
    (["--hours", "-3"], "--hours: must be above 0 and at most 2000 (got -3)"),
    (["--hours", "nan"], "(got nan)"),
    (["--hours", "inf"], "(got inf)"),
    (["--hours", "1e9"], "(got 1e+09)"),
    (["--hours", "two"], "argument --hours: invalid float value: 'two'"),
    (["--hours", "1", "--seed", "-1"], "--seed: must be between 0 and"),
    (["--hours", "1", "--data-dir", ""], "--data-dir: the directory name is empty"),
    (["--hours", "1", "--data-dir", "/dev/null"], "data directory /dev/null: not a directory"),
])
def test_bad_arguments_are_one_error_line_and_status_2(capsys, argv, message):
    assert main(["soak", "--sim"] + argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("error: ")


def test_the_soak_needs_sim(capsys):
    assert main(["soak", "--hours", "1"]) == 2
    assert "--sim" in capsys.readouterr().err


def test_the_report_says_the_growth_of_memory():
    report = Report(10, 61, 2, 1, 0, soak_module.Tally(), 0, 40.0, 44.0, 44.22, 3.0, "menu")
    assert "40.0 MB at the start, 44.0 MB after 1 h, 44.2 MB at the end (+10.5% from the start, +0.5% from " \
           "1 h)" in "\n".join(report.lines())
    assert "1 min 1 s" in report.lines()[0]


def test_a_kept_data_directory_is_resumed_and_what_the_start_said_is_no_error(tmp_path):
    game = Game(Setup(Mode.HUMANS, seed=7), deal(Setup(Mode.HUMANS, seed=7)))
    game.press(0, "card1", 0.0)
    game.press(0, "card1", 0.1)                                 # R10: NE3
    assert Saves(tmp_path, log=print).save(game)
    report = soak(0.05, seed=3, data_dir=tmp_path)
    assert report.said == ("roseking: resuming the saved game (1 moves)",) and report.errors == 0
    assert report.lines()[0] == "at the start: roseking: resuming the saved game (1 moves)"
