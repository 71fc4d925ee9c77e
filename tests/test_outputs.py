"""Output files (issue 9): whole or nothing over regular files, never replacing a device, a FIFO
or a symbolic link, refused before any work when they cannot be written, no partial file left."""
import contextlib
import json
import os
import signal
import stat
import subprocess
import sys
import time

import pytest

import processes

from engine.position import Position
from firmware_py.atomic import PARTIAL, atomic_writer, write_file
from firmware_py.cli import main
from firmware_py.errors import UsageError


def simulate(capsys, records, games="3"):
    code = main(["simulate", "--games", games, "--seed", "1", "--records", str(records)])
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code, out, err, *words):
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


def test_an_existing_file_is_replaced_whole_and_keeps_its_mode(tmp_path, capsys):
    target = tmp_path / "games.jsonl"
    target.write_text("old\n")
    target.chmod(0o640)
    assert simulate(capsys, target)[0] == 0
    assert len(target.read_text().splitlines()) == 3
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]


def test_a_new_file_takes_its_mode_from_the_umask(tmp_path, capsys):
    old = os.umask(0o027)
    try:
        assert simulate(capsys, tmp_path / "games.jsonl")[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "games.jsonl").stat().st_mode) == 0o640


def test_a_symbolic_link_is_written_through(tmp_path, capsys):
    (tmp_path / "real.jsonl").write_text("old\n")
    (tmp_path / "link.jsonl").symlink_to("real.jsonl")
    assert simulate(capsys, tmp_path / "link.jsonl")[0] == 0
    assert (tmp_path / "link.jsonl").is_symlink()
    assert len((tmp_path / "real.jsonl").read_text().splitlines()) == 3


def test_a_device_is_written_into_never_replaced(tmp_path, capsys):
    node = tmp_path / "null"  # like /dev/null
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod needs root")
    assert simulate(capsys, node)[0] == 0
    assert stat.S_ISCHR(node.stat().st_mode)


