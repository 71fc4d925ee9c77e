"""The names of the people at the seats in game records (`names`, docs/NOTATION.md): what the reader
takes and refuses, and the commands that read records (replay, show, report) take them."""
import json

import pytest
from hypothesis import given, strategies as st

from engine.errors import RecordError
from engine.position import Position
from engine.record import MAX_NAME, dumps, make_record, name_fault, replay
from engine.tally import facts

from test_cli_analysis import assert_user_error, run


def record(names, seed=7):
    start = Position.new(seed=seed)
    end = start.copy()
    for token in ("NE3", "NW1"):
        end.play(token)
    return make_record(start, end, {"red": "human", "white": "human"}, seed=seed, names=names)


def test_a_record_carries_the_names_and_replays():
    r = record({"red": "Ann", "white": "Bo"})
    assert r["names"] == {"red": "Ann", "white": "Bo"}
    assert replay(json.loads(dumps(r))).history() == ["NE3", "NW1"]
    assert "names" not in record(None) and "names" not in record({})


def test_one_seat_may_be_named_alone():
    assert replay(record({"white": "Bo"})).history() == ["NE3", "NW1"]


@pytest.mark.parametrize("names, error", [
    ({"red": "Ann\n"}, "names.red: holds the control character U+000A"),
    ({"red": "Ann\u200b"}, "names.red: holds the control character U+200B"),      # zero width: a format char
    ({"red": "A\u202eB"}, "names.red: holds the control character U+202E"),        # a bidi override
    ({"red": "A\u2028B"}, "names.red: holds the control character U+2028"),        # a line separator
    ({"red": ""}, "names.red: must be 1 to 32 characters (got 0)"),
    ({"red": "x" * (MAX_NAME + 1)}, "names.red: must be 1 to 32 characters (got 33)"),
    ({"red": " Ann"}, "names.red: starts or ends with a blank"),
    ({"red": 7}, "names.red: must be a string (got 7)"),
    ({"red": "Ann", "white": "Ann"}, "names.white: 'Ann' sits at red already"),
    ({"blue": "Ann"}, "names: 'blue' is not a seat of this game (red, white)"),
    (["Ann", "Bo"], "names: must be an object of seat to name (got ['Ann', 'Bo'])"),
])
def test_a_bad_name_is_refused_naming_the_seat(names, error):
    r = record({"red": "Ann"})
    r["names"] = names
    with pytest.raises(RecordError) as refused:
        replay(r, "games.jsonl:3")
    assert str(refused.value) == f"games.jsonl:3: {error}"


@given(st.text(min_size=1, max_size=MAX_NAME))
def test_a_name_the_reader_takes_goes_through_json_unchanged_and_one_with_a_control_character_is_refused(name):
    fault = name_fault(name)
    if fault is None:
        r = record({"red": name})
        assert json.loads(dumps(r))["names"]["red"] == name
        replay(json.loads(dumps(r)))
    if any(ord(ch) < 32 or 0x7f <= ord(ch) < 0xa0 for ch in name):
        assert fault is not None and "control character" in fault


def test_the_report_takes_the_facts_of_a_named_game():
    r = record({"red": "Ann", "white": "Bo"})
    assert facts(r, "games.jsonl", 1).players == ("human", "human")      # who played: the names are beside


def test_replay_show_and_report_read_records_with_names(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(dumps(record({"red": "Ann", "white": "Bo"})) + "\n")
    rc, out, err = run(capsys, "replay", str(path))
    assert rc == 0 and err == ""
    rc, out, err = run(capsys, "show", str(path), "--color", "never")
    assert rc == 0 and err == "" and "stones left 50" in out
    rc, out, err = run(capsys, "report", str(path), "--csv", str(tmp_path / "games.csv"))
    assert rc == 0 and (tmp_path / "games.csv").read_text().count("\n") == 2


def test_replay_refuses_a_record_with_a_bad_name(capsys, tmp_path):
    r = record({"red": "Ann"})
    r["names"]["red"] = "Ann\x1b[31m"
    path = tmp_path / "games.jsonl"
    path.write_text(dumps(r) + "\n")
    assert_user_error(*run(capsys, "replay", str(path)), "names.red: holds the control character U+001B")
