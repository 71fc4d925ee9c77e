"""The analysis part of the `roseking` command (issue 2): new, legal, apply, score, show, replay;
`-` for standard input; every user error is status 2 with one `error: …` line and no output."""
import io
import json
import os
import sys
import tracemalloc
from pathlib import Path

import pytest

import processes
from engine.jsonio import MAX_BYTES
from engine.position import Position
from engine.record import dumps, make_record
from firmware_py.cli import main
from firmware_py.positions import read_documents

from engine_testkit import ALL_CARDS, SEATS, name, position_json, target

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        data = stdin if isinstance(stdin, bytes) else stdin.encode()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def write(tmp_path, obj, filename="pos.json"):
    path = tmp_path / filename
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(path)


def assert_user_error(rc, out, err, *words):
    """Issue 2: status 2, nothing on stdout, exactly one line `error: …` naming the fault."""
    assert rc == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert "Traceback" not in err
    for w in words:
        assert w in lines[0], (w, lines[0])


# --- new ------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,hand,pile", [("classic", 5, 14), ("teams", 3, 12)])
def test_new_prints_a_dealt_starting_position(capsys, variant, hand, pile):
    """R6, R7, R8: crown e5, empty board, the deal, Red (red1) to move, full draw pile."""
    rc, out, err = run(capsys, "new", "--variant", variant, "--seed", "17")
    assert rc == 0 and err == ""
    obj = json.loads(out)
    assert obj["format"] == "roseking-position/1" and obj["variant"] == variant
    assert obj["crown"] == "e5" and obj["board"] == ["." * 9] * 9
    assert obj["to_move"] == SEATS[variant][0]
    assert [len(h) for h in obj["hands"].values()] == [hand] * len(SEATS[variant])
    assert len(obj["draw_pile"]) == pile
    assert sorted([c for h in obj["hands"].values() for c in h] + obj["draw_pile"]) == sorted(ALL_CARDS)
    assert run(capsys, "new", "--variant", variant, "--seed", "17")[1] == out  # R7: per seed
    assert run(capsys, "new", "--variant", variant, "--seed", "18")[1] != out
    Position.from_json(obj)  # valid


def test_new_defaults_to_classic_with_a_random_seed_and_offers_random_first(capsys):
    rc, out, _ = run(capsys, "new")
    assert rc == 0 and json.loads(out)["variant"] == "classic"
    firsts = {json.loads(run(capsys, "new", "--seed", str(s), "--first", "random")[1])["to_move"]
              for s in range(30)}
    assert firsts == {"red", "white"}  # R8 option


# --- legal ----------------------------------------------------------------------------------

@pytest.fixture
def hand_made(tmp_path):
    """Crown e5 (red stone), white on e6; Red holds N1 (hero onto e6), E1 (empty f5),
    W3 (b5, Red's own stone) and S3 (e2, empty): 4 cards, so a draw is legal too."""
    obj = position_json(stones={"e5": "R", "e6": "W", "b5": "R"},
                        hands={"red": ["N1", "E1", "W3", "S3"], "white": ["N2"]})
    assert [target("e5", c) for c in ("N1", "E1", "W3", "S3")] == ["e6", "f5", "b5", "e2"]
    return obj, write(tmp_path, obj)


def test_legal_lists_the_moves_one_per_line(capsys, hand_made):
    """R9–R12: H+N1, E1, S3 and draw; W3 lands on Red's own stone (R13)."""
    rc, out, err = run(capsys, "legal", hand_made[1])
    assert rc == 0 and err == ""
    assert sorted(out.splitlines()) == ["E1", "H+N1", "S3", "draw"]
    assert out.endswith("\n")


def test_legal_reads_standard_input(capsys, monkeypatch, hand_made):
    rc, out, _ = run(capsys, "legal", "-", stdin=json.dumps(hand_made[0]), monkeypatch=monkeypatch)
    assert rc == 0 and sorted(out.splitlines()) == ["E1", "H+N1", "S3", "draw"]