def test_a_fifo_is_written_into(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with processes.started([sys.executable, "-m", "firmware_py.cli", "simulate", "--games", "2", "--records",
                            str(fifo)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as proc:
        with open(fifo) as reader:
            lines = reader.read().splitlines()
        assert proc.wait(timeout=60) == 0, proc.stderr.read()
    assert len(lines) == 2 and stat.S_ISFIFO(fifo.stat().st_mode)


def test_standard_output_piped_is_written_into():
    """`--records /dev/stdout | …`: the link leads to a pipe, which is written directly (no partial file
    beside a pipe's name in /proc)."""
    proc = processes.run([sys.executable, "-m", "firmware_py.cli", "simulate", "--games", "2", "--records",
                           "/dev/stdout"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    records = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert len(records) == 2 and "games: 2" in proc.stdout


@pytest.mark.parametrize("argv", [["simulate", "--games", "100000000", "--records", "/dev/stdout"],
                                  ["agent", "--level", "random"]])
def test_a_reader_that_goes_away_ends_the_run_quietly_with_the_status_of_sigpipe(argv):
    """`--records /dev/stdout | head -1`: nothing on standard error, and 128 + SIGPIPE as the shell gives a
    command that `head` cut short, never the 0 of a command that delivered all it had."""
    with processes.started([sys.executable, "-m", "firmware_py.cli", *argv], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        line = json.dumps(Position.new(seed=1).to_json()).encode() + b"\n"
        proc.stdin.write(line)
        proc.stdin.flush()
        assert proc.stdout.readline()
        proc.stdout.close()
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.write(line * 1000)     # the agent answers, into a pipe nobody reads
            proc.stdin.close()
        assert proc.wait(timeout=60) == 128 + signal.SIGPIPE
        assert proc.stderr.read() == b""


def test_a_dangling_link_names_the_missing_folder_it_leads_to(tmp_path, capsys):
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "gone" / "games.jsonl")
    assert_refused(*simulate(capsys, tmp_path / "link.jsonl"), f"no such directory {tmp_path / 'gone'}")


@pytest.mark.parametrize("games", ["1", "3"])  # one game stays in the buffer until the last flush and close
def test_a_full_disk_is_an_error_line(capsys, games):
    assert_refused(*simulate(capsys, "/dev/full", games), "/dev/full: cannot write (No space left on device)")


def test_a_full_disk_found_on_the_last_flush_is_a_usage_error():
    with pytest.raises(UsageError, match="/dev/full: cannot write"), atomic_writer("/dev/full") as f:
        f.write("a short line\n")


@pytest.mark.parametrize("name, words", [("", ["an output file name is empty"]),
                                         (".", ["is a directory"]),
                                         ("no/such/games.jsonl", ["no such directory no/such"])])
def test_unwritable_names_are_refused_before_any_game(tmp_path, monkeypatch, capsys, name, words):
    monkeypatch.chdir(tmp_path)
    start = time.monotonic()
    assert_refused(*simulate(capsys, name, games="1000000000000"), *words)
    assert time.monotonic() - start < 5  # refused at once, not after the games
    assert list(tmp_path.iterdir()) == []


def test_an_error_inside_the_block_keeps_the_old_file(tmp_path):
    target = tmp_path / "save.json"
    target.write_text("the old save")
    with pytest.raises(RuntimeError), atomic_writer(target) as f:
        f.write("half")
        raise RuntimeError("stop")
    assert target.read_text() == "the old save"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_leftovers_of_a_killed_run_are_cleared_and_live_ones_kept(tmp_path, capsys):
    dead = tmp_path / f".games.jsonl.999999999.0badf00d{PARTIAL}"     # no such process
    live = tmp_path / f".games.jsonl.{os.getpid()}.0badf00d{PARTIAL}"  # a run still going
    other = tmp_path / f".other.jsonl.999999999.0badf00d{PARTIAL}"     # another target's
    for p in (dead, live, other):
        p.write_text("partial")
    assert simulate(capsys, tmp_path / "games.jsonl")[0] == 0
    assert not dead.exists() and live.exists() and other.exists()


@pytest.mark.parametrize("pid", ["99999999999999999999", "²", "0", "-1", ""])
def test_odd_names_like_leftovers_are_left_alone(tmp_path, capsys, pid):
    odd = tmp_path / f".games.jsonl.{pid}.0badf00d{PARTIAL}"  # not a name this program gives its partial files
    odd.write_text("someone's file")
    assert simulate(capsys, tmp_path / "games.jsonl")[0] == 0
    assert odd.read_text() == "someone's file"


def test_a_folder_is_read_for_leftovers_once_however_many_files_go_into_it(tmp_path, monkeypatch):
    """`--snapshot` writes thousands of pictures into one folder: looking for leftovers beside
    each of them would make the run quadratic."""
    dead = tmp_path / f".frame-000003.png.999999999.0badf00d{PARTIAL}"
    dead.write_text("partial")
    reads = []
    real_scandir = os.scandir
    monkeypatch.setattr(os, "scandir", lambda folder: reads.append(folder) or real_scandir(folder))
    for n in range(1, 6):
        write_file(str(tmp_path / f"frame-{n:06d}.png"), b"png")
    assert reads == [str(tmp_path)]
    assert not dead.exists() and len(list(tmp_path.iterdir())) == 5


def test_a_signal_just_after_the_partial_file_is_made_removes_it(tmp_path, monkeypatch):
    """SIGTERM may land between the partial file's creation and anything after it."""
    import firmware_py.atomic as atomic
    real_open_fd = atomic._open_fd

    def open_then_terminated(*args):
        os.close(real_open_fd(*args))
        raise SystemExit(128 + signal.SIGTERM)
    monkeypatch.setattr(atomic, "_open_fd", open_then_terminated)
    with pytest.raises(SystemExit), atomic_writer(tmp_path / "games.jsonl"):
        pass
    assert list(tmp_path.iterdir()) == []


def test_sigterm_removes_the_partial_file(tmp_path):
    target = tmp_path / "games.jsonl"
    target.write_text("old\n")
    with processes.started([sys.executable, "-m", "firmware_py.cli", "simulate", "--games", "100000000",
                            "--records", str(target)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as proc:
        deadline = time.monotonic() + 30
        while not any(p.name.endswith(PARTIAL) for p in tmp_path.iterdir()):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]
    assert target.read_text() == "old\n"


def test_frames_and_snapshots_go_through_the_same_writer(tmp_path, capsys):
    script = tmp_path / "press.txt"
    script.write_text("menu press\n")
    frames = tmp_path / "frames.jsonl"
    frames.write_text("old\n")
    frames.chmod(0o604)
    argv = ["selftest", "--sim", "--input-script", str(script), "--led-seconds", "0", "--glyph-seconds", "0",
            "--frames", str(frames)]
    assert main(argv) == 0
    assert stat.S_IMODE(frames.stat().st_mode) == 0o604 and frames.read_text().count("\n") > 300
    capsys.readouterr()
    assert_refused(main(argv[:-1] + [str(tmp_path)]), *capsys.readouterr(), "is a directory")
    assert_refused(main(argv[:-2] + ["--snapshot", str(script)]), *capsys.readouterr(), "not a directory")
    assert_refused(main(argv[:-2] + ["--snapshot", str(tmp_path / "no" / "shots")]), *capsys.readouterr(),
                   f"cannot create (no such directory {tmp_path / 'no'})")
    assert_refused(main(["selftest", "--sim", "--exit-after-script"]), *capsys.readouterr(),
                   "--exit-after-script needs --input-script")
