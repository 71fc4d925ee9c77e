"""Fuzzing the commands (issue 9): arbitrary bytes, deep and wide JSON, odd numbers and odd Unicode
as positions, moves, records, configurations, input scripts and agent lines.

Each run goes through `firmware_py.cli.main` in this process, as the console script does, and
must end in success or in exactly one `error: …` line with status 2 and nothing on standard
output: never a traceback, never a hang (a run is stopped after RUN_SECONDS), and never a
changed or truncated input file or existing output file.
"""
import atexit
import contextlib
import io
import json
import os
import shutil
import signal
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.position import Position
from engine.simulate import play
from firmware_py.cli import main

RUN_SECONDS = 30
FOLDER = tempfile.mkdtemp(prefix="roseking-fuzz-")
atexit.register(shutil.rmtree, FOLDER, True)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- what the inputs are made of --------------------------------------------------------------------

ODD_TEXT = st.sampled_from(["", " ", "²", "٣", "Ｎ１", "ｅ５", "İ", "ß", "\u0000", "N1\u200b", "\u202e", "🌹", "\ufeff",
                            "e\u0301", "red\n", "H+", "draw:", "draw:Ｓ2"])
TEXT = ODD_TEXT | st.text(max_size=12)
HUGE_DIGITS = st.integers(30, 6000).map(lambda n: "9" * n)
RAW_NUMBERS = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-0", "0.0", "4.0", "1E2", "-1", "53", "52",
                               "2", "0", "4", "1" + "0" * 40, "-0.0", "1e-400"]) | HUGE_DIGITS
NUMBERS = st.integers() | st.floats() | st.sampled_from([2 ** 63, -2 ** 64, 10 ** 39, 52, 53, 0, 4, 5])
LEAVES = st.none() | st.booleans() | NUMBERS | TEXT | st.sampled_from(
    ["N1", "SW3", "e5", "i9", "red", "white", "red1", "classic", "teams", ".........", "RRRRRRRRR", "WWWWWWWWW"])
JSON_VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(TEXT, inner, max_size=4),
                           max_leaves=15)


@st.composite
def deep(draw):
    """Nested arrays or objects, balanced or not, from 1 to 5,000 levels."""
    depth = draw(st.integers(1, 5000))
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"a": ', "}"), ("[{\"b\": ", "}]")]))
    return opener * depth + "1" + closer * draw(st.sampled_from([depth, depth // 2, 0]))


RAW_JSON = deep() | RAW_NUMBERS | st.integers(0, 20000).map(lambda n: "[" + ",".join(["1"] * n) + "]")


def corrupt(data: bytes, cut: int, junk: bytes) -> bytes:
    """`data` with `junk` (bytes that are perhaps not UTF-8) put in at `cut`."""
    cut %= len(data) + 1
    return data[:cut] + junk + data[cut:]


@st.composite
def json_document(draw, base):
    """A JSON text made from `base`: a field set to an odd value (raw or JSON), bytes put in, or
    arbitrary bytes."""
    obj = json.loads(json.dumps(base))
    kind = draw(st.sampled_from(["field", "raw", "bytes", "junk", "nested"]))
    if kind == "bytes":
        return draw(st.binary(max_size=400))
    if kind == "nested":
        return draw(RAW_JSON).encode()
    field = draw(st.sampled_from(sorted(obj) + ["extra"]))
    target = obj
    if isinstance(obj.get(field), dict) and obj[field] and draw(st.booleans()):
        target, field = obj[field], draw(st.sampled_from(sorted(obj[field])))
    target[field] = "\u2603HOLE\u2603" if kind == "raw" else draw(JSON_VALUES)
    text = json.dumps(target is obj and obj or obj, ensure_ascii=draw(st.booleans()))
    text = text.replace('"\\u2603HOLE\\u2603"', draw(RAW_JSON)).replace('"\u2603HOLE\u2603"', draw(RAW_JSON))
    data = text.encode("utf-8", "surrogatepass")
    if kind == "junk":
        data = corrupt(data, draw(st.integers(0, 10 ** 6)), draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80",
                                                                                  b"\x00", b"\xef\xbb\xbf"])))
    return data


POSITION = Position.new("classic", 5).to_json()
POSITION_NO_PILE = Position.new("teams", 6).to_json(pile=False)
RECORD = json.loads(play("classic", 7, ("random", "random"), record=True).line)

# --- running a command ------------------------------------------------------------------------------


class Hang(BaseException):
    """A command that ran too long (not an OSError, which a command could take for its own)."""