def test_legal_prints_pass_when_forced_and_nothing_when_over(capsys, tmp_path):
    """R14: `pass` only; R17: a blockade prints nothing (teams: R22)."""
    stuck = {"red1": ["S1", "S2", "S3"], "white1": ["W1", "W2", "W3"], "red2": ["SW1", "SW2", "SW3"],
             "white2": ["SE1", "SE2"]}
    obj = position_json("teams", stones={"a1": "W"}, crown="a1", hands=stuck)
    rc, out, _ = run(capsys, "legal", write(tmp_path, obj))
    assert rc == 0 and out == "pass\n"
    stuck["white2"].append("SE3")
    obj = position_json("teams", stones={"a1": "W"}, crown="a1", hands=stuck)
    rc, out, _ = run(capsys, "legal", write(tmp_path, obj))
    assert rc == 0 and out == ""


# --- apply ----------------------------------------------------------------------------------

def test_apply_plays_the_moves_in_order(capsys, hand_made):
    """R10, R11: Red's E1 puts a red stone on f5 and moves the crown there; White then draws
    the top card of the given pile."""
    obj, path = hand_made
    top = obj["draw_pile"][0]
    rc, out, err = run(capsys, "apply", path, "E1", "draw")
    assert rc == 0 and err == ""
    after = json.loads(out)
    assert after["board"][9 - 5] == ".R..RR..."  # rank 5: b5 R, e5 R, f5 R
    assert after["crown"] == "f5"
    assert after["hands"]["red"] == ["N1", "W3", "S3"]
    assert after["hands"]["white"] == ["N2", top]
    assert after["draw_pile"] == obj["draw_pile"][1:]
    assert after["discard"] == ["E1"] and after["to_move"] == "red"


def test_apply_hero_move_and_stdin(capsys, monkeypatch, hand_made):
    rc, out, _ = run(capsys, "apply", "-", "h+n1", stdin=json.dumps(hand_made[0]), monkeypatch=monkeypatch)
    after = json.loads(out)
    assert rc == 0 and after["board"][9 - 6] == "....R...."  # e6 flipped (R12)
    assert after["heroes"] == {"red": 3, "white": 4}


def test_apply_in_teams_follows_the_seat_order(capsys, tmp_path):
    """R22: red1, white1, red2 each play; R20: red2's stone is red."""
    obj = position_json("teams", hands={"red1": ["N1"], "white1": ["E2"], "red2": ["W1"]})
    rc, out, _ = run(capsys, "apply", write(tmp_path, obj), "N1", "E2", "W1")
    after = json.loads(out)
    assert rc == 0 and after["board"][9 - 6] == "....RRW.." and after["to_move"] == "white2"


def test_apply_seeds_reshuffles(capsys, tmp_path):
    """R11: with an empty pile the draw reshuffles the discard; --seed makes it repeatable."""
    red, white = ["N1", "N2", "N3", "E1"], ["E2"]
    discard = [c for c in ALL_CARDS if c not in red + white]
    path = write(tmp_path, position_json(hands={"red": red, "white": white}, draw_pile=[], discard=discard))
    outs = [run(capsys, "apply", path, "draw", "--seed", s)[1] for s in ("1", "1", "2", "3")]
    assert outs[0] == outs[1] and len(set(outs)) > 1
    after = json.loads(outs[0])
    assert after["discard"] == [] and after["hands"]["red"][-1] in discard


# --- score ----------------------------------------------------------------------------------

def test_score_prints_figures_regions_and_winner(capsys, tmp_path):
    """R18 example 8 + 2 + 1 = 69 for White; Red 2² + 1 = 5; White wins (R19)."""
    stones = {name(f, 0): "W" for f in range(8)}
    stones.update({"a3": "W", "b3": "W", "c4": "W", "e5": "R", "e6": "R", "g7": "R"})
    rc, out, err = run(capsys, "score", write(tmp_path, position_json(stones=stones)))
    assert rc == 0 and err == ""
    s = json.loads(out)
    assert {k: s["white"][k] for k in ("score", "largest", "stones")} == {"score": 69, "largest": 8, "stones": 11}
    assert {k: s["red"][k] for k in ("score", "largest", "stones")} == {"score": 5, "largest": 2, "stones": 3}
    assert sorted(map(sorted, s["red"]["regions"])) == [["e5", "e6"], ["g7"]]
    assert s["winner"] == "white" and s["over"] is False and s["reason"] is None


