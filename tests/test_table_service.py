"""The table service as a program: its settings, its saves (resume, corrupt files, SIGKILL at any
moment) and `roseking play` on the command line."""
import contextlib
import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from multiprocessing import forkserver
from pathlib import Path

import pytest

import processes

from engine.errors import RecordError
from engine.record import dumps, replay
from firmware_py.cli import main
from firmware_py.table.computer import PRELOAD, Computer, prepare, think
from firmware_py.table.exhibit import ATTRACT_LEVELS
from firmware_py.table.game import Request, Setup
from firmware_py.errors import UsageError
from firmware_py.table.saves import ARCHIVE, CURRENT, RETRY_SECONDS, Saves, SaveError, setup_of
from firmware_py.table.session import deal
from firmware_py.commands.play import teams_sim_config
from firmware_py.device_options import load_config
from firmware_py.table.settings import LEVELS, Settings, parse_settings, table_settings
from hardware import ConfigError, parse_config

ROSEKING = [sys.executable, "-m", "firmware_py.cli"]
ENV = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", BLINKA_OS_AGNOSTIC="1")


# --- settings --------------------------------------------------------------

def test_the_table_section_is_handed_over_and_every_key_checked():
    config = parse_config({"table": {"hint": False, "think_seconds": 3, "data_dir": "/tmp/x"}}, "t.toml")
    s = parse_settings(config.table, config.source)
    assert (s.hint, s.takeback, s.think_seconds, str(s.data_path())) == (False, True, 3.0, "/tmp/x")


@pytest.mark.parametrize("table, message", [
    ({"hint": 1}, "t.toml: table.hint: must be true or false (got 1)"),
    ({"think_seconds": math.inf}, "t.toml: table.think_seconds: must be a finite number (got inf)"),
    ({"think_seconds": math.nan}, "t.toml: table.think_seconds: must be a finite number (got nan)"),
    ({"think_seconds": 61}, "t.toml: table.think_seconds: must be above 0.1 and at most 60 (got 61)"),
    ({"level": "godlike"}, 't.toml: table.level: must be one of "easy", "medium", "hard", "max" (got "godlike")'),
    ({"cards_per_seat": 3}, "t.toml: table.cards_per_seat: must agree with cards_per_seat = 5 (got 3)"),
    ({"data_dir": ""}, "t.toml: table.data_dir: must be a directory path (got '')"),
    ({"colour": "red"}, "t.toml: table.colour: unknown key"),
    ({"shutdown_command": "systemctl poweroff"}, "t.toml: table.shutdown_command: must be a program and its "
                                                 "arguments, 1 to 16 words, as a list of strings (got 'systemctl"),
    ({"shutdown_command": []}, "t.toml: table.shutdown_command: must be a program and its arguments"),
])
def test_bad_table_keys_are_named(table, message):
    with pytest.raises(ConfigError) as err:
        parse_settings(parse_config({"table": table}, "t.toml").table, "t.toml")
    assert str(err.value).startswith(message)