@contextlib.contextmanager
def time_limit(seconds: int):
    def stop(signum, frame):
        raise Hang(f"the command ran for more than {seconds} s")
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(argv, stdin=b""):
    """(status, stdout, stderr) of `roseking ARGV` with `stdin` bytes."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit(RUN_SECONDS):
            code = main(argv)
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def assert_clean(code, out, err):
    """Success, or exactly one `error:` line with status 2 and nothing on standard output; before it,
    only warnings of torn lines skipped. (Messages are shown with `ascii`: a surrogate in a report would
    crash pytest-xdist's worker.)"""
    assert "Traceback" not in err, ascii(err)
    lines = err.splitlines()
    assert all(line.startswith("warning: ") and line.endswith("; a torn line, skipped") for line in lines[:-1]), \
        ascii(err)
    if code != 0:
        assert code == 2 and out == "", ascii((code, out, err))
        assert lines[-1].startswith("error: ") and err.endswith("\n"), ascii(err)
        assert not any("\udc80" <= ch <= "\udcff" for ch in err), ascii(err)  # no surrogate escapes leak


def input_file(data: bytes, name="input") -> str:
    path = os.path.join(FOLDER, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def run_on_file(argv_before, data, argv_after=(), name="input"):
    """Run with `data` in a file (or on standard input, half the time) and check that the file
    is left as it was."""
    path = input_file(data, name)
    result = run([*argv_before, path, *argv_after])
    assert_clean(*result)
    with open(path, "rb") as f:
        assert f.read() == data, "the input file changed"
    return result


# --- the properties ---------------------------------------------------------------------------------

MOVES = st.lists(st.sampled_from(["N1", "NE3", "S2", "draw", "draw:S2", "draw:N1", "pass", "H+N1", "h+sw3", "DRAW"])
                 | TEXT | st.binary(max_size=6).map(os.fsdecode), min_size=1, max_size=4)


@SETTINGS
@given(st.sampled_from(["legal", "score", "show", "apply"]), json_document(POSITION) | json_document(POSITION_NO_PILE),
       MOVES, st.booleans())
def test_positions_and_moves(command, data, moves, on_stdin):
    tail = moves if command == "apply" else []
    if on_stdin:
        assert_clean(*run([command, "-", *tail], stdin=data))
    else:
        run_on_file([command], data, tail)


@SETTINGS
@given(st.lists(json_document(RECORD), min_size=1, max_size=3), st.booleans())
def test_records(lines, on_stdin):
    data = b"\n".join(lines)
    if on_stdin:
        assert_clean(*run(["replay", "-"], stdin=data))
    else:
        run_on_file(["replay"], data)


TOML_VALUES = st.sampled_from(["nan", "+nan", "-nan", "inf", "-inf", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z",
                               "90.0", "18.0", "1e400", "0x12", "0o22", "true", '"pi"', '"sim"', "'GRB'", "[1, 2]",
                               "[" * 2000 + "]" * 2000, "9" * 30, "-0", "+1", "0.0", "1_000", "4.0", "0.3", "20", '""',
                               '"\\u00e9"', "{ a = 1 }"])
TOML_KEYS = st.sampled_from(["backend", "seats", "board.pin", "board.start", "board.serpentine", "board.rotation",
                             "board.pixel_order", "board.brightness", "board.supply_amps", "board.gamma",
                             "displays.spi_port", "displays.spi_device", "displays.spi_speed_hz", "displays.chain",
                             "displays.block_orientation", "displays.reverse_order", "displays.intensity",
                             "buttons.hold_seconds", "buttons.debounce_ms", "buttons.menu", "buttons.red.card1",
                             "buttons.white.hero", "board.colour", "extra"])


@st.composite
def toml_document(draw):
    if draw(st.integers(0, 4)) == 0:
        return draw(st.binary(max_size=300))
    tables = {}
    for key, value in draw(st.lists(st.tuples(TOML_KEYS, TOML_VALUES | TEXT.map(json.dumps)), max_size=4)):
        table, _, name = key.rpartition(".")
        tables.setdefault(table, {})[name] = value
    lines = [f"{k} = {v}" for k, v in tables.pop("", {}).items()]
    for table, pairs in tables.items():
        lines += [f"[{table}]"] + [f"{k} = {v}" for k, v in pairs.items()]
    return "\n".join(lines).encode("utf-8", "surrogatepass")


@SETTINGS
@given(toml_document())
def test_configs(data):
    run_on_file(["config", "check"], data, name="roseking.toml")


SCRIPT_WORDS = st.sampled_from(["red.card1", "white.hero", "menu", "red.card9", "wait", "press", "hold", "0", "0.01",
                                "nan", "inf", "-1", "1e400", "٠", "0x1", "#", "３"])


@settings(max_examples=20, deadline=None)
@given(st.lists(st.lists(SCRIPT_WORDS, max_size=3).map(" ".join), max_size=3).map("\n".join).map(str.encode)
       | st.binary(max_size=100))
def test_input_scripts(data):
    run_on_file(["selftest", "--sim", "--led-seconds", "0", "--glyph-seconds", "0", "--input-script"], data,
                name="script.txt")


@SETTINGS
@given(st.lists(json_document(POSITION_NO_PILE) | json_document(POSITION), min_size=1, max_size=4))
def test_agent_lines(lines):
    data = b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n"
    code, out, err = run(["agent", "--level", "random"], stdin=data)
    assert code == 0 and err == "", err
    answers = out.splitlines()
    assert len(answers) == len(lines)  # one answer a line, whatever the line
    for answer in answers:
        assert answer.startswith("error: ") or len(answer) <= 6, answer


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["1", "2", "0", "-3", "1e3", "²", "٣", "nan", "", "9" * 5000]),
       st.sampled_from(["random,random", "random,greedy", "random,hard:²", "random,hard:0", "random,wizard", "",
                        "random", "random,easy:" + "9" * 50, "greedy,random,random"]),
       st.sampled_from(["0", "-1", "9" * 40, "x", "1"]), st.sampled_from(["1", "0", "300", "-2"]))