def test_score_of_a_finished_game(capsys, tmp_path):
    """R17 + R19 in teams: a blockade with equal boards is a draw."""
    off = ["S1", "S2", "S3", "W1", "W2", "W3", "SW1", "SW2", "SW3", "SE1", "SE2", "SE3"]
    hands = {s: off[3 * i:3 * i + 3] for i, s in enumerate(SEATS["teams"])}
    obj = position_json("teams", stones={"a1": "R", "i9": "W"}, crown="a1", hands=hands)
    s = json.loads(run(capsys, "score", write(tmp_path, obj))[1])
    assert s["over"] is True and s["reason"] == "blockade" and s["winner"] == "draw"


# --- show -----------------------------------------------------------------------------------

def test_show_draws_board_hands_heroes_supply_and_turn(capsys, hand_made):
    rc, out, err = run(capsys, "show", hand_made[1], "--color", "never")
    assert rc == 0 and err == "" and "\x1b" not in out
    lines = out.splitlines()
    rank5 = next(l for l in lines if l.startswith("5 "))
    assert rank5.replace(" ", "").replace("(", "").replace(")", "") == "5.R..R...."
    assert "(R)" in rank5  # the crown on e5's red stone
    text = out.lower()
    assert "n1 e1 w3 s3" in text and "heroes 4" in text
    assert "stones left 49" in text  # 52 − 3 (R4)
    assert "red to move" in text


def test_show_in_colour_and_for_a_finished_game(capsys, tmp_path):
    obj = position_json("teams", stones={"a1": "R"}, crown="a1",
                        hands={s: c for s, c in zip(SEATS["teams"], (["S1", "S2", "S3"], ["W1", "W2", "W3"],
                                                                       ["SW1", "SW2", "SW3"], ["SE1", "SE2", "SE3"]))})
    rc, out, _ = run(capsys, "show", write(tmp_path, obj), "--color", "always")
    assert rc == 0 and "\x1b[" in out
    assert "blockade" in out and "red wins" in out
    for seat in SEATS["teams"]:
        assert seat in out


# --- replay ---------------------------------------------------------------------------------

def _games(n=2):
    recs = []
    for seed in range(n):
        start = Position.new("classic" if seed % 2 == 0 else "teams", seed)
        pos = start.copy()
        while pos.legal_moves() and len(pos.stack) < (1000 if seed == 0 else 20):
            pos.play(pos.legal_moves()[0])
        recs.append((make_record(start, pos, {s: "x" for s in start.variant.seats}), pos))
    return recs


def test_replay_checks_every_game_and_prints_each_result(capsys, tmp_path):
    games = _games()
    path = write(tmp_path, "\n".join(dumps(r) for r, _ in games) + "\n", "games.jsonl")
    rc, out, err = run(capsys, "replay", path)
    assert rc == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 2
    (_, done), (_, going) = games
    s = done.score()
    assert lines[0].startswith(f"game 1: red {s.red.score}, white {s.white.score}, winner {s.winner} ({s.reason})")
    assert lines[0].endswith(f"{len(done.stack)} moves")
    assert "unfinished" in lines[1] and lines[1].endswith("20 moves")


def test_replay_names_game_move_and_reason(capsys, tmp_path):
    games = _games()
    bad = games[1][0]
    bad["moves"][4] = "pass"
    path = write(tmp_path, dumps(games[0][0]) + "\n" + dumps(bad) + "\n", "games.jsonl")
    assert_user_error(*run(capsys, "replay", path), "game 2", "move 5", "pass", "R14")


