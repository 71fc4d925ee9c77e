"""Fault injection: every write the table service and the commands make fails in turn — a full disk
(ENOSPC), a failing card (EIO), a refused permission (EACCES), a directory in the way (EISDIR) and a
write cut short (torn) — once, and for good.

Whatever fails: no traceback, one clear message (an `error:` line, or the service's log line naming
the file), the documented status (2 when a command's output fails; 0 when the service keeps its
games and plays on, having said so), no output file half-written, and every game the table played is
the current save or a whole line of the archive (after the next start has archived the games that
had to wait).
"""
import contextlib
import io
import json
import os
import sys
from pathlib import Path

import pytest

import processes
from engine.position import Position
from engine.record import dumps
from faults import KINDS, Faults, Stream
from firmware_py.cli import main
from firmware_py.table.game import Setup
from firmware_py.table.saves import ARCHIVE, CURRENT
from test_table_service import played


pytestmark = pytest.mark.usefixtures("no_waiting_for_the_disk")  # hundreds of runs would wait for the disk


FINISHED = played(Setup("demo", "random", seed=3), 400).record()       # a kill came before it was archived
WAITING = played(Setup("demo", "random", seed=4), 400).record()        # it waits for the archive
NEW_SEED = 5


def contains(name):
    return lambda path: name in os.path.basename(path)


# The service's files, what a fault there must end in, and the name its message must give.
SERVICE = {
    "save": (contains(CURRENT), 0, CURRENT),
    "archive": (lambda path: os.path.basename(path) == ARCHIVE, 0, ARCHIVE),
    "waiting": (contains("unarchived-"), 0, "unarchived-"),
    "records": (contains("copy.jsonl"), 0, "copy.jsonl"),
    "frames": (contains("frames.jsonl"), 2, "frames.jsonl"),
    "snapshot": (lambda path: "shots" in Path(path).parts, 2, "shots"),
}


def table(tmp_path, corrupt=False):
    """A data folder: a finished game as the current save (or a corrupt save), a game waiting for the
    archive, and an archive whose last line was torn by a power loss; the argv of a start of the service."""
    data = tmp_path / "data"
    data.mkdir(parents=True)
    (data / CURRENT).write_text("{not json" if corrupt else json.dumps(FINISHED))
    (data / "unarchived-0.json").write_text(json.dumps(WAITING))
    (data / ARCHIVE).write_text("partial")
    mode = [] if corrupt else ["--mode", "humans", "--seed", str(NEW_SEED)]
    return data, ["play", "--sim", "--data-dir", str(data), "--input-script", os.devnull, "--exit-after-script",
                  "--records", str(tmp_path / "copy.jsonl"), "--frames", str(tmp_path / "frames.jsonl"),
                  "--snapshot", str(tmp_path / "shots"), *mode]


def serve(argv, stdout=None, stderr=None):
    """(status, standard error) of `roseking ARGV`, in this process."""
    stdout, stderr = stdout or Stream(), stderr or Stream()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(argv)
    assert "Traceback" not in stderr.getvalue(), stderr.getvalue()
    return status, stderr.getvalue()


def whole_lines(path):
    """The records on whole lines of `path` (a torn line is no record)."""
    records = []
    for line in path.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            pass
    return records


def assert_every_game_kept(tmp_path, data, restart=False):
    """Each game the table played is the current save, a whole line of the archive (once) or a file
    waiting for it; the torn line is left as it was. With `restart`, a start without faults archives
    the waiting games: then each finished game is once in the archive and nothing waits."""
    if restart:
        status, err = serve(["play", "--sim", "--data-dir", str(data), "--input-script", os.devnull,
                             "--exit-after-script"])
        assert status == 0, err
    lines = (data / ARCHIVE).read_text().split("\n")
    assert lines[0] == "partial" and (lines[-1] == "" or len(lines) == 1)
    archived = [dumps(g) for g in whole_lines(data / ARCHIVE)]
    waiting = [dumps(json.loads(p.read_text())) for p in data.glob("unarchived-*")]
    current = json.loads((data / CURRENT).read_text()) if (data / CURRENT).exists() else None
    for game in (FINISHED, WAITING):
        places = archived.count(dumps(game)) + waiting.count(dumps(game)) + (current == game)
        assert places >= 1 and archived.count(dumps(game)) <= 1, (places, archived.count(dumps(game)))
    assert len(archived) == len(set(archived)) <= 2
    if restart:
        assert not waiting and len(archived) == 2
    copy = tmp_path / "copy.jsonl"
    if copy.exists():                        # a copy: a game may be missing (logged), never glued or doubled
        assert len(whole_lines(copy)) == len(copy.read_text().splitlines()) <= 2
    return current