def test_simulate_options_never_harm_an_existing_records_file(games, players, seed, workers):
    path = input_file(b"precious\n", "games.jsonl")
    code, out, err = run(["simulate", "--games", games, "--players", players, "--seed", seed, "--workers", workers,
                          "--records", path])
    assert_clean(code, out, err)
    with open(path, "rb") as f:
        kept = f.read()
    assert kept == b"precious\n" if code else kept.count(b"\n") == int(games)


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("argv", [["legal"], ["replay"], ["config", "check"],
                                  ["selftest", "--sim", "--input-script"]])
def test_endless_inputs_are_cut_short(argv, path):
    code, out, err = run([*argv, path])
    assert_clean(code, out, err)
    assert code == 2


# --- the archive's torn lines -----------------------------------------------------------------------

LINE = json.dumps(RECORD, separators=(", ", ": ")).encode()


def not_json(data: bytes) -> bool:
    try:
        json.loads(data)
    except ValueError:
        return True
    return False


TORN = (st.integers(1, len(LINE) - 1).map(lambda cut: LINE[:cut])               # an append cut short
        | st.tuples(st.integers(1, len(LINE) - 1), st.integers(1, 600)).map(   # zeros after it (ext4)
            lambda cut: LINE[:cut[0]] + b"\0" * cut[1])
        | st.text(min_size=1, max_size=40).map(lambda t: t.replace("\n", " ").encode()).filter(
            lambda b: b.decode().strip() and not_json(b)))


@st.composite
def torn_archive(draw):
    """(bytes of an archive of whole records and torn lines, the last perhaps without its newline; how
    many of each). Only its last line may be torn with no record before or after it: the archive's
    first append was cut short."""
    drawn = draw(st.lists(st.none() | TORN, max_size=6))             # None: a whole record
    lines = []
    for line, after in zip(drawn, drawn[1:] + [None]):
        lines.append(line)
        if line is not None and after is not None and (not line.startswith(b'{"') or None not in lines):
            lines.append(None)          # a record next: two lines in a row that are no record are an error,
            #                             but for a start of a record after the file's first record
    data = b"\n".join(LINE if line is None else line for line in lines)
    if lines and (lines[-1] is None or draw(st.booleans())):
        data += b"\n"
    return data, lines.count(None), len(lines) - lines.count(None)


def replayed(path):
    """(games replayed, torn lines warned of) by `roseking replay PATH`, which must succeed."""
    code, out, err = run(["replay", path])
    assert code == 0 and "Traceback" not in err, ascii(err)
    warnings = err.splitlines()
    assert all(w.startswith("warning: ") and w.endswith("; a torn line, skipped") for w in warnings), ascii(err)
    return (0 if out == "no games\n" else len(out.splitlines())), len(warnings)


@SETTINGS
@given(torn_archive(), TORN | st.none())
def test_the_archive_keeps_whole_records_and_skips_torn_lines(archive, waiting):
    """The readers (replay, report, the waiting games at the table's start) skip each torn line with one
    warning and keep the rest; a finished game is appended as a whole line of its own, never glued on."""
    from firmware_py.table.saves import ARCHIVE, Saves
    from test_table_service import played, Setup
    data, whole, torn = archive
    folder = tempfile.mkdtemp(dir=FOLDER)
    path = os.path.join(folder, ARCHIVE)
    with open(path, "wb") as f:
        f.write(data)
    if whole or not torn:
        assert replayed(path) == (whole, torn)
        assert run(["report", path, "--csv", os.path.join(folder, "games.csv")])[0] == 0
        with open(os.path.join(folder, "games.csv")) as f:
            assert len(f.readlines()) == 1 + whole
    else:                                   # a torn line and no record: not a records file until the next game
        for argv in (["replay", path], ["report", path, "--csv", os.path.join(folder, "games.csv")]):
            code, out, err = run(argv)
            assert code == 2 and err.startswith(f"error: {path}:1: not JSON") and err.count("\n") == 1, ascii(err)
    log = []
    saves = Saves(folder, log=log.append)
    if waiting is not None:                                       # a game waiting beside the save, torn
        with open(os.path.join(folder, "unarchived-1.json"), "wb") as f:
            f.write(waiting)
    game = played(Setup("demo", "random", seed=3), 400)
    saves.finish(game)
    saves.retry(0.0)
    with open(path, "rb") as f:
        after = f.read()
    line = (json.dumps(game.record(), separators=(", ", ": ")) + "\n").encode()
    assert after == data + (b"\n" if data and not data.endswith(b"\n") else b"") + line
    assert replayed(path) == (whole + 1, torn)
    assert os.listdir(folder).count("unarchived-1.json") == 0        # set aside, not archived, not lost
    assert (waiting is None) == (not [n for n in os.listdir(folder) if n.startswith("set-aside-")])