# --- user errors ------------------------------------------------------------------------------

def test_error_bad_json(capsys, tmp_path):
    assert_user_error(*run(capsys, "legal", write(tmp_path, "{\"format\": ")), "pos.json", "not JSON")


def test_error_bad_json_on_stdin(capsys, monkeypatch):
    assert_user_error(*run(capsys, "score", "-", stdin="nonsense", monkeypatch=monkeypatch), "not JSON")


def test_error_invalid_position(capsys, tmp_path):
    obj = position_json(hands={"red": ["N1", "E1", "N4"]})
    assert_user_error(*run(capsys, "show", write(tmp_path, obj)), "hands.red[2]: unknown card 'N4'")


def test_error_invalid_position_variant_not_text(capsys, tmp_path):
    obj = position_json()
    obj["variant"] = ["classic"]
    assert_user_error(*run(capsys, "legal", write(tmp_path, obj)), "variant")


def test_error_illegal_move(capsys, hand_made):
    """R13: from e5 W3 lands on Red's own stone on b5; after E1 (crown on f5) and White's draw,
    a hero with W3 would land on the empty c5 (R12)."""
    assert_user_error(*run(capsys, "apply", hand_made[1], "W3"), "move 1 (W3)", "own stone")
    assert target("f5", "W3") == "c5"
    assert_user_error(*run(capsys, "apply", hand_made[1], "E1", "draw", "H+W3"), "move 3 (H+W3)", "c5 is empty")
    assert_user_error(*run(capsys, "apply", hand_made[1], "pass"), "move 1", "R14")


def test_error_malformed_move(capsys, hand_made):
    assert_user_error(*run(capsys, "apply", hand_made[1], "N9"), "move 1", "N9")


@pytest.mark.parametrize("argv,word", [
    (["legal", "POS", "--frobnicate"], "--frobnicate"),
    (["new", "--variant", "solo"], "solo"),
    (["new", "--seed", "seven"], "seven"),
    (["score", "POS", "--reshuffle", "sometimes"], "sometimes"),
    (["apply", "POS"], "MOVE"),
    (["frobnicate"], "frobnicate"),
    ([], "COMMAND"),
])
def test_error_command_line(capsys, hand_made, argv, word):
    argv = [hand_made[1] if a == "POS" else a for a in argv]
    assert_user_error(*run(capsys, *argv), word)


@pytest.mark.parametrize("command", ["legal", "apply", "score", "show", "replay"])
def test_error_missing_file(capsys, tmp_path, command):
    missing = str(tmp_path / "nowhere.json")
    argv = [command, missing] + (["draw"] if command == "apply" else [])
    assert_user_error(*run(capsys, *argv), "nowhere.json")


def test_error_directory_instead_of_file(capsys, tmp_path):
    assert_user_error(*run(capsys, "legal", str(tmp_path)), str(tmp_path))


def test_replay_skips_a_torn_line_with_one_warning_and_keeps_the_rest(capsys, tmp_path):
    """A line that is not JSON is what a write cut short leaves (a power loss during an append)."""
    game = dumps(_games(1)[0][0])
    path = write(tmp_path, f"{game}\n{{oops\n{game[:100]}\n{game}\n{game[:-1]}\x00\x00", "games.jsonl")
    rc, out, err = run(capsys, "replay", path)
    assert rc == 0 and out.splitlines()[1].startswith("game 2: ") and len(out.splitlines()) == 2
    warnings = err.splitlines()
    assert sorted(w.split(":")[2] for w in warnings) == ["2", "3", "5"], err
    assert all(w.startswith(f"warning: {path}:") and " not JSON: " in w and w.endswith("; a torn line, skipped")
               for w in warnings)


def test_error_replay_two_lines_in_a_row_that_are_no_record(capsys, tmp_path):
    """A file of text is not records with torn lines: one error, at its first line."""
    path = write(tmp_path, "# notes\nmore notes\n" + dumps(_games(1)[0][0]) + "\n", "games.jsonl")
    assert_user_error(*run(capsys, "replay", path), "games.jsonl:1: not JSON")