SERVICE_WRITES: dict[str, list[tuple[str, int]]] = {}
PACED = ("frames", "snapshot")
"""Outputs written as the frames come: how many writes a run makes depends on how fast the machine
steps the loop, so only each operation's first write (which every run makes) is made to fail."""


def writes(tmp_path, files):
    """The (op, n) of every write a clean start makes to `files` (seen once for every kind of fault)."""
    if files not in SERVICE_WRITES:
        data, argv = table(tmp_path / "count")
        with pytest.MonkeyPatch.context() as mp:
            faults = Faults(mp, SERVICE[files][0])
            assert serve(argv)[0] == 0
        counted: dict[str, int] = {}
        for op, _ in faults.seen:
            counted[op] = counted.get(op, 0) + 1
        SERVICE_WRITES[files] = [(op, n) for op, total in counted.items()
                                 for n in range(1 if files in PACED else total)]
    return SERVICE_WRITES[files]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("files", SERVICE)
def test_each_write_of_the_service_failing_once_loses_no_game(tmp_path, monkeypatch, files, kind):
    target, status, name = SERVICE[files]
    todo = writes(tmp_path, files)
    assert todo, f"the service wrote nothing to its {files}"
    for op, n in todo:
        run = tmp_path / f"{op}-{n}"
        run.mkdir()
        data, argv = table(run)
        with pytest.MonkeyPatch.context() as mp:
            faults = Faults(mp, target, kind, lambda o, p, k, op=op, n=n: (o, k) == (op, n))
            got, err = serve(argv)
        assert faults.fired, (op, n)
        assert_failure_said(got, err, status, name, (op, n))
        current = assert_every_game_kept(run, data)
        if got == 0:                         # the new game was dealt and saved, if only at the next step
            assert current is not None and current["seed"] == NEW_SEED, (op, n)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("files", SERVICE)
def test_the_service_whose_files_keep_failing_loses_no_finished_game(tmp_path, files, kind):
    target, status, name = SERVICE[files]
    data, argv = table(tmp_path)
    with pytest.MonkeyPatch.context() as mp:
        faults = Faults(mp, target, kind, lambda o, p, k: True)
        got, err = serve(argv)
    assert faults.fired
    assert_failure_said(got, err, status, name, files)
    assert_every_game_kept(tmp_path, data, restart=True)


def assert_failure_said(got, err, status, name, what):
    lines = err.splitlines()
    assert all(line.startswith(("roseking: ", "error: ")) for line in lines), (what, err)
    if status == 2:           # one error line, the last; before it, what the service logged as it went
        errors = [line for line in lines if line.startswith("error: ")]
        assert got == 2 and errors == lines[-1:] and name in errors[0], (what, err)
    else:
        assert got == 0 and any(name in line for line in lines if line.startswith("roseking: ")), (what, err)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("once", [True, False])
def test_a_save_that_cannot_be_set_aside_is_an_error_line_and_stays(tmp_path, kind, once):
    data, argv = table(tmp_path, corrupt=True)
    with pytest.MonkeyPatch.context() as mp:
        faults = Faults(mp, contains(CURRENT), kind, lambda o, p, k: o == "rename" and (k == 0 or not once))
        got, err = serve(argv)
    assert faults.fired
    assert got == 2 and err.startswith("error: ") and err.count("\n") == 1 and "cannot be moved aside" in err
    assert (data / CURRENT).read_text() == "{not json" and not list(data.glob("set-aside-*"))
    assert not (tmp_path / "frames.jsonl").exists() and not list((tmp_path / "shots").iterdir())  # nothing shown


