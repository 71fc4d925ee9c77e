"""Naming the people at the seats before a game (`Session.name`, through the loop): the game's record
carries the names of the seats a person plays, from its save to the archive; a game with a move keeps
the names it has; the next games keep the seats' names; a resumed game keeps its own."""
import json

import pytest

from firmware_py.table.game import Mode, Setup
from firmware_py.table.saves import ARCHIVE, resume
from table_kit import Rig

ANN_BO = {"red": "Ann", "white": "Bo"}


@pytest.fixture
def rig(tmp_path):
    rig = Rig(tmp_path)
    yield rig
    rig.close()


def test_names_given_before_the_first_move_are_in_the_game_s_save(rig):
    game = rig.start(Setup(Mode.HUMANS, seed=7))
    assert rig.loop.name(ANN_BO) is None
    assert game.names == ANN_BO and rig.saved()["names"] == ANN_BO      # saved at once
    assert rig.loop.state.names == (("red", "Ann"), ("white", "Bo"))
    assert [s.name for s in rig.loop.state.seats] == ["Ann", "Bo"]
    rig.play(game.pos.legal_moves()[0])
    assert rig.saved()["names"] == ANN_BO


def test_once_a_game_has_a_move_its_names_are_settled(rig):
    game = rig.start(Setup(Mode.HUMANS, seed=7))
    rig.tap("red.card1")
    rig.tap("red.card1")                    # NE3 played
    refused = rig.loop.name(ANN_BO)
    assert refused is not None and refused.startswith("a game is in progress (1 moves)")
    assert rig.loop.state.naming_refused == refused
    assert game.names == {} and rig.session.names == {} and "names" not in rig.saved()


def test_the_next_games_keep_the_seats_names_and_the_archive_has_them(rig, tmp_path):
    first = rig.start(Setup(Mode.HUMANS, seed=7))
    rig.loop.name(ANN_BO)
    rig.tap("red.card1")
    rig.tap("red.card1")
    rig.new_game_menu()                     # the menu: the seats may be named again
    assert rig.loop.state.naming_refused is None
    assert rig.loop.name({"red": "Cy", "white": "Bo"}) is None
    assert first.names == ANN_BO            # the game already played keeps its names
    second = rig.start(Setup(Mode.HUMANS, seed=8))
    assert second.names == {"red": "Cy", "white": "Bo"}
    archived = [json.loads(line) for line in (tmp_path / ARCHIVE).read_text().splitlines()]
    assert [r.get("names") for r in archived] == [ANN_BO]     # the first, retired unfinished


def test_the_computer_s_seat_keeps_its_player_s_name(rig):
    rig.loop.name(ANN_BO)
    game = rig.start(Setup(Mode.VS_COMPUTER, "easy", "red", seed=7))
    record = game.record()
    assert record["names"] == {"red": "Ann"} and record["players"] == {"red": "human", "white": "easy"}
    assert rig.session.names == ANN_BO      # Bo is still at the table for the next game between people


def test_a_resumed_game_keeps_its_names(rig, tmp_path):
    game = rig.start(Setup(Mode.HUMANS, seed=7))
    rig.loop.name(ANN_BO)
    rig.play(game.pos.legal_moves()[0])
    other = Rig(tmp_path / "elsewhere")
    try:
        resumed = other.resume(resume(rig.saved()))
        assert resumed.names == ANN_BO and other.session.names == ANN_BO
    finally:
        other.close()