@pytest.mark.parametrize("command", ["replay", "show"])
@pytest.mark.parametrize("text", ["hello\n", '{"format": "roseking-game/1", "vari', '{"format\n{"form\n',
                                  '\nhi\n{"cut\n'])
def test_error_a_file_with_no_record_is_no_records_file(capsys, tmp_path, command, text):
    """Not a file of torn lines: one error at its first line, no warning (it was `no games`, status 0, or a
    warning that the line was skipped, then an error about it)."""
    path = write(tmp_path, text, "games.jsonl")
    assert_user_error(*run(capsys, command, path), "games.jsonl:" + str(text.index(text.strip()) + 1) + ": not JSON")


def test_a_records_file_starts_with_a_record_or_one_torn_line_and_a_record(capsys, tmp_path):
    """The table's first append cut short, then the next game: the torn line is skipped. Two lines that are no
    record before the first record are an error, as anywhere else."""
    game = dumps(_games(1)[0][0])
    rc, out, err = run(capsys, "replay", write(tmp_path, f"{game[:50]}\n{game}\n", "games.jsonl"))
    assert rc == 0 and out.startswith("game 1: ") and len(out.splitlines()) == 1
    assert err.startswith(f"warning: {tmp_path / 'games.jsonl'}:1: not JSON") and len(err.splitlines()) == 1
    assert_user_error(*run(capsys, "replay", write(tmp_path, f"{game[:50]}\n{game[:60]}\n{game}\n", "games.jsonl")),
                      "games.jsonl:1: not JSON")


def peak_memory(read):
    """(what `read()` returns, the most memory it held at once)."""
    tracemalloc.start()
    try:
        return read(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def long_named(games):
    """Record lines of `games` whose players have names of 30,000 characters: a records file of megabytes in
    a few hundred lines, which tracemalloc follows quickly (it counts objects, and a name is one)."""
    return [dumps(record | {"players": {seat: who * 30_000 for seat, who in record["players"].items()}})
            for record, _ in games]


def test_a_records_file_with_a_torn_first_line_is_read_in_bounded_memory(tmp_path):
    """Its first line alone is not JSON, so the file may be one document over many lines: that is tried
    within the input limit only (the whole rest of the file was kept to try it)."""
    game = long_named(_games(1))[0]
    path = tmp_path / "games.jsonl"
    path.write_text(game[:50] + "\n" + (game + "\n") * 120)
    games, peak = peak_memory(lambda: sum(1 for _ in read_documents(str(path), lambda why: None)))
    assert games == 120 and peak < 3 * MAX_BYTES < path.stat().st_size / 2


@pytest.mark.parametrize("argv", [[], ["--game", "1"]])
def test_show_keeps_only_the_game_it_shows_of_a_records_file(capsys, tmp_path, argv):
    """(It kept every game of the file.)"""
    path = tmp_path / "games.jsonl"
    path.write_text("".join(line + "\n" for line in long_named(_games(2))) * 40)
    status, peak = peak_memory(lambda: main(["show", str(path), "--color", "never", *argv]))
    assert status == 0 and capsys.readouterr().out.startswith(f"game {argv[-1] if argv else 80} of 80, ")
    assert peak < 3 * MAX_BYTES < path.stat().st_size / 2


class Endless(io.RawIOBase):
    """Standard input of `[` lines without end; reading more than `limit` bytes of it fails the test."""

    def __init__(self, limit):
        self.limit, self.read_bytes = limit, 0

    def readable(self):
        return True

    def readinto(self, buffer):
        assert self.read_bytes < self.limit, f"read {self.read_bytes} bytes of an endless input"
        buffer[:] = b"[\n" * (len(buffer) // 2) + b"[" * (len(buffer) % 2)
        self.read_bytes += len(buffer)
        return len(buffer)


@pytest.mark.parametrize("command", ["replay", "show"])
def test_error_an_endless_input_that_is_no_json_is_read_within_the_input_limit(capsys, monkeypatch, command):
    """`yes '[' | roseking replay -` grew until a MemoryError (a traceback, status 1)."""
    stdin = Endless(4 * MAX_BYTES)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(stdin)))
    assert_user_error(*run(capsys, command, "-"), "standard input:1: not JSON")
    assert stdin.read_bytes < 2 * MAX_BYTES