@pytest.mark.parametrize("kind", KINDS)
def test_the_service_whose_log_cannot_be_written_plays_on_and_says_so_by_its_status(tmp_path, kind):
    data, argv = table(tmp_path)
    got, _ = serve(argv, stderr=Stream(kind, lambda n: True))
    assert got == 2                          # its log line ("… archived") was lost
    assert_every_game_kept(tmp_path, data, restart=True)


# --- the commands ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("inputs")
    records = folder / "games.jsonl"
    assert main(["simulate", "--games", "3", "--records", str(records)]) == 0
    (folder / "pos.json").write_text(json.dumps(json.loads(records.read_text().splitlines()[0])["start"]))
    (folder / "sim.toml").write_text('backend = "sim"\n')
    (folder / "empty.txt").write_text("")
    (folder / "torn.jsonl").write_text(records.read_text() + "partial")
    return folder


def argv_of(inputs, out, *argv):
    names = {"RECORDS": inputs / "games.jsonl", "TORN": inputs / "torn.jsonl", "POS": inputs / "pos.json",
             "CONFIG": inputs / "sim.toml", "EMPTY": inputs / "empty.txt", "OUT": out}
    move = str(Position.from_json(json.loads((inputs / "pos.json").read_text())).legal_moves()[0])
    return [move if a == "MOVE" else str(names[a]) if a in names else a for a in argv]


SELFTEST = ["selftest", "--sim", "--input-script", "EMPTY", "--led-seconds", "0", "--glyph-seconds", "0"]
OUTPUT_FILES = {                               # commands, and the files they write
    "simulate --records": ["simulate", "--games", "3", "--records", "OUT"],
    "tournament --records": ["tournament", "--players", "random,greedy", "--games", "2", "--records", "OUT"],
    "report --csv": ["report", "RECORDS", "--csv", "OUT"],
    "report --out": ["report", "RECORDS", "--out", "OUT"],
    "report --json": ["report", "RECORDS", "--json", "OUT"],
    "selftest --frames": [*SELFTEST, "--frames", "OUT"],
    "selftest --snapshot": [*SELFTEST, "--snapshot", "OUT"],
}


OUTPUT_OPS: dict[str, list[str]] = {}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", OUTPUT_FILES)
def test_each_write_of_an_output_file_failing_is_one_error_line_and_leaves_no_half_file(tmp_path, inputs, command,
                                                                                          kind):
    def target(path):
        return "OUT" in Path(path).parts
    if command not in OUTPUT_OPS:            # what the command writes, seen once for every kind of fault
        (tmp_path / "count").mkdir()
        with pytest.MonkeyPatch.context() as mp:
            faults = Faults(mp, target)
            assert serve(argv_of(inputs, tmp_path / "count" / "OUT", *OUTPUT_FILES[command]))[0] == 0
        OUTPUT_OPS[command] = sorted({op for op, _ in faults.seen})
    assert OUTPUT_OPS[command]
    for op in OUTPUT_OPS[command]:
        out = tmp_path / op / "OUT"
        out.parent.mkdir()
        if "--out" not in command and "--snapshot" not in command:
            out.write_text("the old file\n")
        with pytest.MonkeyPatch.context() as mp:
            faults = Faults(mp, target, kind, lambda o, p, k, op=op: o == op)
            got, err = serve(argv_of(inputs, out, *OUTPUT_FILES[command]))
        assert faults.fired
        assert got == 2 and err.startswith("error: ") and err.count("\n") == 1 and "OUT" in err, (op, err)
        if out.is_file():
            assert out.read_text() == "the old file\n", op       # whole or not at all
        left = [p.name for p in out.parent.rglob("*") if p.name.endswith(".roseking-partial")]
        assert left == [], op


PRINTING = {
    "new": ["new", "--seed", "1"], "legal": ["legal", "POS"], "apply": ["apply", "POS", "MOVE"],
    "score": ["score", "POS"], "show": ["show", "POS"], "replay": ["replay", "RECORDS"],
    "simulate": ["simulate", "--games", "2"], "simulate --json": ["simulate", "--games", "2", "--json"],
    "tournament": ["tournament", "--players", "random,greedy", "--games", "2"],
    "config check": ["config", "check", "CONFIG"], "report": ["report", "RECORDS", "--csv", "OUT"],
    "selftest": SELFTEST, "agent": ["agent", "--level", "random"], "help": ["new", "--help"],
    "version": ["--version"],
}