def test_the_default_data_directory_is_per_user(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert Settings().data_path() == tmp_path / "roseking"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert Settings().data_path() == Path.home() / ".local" / "share" / "roseking"


# --- saves ------------------------------------------------------------------

ENDED = "2026-12-01T12:00:00Z"


def played(setup, moves):
    """A game of `moves` random moves; one that has ended says when (`ended`), as the table's records do, so
    that the same game played twice is the same record."""
    from firmware_py.table.game import Game
    game = Game(setup, deal(setup))
    rng = __import__("random").Random(setup.seed)
    for _ in range(moves):
        if not game.over:
            game.make(rng.choice(game.pos.legal_moves()), 0.0)
    if game.over:
        game.ended_at = ENDED
    return game


def test_a_save_resumes_exactly_even_after_reshuffles(tmp_path):
    saves = Saves(tmp_path)
    game = played(Setup("vs-computer", "hard", "white", seed=12), 70)   # long enough to reshuffle (R11)
    assert any(m.startswith("draw") for m in game.pos.history())
    saves.save(game)
    back = saves.load()
    assert back.pos == game.pos and back.setup == game.setup and back.players == ("hard", "human")
    while not back.pos.is_over() and not game.pos.is_over():    # the same draws to come, piles and all
        move = game.pos.legal_moves()[-1]
        game.make(move, 0.0)
        back.make(move, 0.0)
        assert back.pos == game.pos


@pytest.mark.parametrize("content, why", [
    (b"{not json", "not JSON"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[1, 2]", "not a game record"),
    (json.dumps({"format": "something-else/1"}).encode(), "no seed or players"),
])
def test_a_corrupt_or_foreign_save_is_set_aside_with_a_log_line(tmp_path, content, why):
    log = []
    saves = Saves(tmp_path, log=log.append)
    (tmp_path / CURRENT).write_bytes(content)
    assert saves.load() is None
    assert not (tmp_path / CURRENT).exists()
    aside = list(tmp_path.glob(f"set-aside-*-{CURRENT}"))
    assert len(aside) == 1 and aside[0].read_bytes() == content          # nothing is lost
    assert len(log) == 1 and why in log[0] and aside[0].name in log[0] and "starting a new game" in log[0]


def test_a_save_with_an_illegal_move_is_set_aside(tmp_path):
    saves = Saves(tmp_path, log=[].append)
    record = played(Setup("humans", seed=4), 3).record()
    record["moves"].append("H+N1")
    (tmp_path / CURRENT).write_text(json.dumps(record))
    assert saves.load() is None and list(tmp_path.glob("set-aside-*"))


def test_a_save_that_is_not_a_regular_file_is_set_aside_unread(tmp_path):
    log = []
    os.mkfifo(tmp_path / CURRENT)                       # reading it would wait for a writer forever
    assert Saves(tmp_path, log=log.append).load() is None
    assert "not a regular file" in log[0] and not (tmp_path / CURRENT).exists()


def test_a_save_that_cannot_be_moved_aside_is_one_error_line_and_stays(capsys, tmp_path, monkeypatch):
    (tmp_path / CURRENT).write_text("{not json")
    def refuse(*args):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(os, "replace", refuse)          # a read-only data folder, whoever runs the test
    assert main(["play", "--sim", "--data-dir", str(tmp_path), "--input-script", os.devnull]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "cannot be moved aside (Permission denied)" in err and err.count("\n") == 1
    assert (tmp_path / CURRENT).read_text() == "{not json"


def test_a_save_this_table_cannot_play_is_set_aside(capsys, tmp_path):
    """A two-player game on panels of three cards (R7), resumed without --mode: kept aside, the menu shows."""
    (tmp_path / CURRENT).write_text(json.dumps(played(Setup("humans", seed=4), 3).record()))
    config = tmp_path / "three.toml"
    config.write_text('backend = "sim"\ncards_per_seat = 3\n')
    argv = ["play", "--config", str(config), "--data-dir", str(tmp_path), "--input-script", os.devnull]
    assert main(argv + ["--exit-after-script"]) == 0
    err = capsys.readouterr().err
    assert "this table cannot play it: a two-player game needs five card slots per seat (R7" in err
    assert not (tmp_path / CURRENT).exists() and len(list(tmp_path.glob(f"set-aside-*-{CURRENT}"))) == 1


TEAMS_PI = Path(__file__).resolve().parent.parent / "examples" / "config" / "teams-pi.toml"


def test_the_teams_example_is_the_simulated_teams_table():
    """examples/config/teams-pi.toml wires the four panels (R20–R21) as `--sim --mode teams` simulates them."""
    example, sim = load_config(str(TEAMS_PI)), teams_sim_config()
    assert (example.seats, example.cards_per_seat, example.displays.chain, example.buttons.pins) == \
        (sim.seats, sim.cards_per_seat, sim.displays.chain, sim.buttons.pins)
    assert table_settings(example).cards_per_seat == table_settings(sim).cards_per_seat == 3


def test_play_on_a_sim_copy_of_the_teams_example_accepts_teams_and_refuses_two_players(capsys, tmp_path):
    """R20–R22: its four panels of three cards play teams; R7: a two-player game needs five cards a seat."""
    config = tmp_path / "teams-sim.toml"
    config.write_text(TEAMS_PI.read_text().replace('backend = "pi"', 'backend = "sim"', 1))
    argv = ["play", "--config", str(config), "--data-dir", str(tmp_path), "--input-script", os.devnull,
            "--exit-after-script", "--seed", "5", "--mode"]
    assert main(argv + ["teams"]) == 0
    assert json.loads((tmp_path / CURRENT).read_text())["variant"] == "teams"
    assert main(argv + ["humans"]) == 2
    assert "five card slots per seat (R7; cards_per_seat = 3)" in capsys.readouterr().err


def test_table_cards_per_seat_must_agree_with_the_panels(capsys, tmp_path):
    config = tmp_path / "t.toml"
    config.write_text('backend = "sim"\ncards_per_seat = 3\n[table]\ncards_per_seat = 5\n')
    assert main(["config", "check", str(config)]) == 2
    assert capsys.readouterr().err == f"error: {config}: table.cards_per_seat: must agree with cards_per_seat = 3 " \
        "(got 5)\n"


def test_players_that_are_not_a_table_mode_are_foreign():
    with pytest.raises(SaveError):
        setup_of({"seed": 1, "players": {"red": "hard", "white": "easy"}})
    with pytest.raises(SaveError):
        setup_of({"seed": 1, "players": {"red": "human", "white": "deep-blue"}})
    with pytest.raises(SaveError, match="hard:abc"):            # the worker would die on it, again and again
        setup_of({"seed": 1, "players": {"red": "human", "white": "hard:abc"}})


def test_a_save_that_comes_back_is_archived_once_and_the_same_game_played_again_twice(tmp_path):
    """A kill between archiving a game and removing its save (or a removal that failed) leaves the save, read at
    the next start: archived once. The same game played again (a demonstration with a fixed seed, the same
    abandoned game) is a game more: it was archived once, and a museum's count of games came out short."""
    saves = Saves(tmp_path, tmp_path / "extra.jsonl")
    game = played(Setup("demo", "random", seed=3), 400)
    assert game.over
    saves.finish(game)
    (tmp_path / CURRENT).write_text(dumps(game.record()) + "\n")           # as a kill before the removal left it
    restarted = Saves(tmp_path, tmp_path / "extra.jsonl")
    resumed = restarted.read()
    assert resumed is not None and resumed.over and resumed.record() == game.record()
    restarted.finish(resumed)
    for path in (tmp_path / ARCHIVE, tmp_path / "extra.jsonl"):
        lines = path.read_text().splitlines()
        assert len(lines) == 1 and replay(json.loads(lines[0]))
    assert not (tmp_path / CURRENT).exists()
    for _ in range(2):
        restarted.finish(played(Setup("demo", "random", seed=3), 400))
    for path in (tmp_path / ARCHIVE, tmp_path / "extra.jsonl"):
        assert path.read_text() == (dumps(game.record()) + "\n") * 3


def test_a_waiting_game_that_comes_back_is_archived_once_and_the_same_game_waiting_twice_twice(tmp_path):
    """A waiting file left by a kill after its game was archived is removed at the next start, not archived
    again; two games alike that waited for the archive are both archived (the second was removed unarchived)."""
    line = dumps(played(Setup("demo", "random", seed=3), 400).record()) + "\n"
    (tmp_path / ARCHIVE).write_text(line)
    (tmp_path / "unarchived-1.json").write_text(line)
    saves = Saves(tmp_path)
    saves.retry(0.0)
    assert (tmp_path / ARCHIVE).read_text() == line and saves.waiting() == []
    (tmp_path / ARCHIVE).unlink()
    (tmp_path / ARCHIVE).mkdir()
    for _ in range(2):
        saves.finish(played(Setup("demo", "random", seed=3), 400))
    assert len(saves.waiting()) == 2
    (tmp_path / ARCHIVE).rmdir()
    saves.close()
    assert (tmp_path / ARCHIVE).read_text() == line * 2 and saves.waiting() == []


def test_an_archived_game_says_when_it_ended_and_a_save_that_says_so_already_keeps_its_time(tmp_path):
    """`ended` (UTC, to the second) counts the games of a day across restarts: stamped when the game is
    archived, kept from a save that has it (a kill came between the save and the archive)."""
    from engine.record import ended_at
    saves = Saves(tmp_path)
    left = played(Setup("humans", seed=4), 5)
    before = time.time()
    saves.finish(left)
    again = played(Setup("demo", "random", seed=3), 400)
    saves.finish(again)
    first, second = archived(tmp_path)
    assert int(before) <= ended_at(first["ended"]) <= time.time() and first["result"]["reason"] == "unfinished"
    assert second["ended"] == ENDED and replay(second)
    stale = dict(second, ended="2026-13-01T00:00:00Z")
    with pytest.raises(RecordError, match="ended: '2026-13-01T00:00:00Z' is not a UTC time"):
        replay(stale, "game")


def test_records_gets_the_games_replaced_before_their_end_too_and_its_help_says_so(capsys, tmp_path):
    """(The help said `each finished game`.)"""
    Saves(tmp_path / "data", str(tmp_path / "copy.jsonl")).finish(played(Setup("humans", seed=4), 6))
    assert json.loads((tmp_path / "copy.jsonl").read_text())["result"]["reason"] == "unfinished"
    assert main(["play", "--help"]) == 0
    words = " ".join(capsys.readouterr().out.split())
    assert "--records PATH also append each game archived to PATH (JSON Lines): each finished game, and each one " \
           "a new game replaced (its result unfinished)" in words


ARCHIVE_INTO = """
import sys
sys.path.insert(0, "tests")
from test_table_service import played
from firmware_py.table.game import Setup
from firmware_py.table.saves import Saves
Saves(sys.argv[1], sys.argv[2], log=print).finish(played(Setup("demo", "random", seed=3), 400))
"""


def archive_into(tmp_path, target):
    """Archive a finished game into `target` as `--records`, in a process that must end within 30 s."""
    return processes.run([sys.executable, "-c", ARCHIVE_INTO, str(tmp_path / "data"), str(target)], env=ENV,
                          cwd=Path(__file__).parent.parent, capture_output=True, text=True, timeout=30)


def test_records_on_a_device_are_appended_without_reading_it(tmp_path):
    done = archive_into(tmp_path, "/dev/zero")          # its "last line" would never end
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert len((tmp_path / "data" / ARCHIVE).read_text().splitlines()) == 1


def test_records_on_a_fifo_get_the_line_or_a_log_line_never_a_wait(tmp_path):
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    done = archive_into(tmp_path, fifo)                 # nobody reads: logged, the game is still archived
    assert done.returncode == 0 and "could not be copied to --records" in done.stdout and "games.fifo" in done.stdout
    assert (tmp_path / "data" / ARCHIVE).exists()
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        done = archive_into(tmp_path, fifo)
        assert done.returncode == 0 and done.stdout == "", done.stdout
        line = os.read(reader, 1 << 20)
        assert line.endswith(b"\n") and replay(json.loads(line))
    finally:
        os.close(reader)


def finished_save(data, seed=3):
    """A finished game as the current save in `data` (a kill came before it was archived); its record."""
    data.mkdir(exist_ok=True)
    record = played(Setup("demo", "random", seed=seed), 400).record()
    (data / CURRENT).write_text(json.dumps(record) + "\n")
    return record


def play_once(data, *extra):
    return main(["play", "--sim", "--data-dir", str(data), "--input-script", os.devnull, "--exit-after-script",
                 *extra])


def archived(data):
    return [json.loads(line) for line in (data / ARCHIVE).read_text().splitlines()]


def block_with_a_directory(path):
    path.mkdir()
    return path.rmdir


def block_with_a_fifo(path):
    os.mkfifo(path)             # with no reader: appending would wait for one
    return path.unlink


def block_with_a_link_loop(path):
    path.symlink_to(path.name)
    return path.unlink


@pytest.mark.parametrize("block", [block_with_a_directory, block_with_a_fifo, block_with_a_link_loop])
def test_a_finished_game_the_archive_cannot_take_is_kept_and_archived_at_the_next_start(capsys, tmp_path, block):
    """The save used to be removed although the archive had failed: the game was gone."""
    data = tmp_path / "data"
    record = finished_save(data)
    unblock = block(data / ARCHIVE)
    assert play_once(data) == 0
    err = capsys.readouterr().err
    kept = list(data.glob("unarchived-*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text()) == record, err
    assert not (data / CURRENT).exists()                             # the save's place is free for a new game
    assert f"the finished game could not be archived: {data / ARCHIVE}" in err and kept[0].name in err
    unblock()
    assert play_once(data) == 0
    assert f"{kept[0].name}: archived" in capsys.readouterr().err
    assert archived(data) == [record] and not list(data.glob("unarchived-*"))


def test_a_torn_last_line_of_the_archive_is_left_and_the_game_gets_a_line_of_its_own(capsys, tmp_path):
    """The record used to be glued onto the torn line, and neither replayed."""
    data = tmp_path / "data"
    record = finished_save(data)
    (data / ARCHIVE).write_bytes(b'partial {"format": "roseki')   # a power loss in the middle of an append
    assert play_once(data) == 0
    assert (data / ARCHIVE).read_text() == f'partial {{"format": "roseki\n{dumps(record)}\n'
    assert not (data / CURRENT).exists()
    capsys.readouterr()
    assert main(["replay", str(data / ARCHIVE)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("game 1: ") and out.count("\n") == 1
    assert err.startswith(f"warning: {data / ARCHIVE}:1: not JSON") and err.count("\n") == 1


def test_games_wait_for_the_archive_retried_every_period_with_one_log_line_each_way(tmp_path):
    log = []
    saves = Saves(tmp_path, log=log.append)
    saves.retry(0.0)                                       # start-up: nothing waits
    (tmp_path / ARCHIVE).mkdir()
    games = [played(Setup("demo", "random", seed=seed), 400) for seed in (3, 4)]
    for game in games:
        saves.finish(game)
    assert len(saves.waiting()) == 2 and len(log) == 2 and all("could not be archived" in line for line in log)
    for now in (1.0, RETRY_SECONDS + 0.5, 2 * RETRY_SECONDS + 1, 3 * RETRY_SECONDS + 2):
        saves.retry(now)
    assert len(log) == 3 and "still wait" in log[2], log  # tried at the third time only, and said once
    (tmp_path / ARCHIVE).rmdir()
    saves.retry(4 * RETRY_SECONDS)
    assert len(log) == 3                                   # not before the period is over
    saves.retry(5 * RETRY_SECONDS)
    assert [line.endswith(": archived") for line in log[3:]] == [True, True]
    assert archived(tmp_path) == [g.record() for g in games] and saves.waiting() == []


def test_a_game_no_file_can_keep_is_held_in_memory_and_the_old_save_left_for_the_next_start(tmp_path, monkeypatch):
    import firmware_py.table.saves as saves_module
    log = []
    saves = Saves(tmp_path, log=log.append)
    game = played(Setup("demo", "random", seed=3), 400)
    (tmp_path / CURRENT).write_text("an older save of the game")
    (tmp_path / ARCHIVE).mkdir()

    def full(path, data):
        raise UsageError(f"{path}: cannot write (No space left on device)")
    monkeypatch.setattr(saves_module, "write_file", full)
    saves.finish(game)
    assert "held in memory only" in log[-1] and saves.waiting() == []
    assert (tmp_path / CURRENT).read_text() == "an older save of the game"
    saves.close()                                   # the service stops: the record goes into the log
    assert log[-1] == f"roseking: a finished game could not be written anywhere; its record: {dumps(game.record())}"
    monkeypatch.undo()
    (tmp_path / ARCHIVE).rmdir()
    saves.close()                                   # had it gone on, the disk with room again
    assert archived(tmp_path) == [game.record()]


def test_a_waiting_file_that_is_not_a_game_is_set_aside_and_the_others_archived(tmp_path):
    log = []
    good = played(Setup("demo", "random", seed=3), 400).record()
    (tmp_path / "unarchived-1.json").write_text('{"format": "roseking-game/1", "mov')
    (tmp_path / "unarchived-2.json").write_text(json.dumps(good))
    Saves(tmp_path, log=log.append).retry(0.0)
    assert archived(tmp_path) == [good] and not list(tmp_path.glob("unarchived-*"))
    aside = list(tmp_path.glob("set-aside-*-unarchived-1.json"))
    assert len(aside) == 1 and "not JSON" in log[0] and aside[0].name in log[0]


@pytest.mark.parametrize("variant, players", [
    ("classic", {"red": "human"}),
    ("classic", {"red": "human", "white": "human", "red2": "human"}),
    ("teams", {"red1": "human", "white1": "human"}),
    ("classic", {"red": "human", "white1": "human"}),
])
def test_a_save_with_players_that_are_not_one_for_each_seat_is_set_aside(tmp_path, variant, players):
    setup = Setup("teams" if variant == "teams" else "humans", seed=4)
    record = played(setup, 3).record()
    record["players"] = players
    (tmp_path / CURRENT).write_text(json.dumps(record))
    log = []
    assert Saves(tmp_path, log=log.append).load() is None
    assert "not one for each seat" in log[0] and len(list(tmp_path.glob("set-aside-*"))) == 1


def test_the_human_of_a_save_is_found_by_seat_not_by_the_order_of_the_keys(tmp_path):
    record = played(Setup("vs-computer", "easy", "white", seed=4), 3).record()
    record["players"] = dict(reversed(record["players"].items()))   # {"white": "human", "red": "easy"}
    assert setup_of(record) == Setup("vs-computer", "easy", "white", seed=4)


def test_a_finished_game_whose_save_is_in_the_way_is_still_archived_with_log_lines(tmp_path):
    log = []
    (tmp_path / CURRENT).mkdir()                        # e.g. made by hand while the game went on
    Saves(tmp_path, log=log.append).finish(played(Setup("demo", "random", seed=3), 400))
    assert len((tmp_path / ARCHIVE).read_text().splitlines()) == 1
    assert "could not be saved" in log[0] and "cannot be removed" in log[1] and len(log) == 2


# --- the thinking worker ----------------------------------------------------------

def test_the_worker_answers_as_the_player_would_and_can_be_cancelled():
    pos = deal(Setup(seed=5))
    request = Request("move", 1, 0, "easy", 77, pos.to_json(pile=False))
    computer = Computer(5.0)
    try:
        computer.ask(Request("move", 1, 0, "max", 1, pos.to_json(pile=False)))
        computer.cancel()                               # a long think, cancelled: the worker is stopped
        assert computer.busy is None
        computer.ask(request)
        got = computer.receive(timeout=30)
        assert got == (request, think("easy", 77, request.position, 5.0))
        computer.ask(Request("move", 1, 0, "max", 1, pos.to_json(pile=False)))
        os.kill(computer.pid(), signal.SIGKILL)         # the worker dies mid-thought (out of memory, say)
        assert computer.receive(timeout=30) is None and computer.busy is None and computer.pid() is None
        computer.ask(request)                           # as the loop does: the question goes to a fresh worker
        assert computer.receive(timeout=30) == got
    finally:
        computer.close()


def test_fresh_workers_are_forked_by_one_fork_server_and_one_that_died_is_started_again():
    """Not the loop's process (it runs gpiozero threads) nor a spawned interpreter importing the engine anew: the
    fork server forks each worker; one that died (out of memory, say) is started again by the next question."""
    request = Request("move", 1, 0, "random", 7, deal(Setup(seed=5)).to_json(pile=False))
    computer = Computer(5.0)
    try:
        prepare()
        computer.ask(request)
        answer = computer.receive(timeout=30)
        server = processes.parent(computer.pid())
        assert server != os.getpid() and "multiprocessing.forkserver" in Path(f"/proc/{server}/cmdline").read_text()
        computer.cancel()
        computer.ask(request)
        assert computer.receive(timeout=30) == answer and processes.parent(computer.pid()) == server
        computer.cancel()
        os.kill(server, signal.SIGKILL)
        assert processes.gone(server)
        computer.ask(request)
        assert computer.receive(timeout=30) == answer
        again = processes.parent(computer.pid())
        assert again not in (server, os.getpid())
        assert "multiprocessing.forkserver" in Path(f"/proc/{again}/cmdline").read_text()
    finally:
        computer.close()


PRELOADED = """
import importlib, sys
for name in sys.argv[1].split(","):
    importlib.import_module(name)
before = set(sys.modules)
from engine.position import Position
from firmware_py.table import computer
position = Position.new(seed=1).to_json()
for level in sys.argv[2:]:
    computer.think(level, 1, position, 0.05)
print(sorted(set(sys.modules) - before))
"""


def test_a_forked_worker_imports_nothing_at_any_level_of_the_table():
    """What the fork server imports (`PRELOAD`) is all that a worker needs to think at each level the menu offers
    and the exhibit's attract games play: a fresh worker does not import."""
    levels = sorted({*LEVELS, *ATTRACT_LEVELS})
    done = processes.run([sys.executable, "-c", PRELOADED, ",".join(PRELOAD), *levels], env=ENV, capture_output=True,
                         text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"


def test_a_worker_is_spawned_when_the_fork_server_cannot_be_reached():
    """A fork server whose socket went (or which is dying) fails the start: that worker is spawned instead."""
    request = Request("move", 1, 0, "random", 7, deal(Setup(seed=5)).to_json(pile=False))
    computer = Computer(5.0)
    prepare()
    address = forkserver._forkserver._forkserver_address      # the server's socket (multiprocessing's own state)
    os.rename(address, address + ".away")
    try:
        computer.ask(request)
        answer = computer.receive(timeout=30)
        assert processes.parent(computer.pid()) == os.getpid()
    finally:
        os.rename(address + ".away", address)
        computer.close()
    computer.ask(request)                                       # the server back: forked again
    try:
        assert computer.receive(timeout=30) == answer and processes.parent(computer.pid()) != os.getpid()
    finally:
        computer.close()


# --- the command ---------------------------------------------------------------

def test_teams_without_four_seats_is_refused(capsys, tmp_path):
    config = tmp_path / "two.toml"
    config.write_text('backend = "sim"\nseats = ["red", "white"]\n')
    assert main(["play", "--config", str(config), "--mode", "teams", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --mode teams: a teams game needs four seat panels") and err.count("\n") == 1


def test_the_simulated_teams_table_plays_from_a_script_and_resumes(capsys, tmp_path):
    script = tmp_path / "teams.txt"
    script.write_text("red1.card1 press\nwait 0.1\nred1.card1 press\nwait 0.1\nwhite1.draw press\nwait 0.2\n")
    argv = ["play", "--sim", "--mode", "teams", "--seed", "21", "--input-script", str(script),
            "--exit-after-script", "--data-dir", str(tmp_path)]
    status, err = main(argv), capsys.readouterr().err
    assert status == 0, err
    record = json.loads((tmp_path / CURRENT).read_text())
    assert record["variant"] == "teams" and len(record["moves"]) == 1      # white 1 holds 3 cards: no draw (R21)
    assert list(record["players"]) == ["red1", "white1", "red2", "white2"]
    again = ["play", "--sim", "--data-dir", str(tmp_path), "--input-script", os.devnull, "--exit-after-script"]
    assert main(again) == 0                                 # without --mode: resumed on the simulated teams table
    assert "resuming the saved game (1 moves)" in capsys.readouterr().err
    assert json.loads((tmp_path / CURRENT).read_text()) == record and not list(tmp_path.glob("set-aside-*"))


@pytest.mark.parametrize("argv, message", [
    (["--level", "godlike"], "unknown player 'godlike'"),
    (["--seed", "-1"], "--seed: must be between 0"),
    (["--mode", "duel"], "invalid choice: 'duel'"),
    (["--records", "/nonexistent/x.jsonl"], "/nonexistent/x.jsonl: no such directory"),
    (["--data-dir", "/proc/none"], "data directory /proc/none: cannot use"),
    (["--data-dir", "/dev/null"], "data directory /dev/null: not a directory"),
    (["--records", ""], "an output file name is empty"),          # as simulate --records ''
    (["--data-dir", ""], "--data-dir: the directory name is empty"),
    (["--level", ""], "unknown player ''"),
    (["--records", "/proc/sys/kernel/version"], "version: cannot open for appending"),  # even for root
])
def test_bad_play_options_are_one_error_line(capsys, tmp_path, argv, message):
    (tmp_path / "none.txt").write_text("")       # should an option be taken, the service ends at once
    safe = ["--mode", "humans", "--input-script", str(tmp_path / "none.txt"), "--exit-after-script"]
    assert main(["play", "--sim", "--data-dir", str(tmp_path)] + safe + argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_scripted_session_is_reproducible(capsys, tmp_path):
    """The example script, the same seed: the moves the script's presses make, and the frames shown."""
    script = Path(__file__).parent.parent / "examples" / "first-moves.txt"
    data, frames, records = tmp_path / "data", tmp_path / "frames.jsonl", tmp_path / "records.jsonl"
    argv = ["play", "--sim", "--mode", "humans", "--seed", "7", "--input-script", str(script),
            "--exit-after-script", "--frames", str(frames), "--data-dir", str(data), "--records", str(records)]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 0 and out == "", err
    assert json.loads((data / CURRENT).read_text())["moves"] == ["NE3", "NW1", "draw:S2", "draw:SW2"]
    shown = [json.loads(line) for line in frames.read_text().splitlines()]
    assert shown[0]["board"][40] == "#ff9600"                          # the crown on e5
    assert any(f["board"][16] == "#ff0000" for f in shown[1:3])       # h8 blinks red: the preview
    assert not records.exists()                                       # unfinished: nothing archived


def test_mode_replaces_a_save_of_no_moves_without_setting_it_aside(tmp_path):
    argv = ["play", "--sim", "--mode", "humans", "--data-dir", str(tmp_path), "--input-script", os.devnull,
            "--exit-after-script"]
    for seed in ("5", "6"):
        assert main(argv + ["--seed", seed]) == 0
        assert json.loads((tmp_path / CURRENT).read_text())["seed"] == int(seed)
    assert not list(tmp_path.glob("set-aside-*"))       # the first deal follows from its seed: nothing lost


def saved_moves(data):
    """The moves of the current save, checked with `roseking replay` (in this process)."""
    path = data / CURRENT
    assert main(["replay", str(path)]) == 0
    return json.loads(path.read_text())["moves"]


def moves_in(data):
    try:
        return json.loads((data / CURRENT).read_text())["moves"]
    except FileNotFoundError:
        return []


def archived_games(data):
    try:
        return [json.loads(line) for line in (data / ARCHIVE).read_text().splitlines()]
    except FileNotFoundError:
        return []


@pytest.mark.parametrize("seed", [25, 26])
def test_sigkill_at_random_moments_the_restarted_service_resumes_the_very_position_saved(tmp_path, seed):
    """A power cut or a watchdog's SIGKILL at any moment (seeded random, from before the first frame to
    well into the moves), four times over in each of two runs: each restart says it resumes exactly the
    moves saved when the service before it died, goes on from that position (its own save begins with
    them), and every save and every archived game replays; a game that ended in between is in the
    archive, never lost."""
    data = tmp_path / "data"
    config = tmp_path / "fast.toml"
    config.write_text('backend = "sim"\n[table]\nshow_seconds = 0.05\nlevel = "easy"\nthink_seconds = 0.2\n')
    rng = random.Random(seed)
    saved: list[str] = []
    for n in range(4):
        mode = ["--mode", "demo", "--seed", "5"] if n == 0 else []            # then: resume (or a new demo)
        archive = len(archived_games(data))
        with processes.started(ROSEKING + ["play", "--config", str(config), "--data-dir", str(data)] + mode,
                               env=ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE) as proc:
            starting = rng.random() < 0.25
            if starting:
                time.sleep(rng.uniform(0.0, 0.5))                             # while it starts up
            else:
                deadline = time.monotonic() + 30
                while moves_in(data) == saved and time.monotonic() < deadline:
                    time.sleep(0.01)                                          # until it has made a move
                time.sleep(rng.uniform(0.0, 0.6))                             # then at any moment
            proc.send_signal(signal.SIGKILL)                                  # the service alone, as a kill -9
            _, err = proc.communicate(timeout=30)
        if saved and not starting:                                            # (its log held till it is up)
            assert f"resuming the saved game ({len(saved)} moves)".encode() in err, err
        games = archived_games(data)
        for record in games[archive:]:                                        # ended since the last kill
            replay(record)
            assert record["moves"][:len(saved)] == saved or not saved
        now = saved_moves(data) if (data / CURRENT).exists() else []
        if now and len(games) == archive:
            assert now[:len(saved)] == saved, err                             # it went on from where it was
        saved = now
    assert len(archived_games(data)) + len(saved) > 0


def test_config_check_reads_the_table_section(capsys, tmp_path):
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text('backend = "sim"\n[table]\nhint = false\nthink_seconds = 2\ntakeback_agree = false\n'
                    'show_seconds = 3.5\nscroll_speed = 12\n')
    bad.write_text('backend = "sim"\n[table]\nthink_seconds = nan\n')
    assert main(["config", "check", str(good)]) == 0
    assert "table: hint off, takeback on (one press), level medium, thinking at most 2 s, the computer's move " \
           "shown 3.5 s, text scrolled at 12 columns a second, 5 cards per seat" in capsys.readouterr().out
    assert main(["config", "check", str(bad)]) == 2
    assert capsys.readouterr().err == f"error: {bad}: table.think_seconds: must be a finite number (got nan)\n"


def test_mode_archives_the_saved_game_finished_or_not(capsys, tmp_path):
    script = tmp_path / "none.txt"
    script.write_text("")
    argv = ["play", "--sim", "--mode", "humans", "--seed", "2", "--data-dir", str(tmp_path),
            "--input-script", str(script), "--exit-after-script"]
    unfinished, finished = played(Setup("humans", seed=4), 5), played(Setup("demo", "random", seed=3), 400)
    for game in (unfinished, finished):
        (tmp_path / CURRENT).write_text(json.dumps(game.record()))
        status, err = main(argv), capsys.readouterr().err
        assert status == 0, err
        assert "archived in records.jsonl" in err
        assert json.loads((tmp_path / CURRENT).read_text())["seed"] == 2         # the new game
    assert not list(tmp_path.glob(f"set-aside-*-{CURRENT}"))
    archived = [json.loads(line) for line in (tmp_path / ARCHIVE).read_text().splitlines()]
    assert [r["moves"] for r in archived] == [unfinished.record()["moves"], finished.record()["moves"]]
    assert [r["result"]["reason"] for r in archived] == ["unfinished", finished.pos.outcome()]


@pytest.mark.parametrize("archive_fails", [False, True])
def test_mode_says_where_the_saved_game_went_in_the_log_on_the_table_and_in_the_caption(capsys, tmp_path,
                                                                                       archive_fails):
    """When the archive could not take the saved game, `--mode` still said "archived in records.jsonl" in
    the log, OLD GAME ARCHIVED on the table and in the caption, while the game waited in unarchived-….json."""
    from firmware_py.table.reading import text
    from hardware.frame import bitmap_rows
    data, frames, script = tmp_path / "data", tmp_path / "frames.jsonl", tmp_path / "wait.txt"
    data.mkdir()
    script.write_text("wait 0.1\n")
    if archive_fails:
        (data / ARCHIVE).mkdir()
    (data / CURRENT).write_text(json.dumps(played(Setup("humans", seed=4), 5).record()))
    assert main(["play", "--sim", "--mode", "humans", "--seed", "2", "--data-dir", str(data), "--frames",
                 str(frames), "--input-script", str(script), "--exit-after-script"]) == 0
    err = capsys.readouterr().err
    kept = list(data.glob("unarchived-*.json"))
    assert len(kept) == archive_fails
    where = f"not archived: kept in {kept[0].name}" if archive_fails else "archived in records.jsonl"
    assert f"roseking: the saved game (5 moves) {where}; a new game of humans starts" in err
    first = json.loads(frames.read_text().splitlines()[0])
    said = "OLD GAME NOT ARCHIVED" if archive_fails else "OLD GAME ARCHIVED"
    assert first["displays"]["red.card1"] == bitmap_rows(text(said, 0, 0, 5, Settings.scroll_speed)[0])
    assert first["caption"].endswith(f" · saved game {where}")


def test_submit_takes_events_from_any_thread_or_coroutine_in_order_and_every_receiver_sees_the_frames(tmp_path):
    """The loop's one way in: a press submitted before the loop runs, one from another thread and one from a
    coroutine are handled in that order; a second receiver (a mirror) is shown what the devices are shown."""
    import asyncio
    import threading
    from table_kit import Rig
    from firmware_py.table.game import Mode
    from hardware.events import PRESS, ButtonEvent
    rig = Rig(tmp_path / "data")
    game = rig.start(Setup(Mode.HUMANS, seed=7))         # red: NE3 W1 NW2 SW1 E2 (R7)
    mirror = []

    class Mirror:
        def show(self, frame, state):
            mirror.append(frame)
    rig.loop.receivers.append(Mirror())
    shown_before = len(rig.frames)
    rig.loop.submit(ButtonEvent("red", "card1", PRESS))     # NE3 previewed, once the loop runs

    async def serve():
        running = asyncio.create_task(rig.loop.run(exit_after_input=True))
        await asyncio.sleep(0.2)
        assert game.preview is not None and game.pos.history() == []
        thread = threading.Thread(target=rig.loop.submit, args=(ButtonEvent("red", "card1", PRESS),))
        thread.start()                                      # NE3 played
        thread.join()
        rig.loop.submit(ButtonEvent("white", "card1", PRESS))  # then White's first card, previewed
        rig.loop.end_input()
        await asyncio.wait_for(running, 30)

    try:
        asyncio.run(serve())
        assert game.pos.history() == ["NE3"] and game.preview.seat == 1
        assert mirror and mirror == rig.frames[shown_before:]
    finally:
        rig.close()


def test_a_press_as_the_service_stops_is_dropped_without_a_traceback(tmp_path, monkeypatch):
    """The button thread may still be waiting in `get` when `run` ends and clears its event loop."""
    import asyncio
    import threading
    from table_kit import Rig
    from firmware_py.table.service import ButtonBridge
    from hardware.events import ButtonEvent
    rig = Rig(tmp_path / "data")
    waiting, release = threading.Event(), threading.Event()
    failures = []
    monkeypatch.setattr(threading, "excepthook", failures.append)

    class LateButtons:
        def get(self, timeout=None):
            waiting.set()
            release.wait(5)
            return ButtonEvent("red", "draw", "press")

    stop = asyncio.Event()

    async def serve():
        stop.set()
        with ButtonBridge(LateButtons(), rig.loop):
            await rig.loop.run(stop=stop)

    asyncio.run(serve())
    assert waiting.wait(5)
    bridges = [t for t in threading.enumerate() if t.name == "table-buttons"]
    release.set()
    for thread in bridges:
        thread.join(5)
    assert failures == []


def test_a_save_that_cannot_be_read_is_set_aside_not_a_traceback(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / CURRENT).symlink_to(CURRENT)            # a link to itself: stat fails with ELOOP
    log = []
    assert Saves(data, log=log.append).load() is None
    assert not os.path.lexists(data / CURRENT)
    assert "cannot be read" in log[0] and "set-aside-" in log[0]


# --- check before acting, and the status when stopped ----------------------------------------------

@pytest.mark.parametrize("option, message", [
    (["--input-script", "SCRIPT"], "SCRIPT:1: unknown button 'red.card9'"),
    (["--exit-after-script"], "--exit-after-script needs --input-script FILE"),
    (["--frames", "OUT/no/frames.jsonl"], "no such directory"),
    (["--snapshot", "OUT/no/shots"], "cannot create (no such directory"),
    (["--frames", "DATA/current-game.json"], "--frames: DATA/current-game.json is the table's own current save"),
    (["--records", "DATA/records.jsonl"], "--records: DATA/records.jsonl is the table's own archive"),
    (["--frames", "DATA/set-aside-1-current-game.json"], "is the table's own kept game"),
    (["--snapshot", "DATA"], "--snapshot: DATA is the table's own data directory"),
    (["--records", "LINK"], "--records: LINK is the table's own archive"),
])
@pytest.mark.parametrize("mode", [[], ["--mode", "humans"]])
def test_a_failing_play_command_changes_nothing(capsys, tmp_path, option, message, mode):
    """A corrupt save (set aside when play goes ahead) or an unfinished one (set aside by --mode) stays
    exactly as it was, and nothing is written, when an option is refused."""
    data, out = tmp_path / "data", tmp_path / "out"
    data.mkdir()
    out.mkdir()
    save = b"{not json" if not mode else json.dumps(played(Setup("humans", seed=4), 5).record()).encode()
    (data / CURRENT).write_bytes(save)
    (data / ARCHIVE).write_text("")
    (data / "set-aside-1-current-game.json").write_text("an older game")
    (tmp_path / "script.txt").write_text("red.card9 press\n")
    (tmp_path / "LINK").symlink_to(data / ARCHIVE)
    names = {"SCRIPT": str(tmp_path / "script.txt"), "OUT": str(out), "DATA": str(data), "LINK": str(tmp_path / "LINK")}

    def named(text):
        for key, value in names.items():
            text = text.replace(key, value)
        return text
    before = sorted(os.listdir(data))
    assert main(["play", "--sim", "--data-dir", str(data), *mode, *map(named, option)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and named(message) in err and err.count("\n") == 1, err
    assert sorted(os.listdir(data)) == before and (data / CURRENT).read_bytes() == save
    assert list(out.iterdir()) == []


@contextlib.contextmanager
def play_with_its_save(data, *argv, ignoring=()):
    """`roseking play --sim ARGV` in a process group of its own (the stop signals at their default but
    `ignoring`, ignored as its parent would leave them), once it has saved the game it deals; ended with
    the block."""
    with processes.started(ROSEKING + ["play", "--sim", "--data-dir", str(data), *argv], env=ENV,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           ignoring=ignoring) as proc:
        deadline = time.monotonic() + 30
        while not (data / CURRENT).exists():
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
            time.sleep(0.005)
        yield proc


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_play_stopped_by_a_signal_exits_with_128_plus_its_number(tmp_path, sig):
    with play_with_its_save(tmp_path, "--mode", "humans") as proc:
        time.sleep(0.3)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig, err                    # 143 for SIGTERM, 130 for Ctrl-C
    assert err == b""


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGINT])
def test_play_leaves_a_signal_its_parent_ignored_ignored(tmp_path, sig):
    """`nohup roseking play …` (SIGHUP ignored) and a script's `&` job (SIGINT ignored) used to stop at that
    signal all the same (129, 130): the service took over every stop signal. The ignored one is followed by
    SIGTERM, which stops it (143); a signal handled would have come first (its number is lower)."""
    with play_with_its_save(tmp_path, "--mode", "demo", "--level", "random", ignoring=(sig,)) as proc:
        time.sleep(0.3)
        proc.send_signal(sig)
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert err == b""


@pytest.mark.parametrize("delay", [0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3])
def test_ctrl_c_while_the_computer_starts_up_is_no_traceback(tmp_path, delay):
    """Ctrl-C reaches the whole process group, the computer's worker too, which used to print a
    KeyboardInterrupt traceback when it came while the worker was still importing (its first half second)."""
    with play_with_its_save(tmp_path, "--mode", "demo", "--level", "hard") as proc:       # its worker starts
        time.sleep(delay)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err == b"", err.decode()


def test_an_error_in_handling_the_computers_answer_ends_the_service_with_one_error_line(capsys, tmp_path,
                                                                                       monkeypatch):
    """The answer arrives in an asyncio callback, whose errors asyncio would only log, traceback and all,
    and the service would go on as if nothing had happened."""
    from firmware_py.table.loop import TableLoop

    def fails(self, request, move):
        raise UsageError("frames.jsonl: cannot write (No space left on device)")
    monkeypatch.setattr(TableLoop, "answer", fails)
    script = tmp_path / "wait.txt"
    script.write_text("wait 20\n")
    argv = ["play", "--sim", "--mode", "demo", "--level", "random", "--data-dir", str(tmp_path / "data"),
            "--input-script", str(script), "--exit-after-script"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == "error: frames.jsonl: cannot write (No space left on device)\n", err


@pytest.mark.parametrize("archive_fails", [False, True])
def test_finish_retires_a_game_replaced_before_its_end_too(tmp_path, archive_fails):
    """For a new game asked for in the middle of one: it is archived as `unfinished` (or waits for the
    archive), and the save's place is free at once."""
    saves = Saves(tmp_path, log=[].append)
    game = played(Setup("humans", seed=4), 5)
    saves.save(game)
    if archive_fails:
        (tmp_path / ARCHIVE).mkdir()
    saves.finish(game)
    assert not (tmp_path / CURRENT).exists()
    if archive_fails:
        (tmp_path / ARCHIVE).rmdir()
        saves.retry(RETRY_SECONDS)
    [record] = archived(tmp_path)
    assert record == game.record() and record["result"]["reason"] == "unfinished"