def test_error_replay_line_that_is_not_utf8(capsys, tmp_path):
    """Bytes that are not UTF-8 are no torn record (the archive is ASCII): the file is not records."""
    path = tmp_path / "games.jsonl"
    path.write_bytes(dumps(_games(1)[0][0]).encode() + b"\n\xff\n")
    assert_user_error(*run(capsys, "replay", str(path)), "games.jsonl:2: not UTF-8 text (byte")


def test_error_replay_line_that_is_json_but_not_a_record(capsys, tmp_path):
    path = write(tmp_path, dumps(_games(1)[0][0]) + "\n[1, 2]\n", "games.jsonl")
    assert_user_error(*run(capsys, "replay", path), "game 2 (line 2)", "must be a JSON object")


def test_replay_reads_standard_input(capsys, monkeypatch):
    games = _games()
    rc, out, _ = run(capsys, "replay", "-", stdin="\n".join(dumps(r) for r, _ in games) + "\n",
                     monkeypatch=monkeypatch)
    assert rc == 0 and len(out.splitlines()) == 2


def test_apply_draw_names_any_card_of_a_pile_whose_order_is_unknown(capsys, tmp_path):
    """R11: with `draw_pile` left out its order is unknown, so `draw:CARD` may take any card in it;
    with the pile given, only its top card."""
    start = Position.new(seed=7)
    obj = start.to_json()
    second = obj["draw_pile"][1]
    moves = [str(start.legal_moves()[0])]
    start.play(moves[0])
    moves.append(str(next(m for m in start.legal_moves() if str(m) != "draw")))
    unknown = {k: v for k, v in obj.items() if k != "draw_pile"}
    rc, out, _ = run(capsys, "apply", write(tmp_path, unknown), *moves, f"draw:{second}")
    assert rc == 0
    assert second in json.loads(out)["hands"]["red"]
    assert_user_error(*run(capsys, "apply", write(tmp_path, obj), *moves, f"draw:{second}"),
                      f"move 3 (draw:{second})", "not the top card")


@pytest.mark.parametrize("data, words", [
    (b"[" * 1000 + b"]" * 1000, ["pos.json: not JSON: nested more than 32 deep (byte 32)"]),
    (b'{"heroes": ' + b"9" * 5000 + b"}", ["pos.json: not JSON: an integer of more than 40 digits"]),
    (b'{"format": "caf\xc3"}', ["pos.json: not UTF-8 text (byte 15)"]),
    (b" " * (2 << 20), ["pos.json: larger than 1048576 bytes"]),
])
def test_error_inputs_beyond_the_limits(capsys, tmp_path, data, words):
    path = tmp_path / "pos.json"
    path.write_bytes(data)
    assert_user_error(*run(capsys, "score", str(path)), *words)


def test_error_a_file_name_that_is_not_utf8_is_shown_escaped(capsys, tmp_path):
    name = os.fsdecode(bytes(tmp_path) + b"/caf\xff.json")
    rc, out, err = run(capsys, "legal", name)
    assert_user_error(rc, out, err, "caf\\xff.json: cannot read (No such file or directory)")


# --- as a program -----------------------------------------------------------------------------

def _roseking():
    exe = Path(sys.executable).parent / "roseking"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "firmware_py.cli"]