def printing(inputs, tmp_path, command):
    """The argv of a printing command, and its standard input."""
    stdin = (inputs / "pos.json").read_bytes() + b"\n" if command == "agent" else b""
    return argv_of(inputs, tmp_path / "out.csv", *PRINTING[command]), stdin


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", PRINTING)
def test_each_write_to_standard_output_failing_is_one_error_line_and_status_2(tmp_path, inputs, monkeypatch,
                                                                               command, kind):
    argv, stdin = printing(inputs, tmp_path, command)

    def fed():
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    fed()
    clean = Stream()
    assert serve(argv, stdout=clean)[0] == 0
    for n in range(clean.calls):
        fed()
        stdout = Stream(kind, lambda k, n=n: k == n)
        got, err = serve(argv, stdout=stdout)
        assert stdout.fired and got == 2, (n, got, err)
        assert err == f"error: standard output: cannot write ({os.strerror(KINDS[kind])})\n", (n, err)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("argv", [["legal", "no-such.json"], ["replay", "TORN"], ["new", "--seed", "x"]])
def test_standard_error_failing_is_status_2_and_the_output_stands(tmp_path, inputs, kind, argv):
    stdout = Stream()
    got, _ = serve(argv_of(inputs, tmp_path, *argv), stdout=stdout, stderr=Stream(kind, lambda n: True))
    assert got == 2
    if argv[0] == "replay":                  # its warning was lost, its output is whole
        assert stdout.getvalue().count("\n") == 3


def test_standard_error_failing_for_a_while_is_said_at_the_end(tmp_path, inputs):
    stdout, stderr = Stream(), Stream("EIO", lambda n: n == 0)
    got, err = serve(argv_of(inputs, tmp_path, "replay", "TORN"), stdout=stdout, stderr=stderr)
    assert got == 2 and err == "error: standard error: cannot write (Input/output error)\n", err
    assert stdout.getvalue().count("\n") == 3


# --- the same through real descriptors, in a process of its own --------------------------------

def roseking(argv, stdin=b"", **redirect):
    """`roseking ARGV` in a new process whose standard streams are opened or closed as `redirect` says
    (`_1="/dev/full"`, `_2=None` for closed)."""
    shell = " ".join(f"{fd[1:]}>&-" if target is None else f"{fd[1:]}>{target}" for fd, target in redirect.items())
    return processes.run(["sh", "-c", f'exec "$@" {shell}', "sh", sys.executable, "-m", "firmware_py.cli", *argv],
                          input=stdin, capture_output=True, timeout=120)


@pytest.mark.parametrize("command", PRINTING)
def test_standard_output_full_or_closed_is_one_error_line_and_status_2(tmp_path, inputs, command):
    """Not a traceback and status 1 (at the interpreter's last flush, 120), nor a closed output taken
    for success."""
    argv, stdin = printing(inputs, tmp_path, command)
    full = roseking(argv, stdin, _1="/dev/full")
    assert (full.returncode, full.stderr.decode()) == (2, "error: standard output: cannot write (No space left on "
                                                          "device)\n")
    closed = roseking(argv, stdin, _1=None)
    assert (closed.returncode, closed.stderr.decode()) == (2, "error: standard output is closed\n")


@pytest.mark.parametrize("command", ["legal", "agent"])
def test_standard_error_closed_or_full_is_no_traceback_and_a_lost_error_line_is_status_2(tmp_path, inputs,
                                                                                         command):
    argv, stdin = printing(inputs, tmp_path, command)
    for target in (None, "/dev/full"):
        fine = roseking(argv, stdin, _2=target)
        assert fine.returncode == 0 and fine.stdout, fine           # nothing had to be said
        failed = roseking([argv[0], "no-such-file.json"], _2=target)
        assert (failed.returncode, failed.stdout) == (2, b"")     # the error line is lost, not sent to stdout


def test_play_may_run_with_standard_output_closed(tmp_path):
    done = roseking(["play", "--sim", "--mode", "humans", "--data-dir", str(tmp_path), "--input-script", os.devnull,
                     "--exit-after-script"], _1=None)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert (tmp_path / CURRENT).exists()