def test_program_exit_status_and_pipe(tmp_path):
    """The console script: a pipeline `new | legal -` works; an illegal move exits 2 with one
    error line and no traceback."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    new = processes.run(_roseking() + ["new", "--seed", "4"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert new.returncode == 0 and new.stderr == ""
    legal = processes.run(_roseking() + ["legal", "-"], input=new.stdout, capture_output=True, text=True,
                           env=env, cwd=ROOT)
    hand = json.loads(new.stdout)["hands"]["red"]
    assert legal.returncode == 0 and sorted(legal.stdout.split()) == sorted(hand)  # R10 from e5: all on board
    bad = processes.run([sys.executable, "-m", "firmware_py.cli", "apply", "-", "pass"], input=new.stdout,
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and bad.stderr.startswith("error: ")
    assert "Traceback" not in bad.stderr


@pytest.mark.parametrize("argv", [["legal", "-"], ["replay", "-"], ["agent"]])
def test_error_standard_input_closed(capsys, monkeypatch, argv):
    """A program started with standard input closed (sys.stdin is None) says so."""
    monkeypatch.setattr(sys, "stdin", None)
    assert_user_error(*run(capsys, *argv), "standard input is closed")


def test_error_bench_an_empty_section_name(capsys):
    assert_user_error(*run(capsys, "bench", "--only", ""), "--only: unknown section ''")


@pytest.mark.parametrize("toml, words", [('[board]\n"a\\nb" = 1\n', ["board.a\\nb: unknown key"]),
                                         ('"x\\u2028y\\r" = 1\n', ["x\\u2028y\\r: unknown key"])])
def test_error_a_quoted_line_break_stays_on_the_one_error_line(capsys, tmp_path, toml, words):
    """Whatever a message quotes from a file, its line breaks are written as escapes."""
    path = tmp_path / "roseking.toml"
    path.write_text(toml)
    assert_user_error(*run(capsys, "config", "check", str(path)), *words)


@pytest.mark.parametrize("argv, words", [
    (["legal", "start.json", "--reshuffle", "x"], ["invalid choice: 'x' (choose from 'lazy', 'eager')"]),
    (["new", "--first", "x"], ["invalid choice: 'x' (choose from 'red', 'random')"]),
    (["apply", "start.json", ""], ["move 1 (''): unknown move ''"]),
])
def test_error_choices_and_empty_moves_are_written_as_typed(capsys, monkeypatch, tmp_path, argv, words):
    """The choices are listed as a user types them, not as the enums' reprs; an empty move is quoted."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "start.json").write_text(json.dumps(Position.new(seed=1).to_json()))
    assert_user_error(*run(capsys, *argv), *words)


def test_config_check_reads_standard_input_and_names_it(capsys, monkeypatch):
    result = run(capsys, "config", "check", "-", stdin="[board]\nbrightness = nan\n", monkeypatch=monkeypatch)
    assert_user_error(*result, "error: standard input: board.brightness: must be a finite number (got nan)")


@pytest.mark.parametrize("argv, message", [
    (["apply", "POS", "N1", "-\udc80"], "error: unrecognized arguments: -\\x80"),
    (["\udcff"], "error: argument COMMAND: invalid choice: '\\xff' (choose from "),
    (["new", "--variant", "caf\udce9"], "error: argument --variant: invalid choice: 'caf\\xe9' (choose from "),
    (["new", "--seed", "\udcff1"], "error: argument --seed: invalid int value: '\\xff1'"),
    (["tournament", "--players", "random,\udcff", "--sprt", "\udcff"], "error: --sprt: expected two percentages"),
    (["legal", "\udcfe.json"], "error: \\xfe.json: cannot read (No such file or directory)"),
])
def test_undecodable_argument_bytes_are_shown_as_escapes_in_every_message(capsys, tmp_path, argv, message):
    """A byte of argv that is not UTF-8 reaches Python as a surrogate escape: argparse's messages and ours
    show it as `\\xff`, as file names are shown, never as the surrogate (which cannot be printed)."""
    argv = [write(tmp_path, Position.new(seed=1).to_json()) if a == "POS" else a for a in argv]
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == "" and err.startswith(message) and err.count("\n") == 1, ascii(err)
    assert err.isascii() and "\\udc" not in err, ascii(err)
