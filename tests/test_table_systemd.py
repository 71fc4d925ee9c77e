"""The table as a service: systemd's notify protocol against a real AF_UNIX datagram socket standing in for
systemd (READY once the first frame is shown, the watchdog pinged only while the loop turns, STATUS,
STOPPING), the status file and `roseking status`, and the unit `roseking install-service` writes, checked
by `systemd-analyze verify`."""
import asyncio
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import processes

from firmware_py.cli import main
from firmware_py.table.game import Mode, Setup
from firmware_py.table.notify import Notifier
from firmware_py.table.health import STALE_SECONDS
from firmware_py.table.status import STATUS_FILE, WRITE_SECONDS, StatusCollector, StatusFile
from firmware_py.table.unit import quoted
from table_kit import Rig

ROOT = Path(__file__).resolve().parent.parent
ROSEKING = [sys.executable, "-m", "firmware_py.cli"]
ENV = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", BLINKA_OS_AGNOSTIC="1")


class Systemd:
    """An AF_UNIX datagram socket where systemd's would be: `messages()` are what it has been sent."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.sock.settimeout(0.01)
        self.got = []

    def messages(self, wait=0.0):
        end = time.monotonic() + wait
        while True:
            try:
                self.got.append(self.sock.recv(4096).decode())
            except (TimeoutError, BlockingIOError):
                if time.monotonic() >= end:
                    return self.got
            except OSError:
                return self.got

    def until(self, line, timeout=30.0):
        """Wait for a message holding `line`; the messages so far."""
        end = time.monotonic() + timeout
        while not any(line in m.split("\n") for m in self.messages(0.05)):
            assert time.monotonic() < end, f"no {line} in {self.got}"
        return self.got

    def pings(self):
        return sum(m == "WATCHDOG=1" for m in self.messages())

    def close(self):
        self.sock.close()


@pytest.fixture
def systemd(tmp_path):
    listening = Systemd(str(tmp_path / "notify"))
    yield listening
    listening.close()


# --- the protocol --------------------------------------------------------------------------------

def test_the_notifier_speaks_to_a_path_and_to_an_abstract_name(systemd):
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"roseking-test-{os.getpid()}"
    abstract.bind("\0" + name)
    try:
        for target, env in ((systemd.sock, {"NOTIFY_SOCKET": systemd.sock.getsockname()}),
                            (abstract, {"NOTIFY_SOCKET": "@" + name})):
            notifier = Notifier(env)
            assert notifier.ready("menu; all well") and notifier.stopping() and not notifier.armed
            target.settimeout(1)
            assert target.recv(100) == b"READY=1\nSTATUS=menu; all well" and target.recv(100) == b"STOPPING=1"
            notifier.close()
    finally:
        abstract.close()


def test_the_watchdog_is_armed_for_this_process_only_at_half_its_period(systemd):
    path = systemd.sock.getsockname()
    assert Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"}).interval == 2.0
    assert Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000", "WATCHDOG_PID": str(os.getpid())}).armed
    assert not Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"}).armed
    assert not Notifier({"WATCHDOG_USEC": "4000000"}).armed and not Notifier({"NOTIFY_SOCKET": path}).armed
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"}, wall=lambda: 1234.0)
    for now in (10.0, 11.0, 11.9, 12.0, 13.0, 14.5):
        notifier.step(now)
    assert systemd.pings() == 3 and notifier.last_ping == 1234.0          # at 10, 12 and 14.5


def test_a_systemd_that_has_gone_is_logged_once_and_the_table_goes_on(tmp_path):
    log = []
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone"), "WATCHDOG_USEC": "1000"}, log.append)
    assert not notifier.ready("menu")
    for now in range(5):
        notifier.step(float(now))
    assert len(log) == 1 and "cannot tell systemd" in log[0] and notifier.last_ping is None


def test_the_environment_is_taken_for_this_process_only(monkeypatch, systemd):
    monkeypatch.setenv("NOTIFY_SOCKET", systemd.sock.getsockname())
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    notifier = Notifier.from_environment()
    assert notifier.armed and "NOTIFY_SOCKET" not in os.environ and "WATCHDOG_USEC" not in os.environ


# --- the loop --------------------------------------------------------------------------------------

def test_ready_once_shown_pings_while_the_loop_turns_none_while_it_is_blocked_and_stopping_at_the_end(
        tmp_path, systemd):
    """The loop runs on a thread of its own with the fake clock: READY after its first frame; pings each half
    period of the fake clock while it turns; none at all, however much time passes, while a ticker blocks it
    on purpose (as a hung driver would); pings again once it turns; STOPPING when it is stopped."""
    rig = Rig(tmp_path / "data")
    rig.loop.notifier = Notifier({"NOTIFY_SOCKET": systemd.sock.getsockname(), "WATCHDOG_USEC": "1000000"})
    blocked, release = threading.Event(), threading.Event()

    def hang(now):
        if blocked.is_set():
            release.wait(30)
    rig.loop.tickers.append(hang)
    rig.start(Setup(Mode.HUMANS, seed=7))
    aio = asyncio.new_event_loop()
    stop = asyncio.Event()
    thread = threading.Thread(target=lambda: aio.run_until_complete(rig.loop.run(stop=stop)))
    try:
        thread.start()
        ready = [m for m in systemd.until("READY=1") if m.startswith("READY=1")]
        assert ready == ["READY=1\nSTATUS=play, humans (0 moves); all well"]
        for _ in range(3):                        # a ping each half second of the fake clock
            systemd.got.clear()
            rig.time.now += 0.5
            systemd.until("WATCHDOG=1", timeout=10)
        blocked.set()
        time.sleep(0.2)                           # the loop is now held in `hang`
        systemd.messages(0.2)
        systemd.got.clear()
        for _ in range(10):                       # ten minutes of the clock: not one ping
            rig.time.now += 60
            time.sleep(0.03)
        assert systemd.pings() == 0
        blocked.clear()
        release.set()
        systemd.until("WATCHDOG=1", timeout=5)
        aio.call_soon_threadsafe(stop.set)
        thread.join(30)
        assert systemd.until("STOPPING=1")[-1] == "STOPPING=1"
    finally:
        release.set()
        if thread.is_alive():
            aio.call_soon_threadsafe(stop.set)
            thread.join(30)
        aio.close()
        rig.close()


def test_status_says_the_mode_and_what_is_at_fault_when_it_changes(tmp_path, systemd):
    rig = Rig(tmp_path / "data")
    rig.loop.notifier = Notifier({"NOTIFY_SOCKET": systemd.sock.getsockname()})
    try:
        rig.start(Setup(Mode.HUMANS, seed=7))
        rig.wait(1.0)
        rig.play(rig.game.pos.legal_moves()[0])
        rig.loop.faults.computer.failures = 3           # as after three deaths of the worker in a row
        rig.loop.faults.computer.since = rig.time.now
        rig.wait(0.5)
        assert systemd.messages() == ["STATUS=play, humans (0 moves); all well",
                                      "STATUS=play, humans (1 moves); all well",
                                      "STATUS=play, humans (1 moves); at fault: the computer's worker"]
    finally:
        rig.close()


# --- the status file and `roseking status` -----------------------------------------------------------

def test_the_status_file_is_written_every_few_seconds_and_at_once_when_what_it_says_changes(tmp_path):
    rig = Rig(tmp_path / "data")
    status = StatusCollector(str(tmp_path / "data"), "sim", clock=rig.time.clock)
    rig.loop.receivers.append(status)
    status.watch(rig.loop)
    writer = StatusFile(tmp_path / "data", status, [].append)
    written = []
    write = writer.write
    writer.write = lambda s, running: (written.append(rig.time.now), write(s, running))
    rig.loop.tickers.append(writer)
    path = tmp_path / "data" / STATUS_FILE
    try:
        rig.start(Setup(Mode.HUMANS, seed=7))
        start = rig.time.now
        first = json.loads(path.read_text())
        assert first["running"] and first["pid"] == os.getpid() and first["mode"] == "humans"
        assert oct(path.stat().st_mode & 0o777) == "0o644"
        rig.wait(2.5 * WRITE_SECONDS)                       # the crown turns: new frames, nothing new said
        gaps = [b - a for a, b in zip([start] + written, written)]
        assert len(written) == 3 and gaps[0] == 0
        assert all(WRITE_SECONDS <= gap <= WRITE_SECONDS + 0.1 for gap in gaps[1:])
        rig.new_game_menu()             # the game menu, then the new-game menu: each said at once
        assert json.loads(path.read_text())["screen"] == "menu" and len(written) == 5
        writer.close()
        assert json.loads(path.read_text())["running"] is False
    finally:
        rig.close()


def status_of(tmp_path, **changes):
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    status = StatusCollector(str(data), "pi", clock=lambda: 100.0, wall=lambda: time.time() - 100).status()
    record = {**status.to_dict(), "running": True, "written": time.time(), **changes}
    (data / STATUS_FILE).write_text(json.dumps(record))
    return ["status", "--data-dir", str(data)]


def test_roseking_status_is_0_for_a_running_service_and_prints_its_facts(tmp_path, capsys):
    argv = status_of(tmp_path, uptime_seconds=100.0, watchdog_armed=True, last_ping=time.time() - 3,
                     errors=[{"at": time.time(), "line": "roseking: the board's lights failed"}])
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"roseking is running (process {os.getpid()})\n")
    for said in ("watchdog:     armed, last ping 3 s ago", "at fault:     nothing", "the board's lights failed",
                 "games today:  0 started in this run, 0 finished", "up:           1 min 40 s"):
        assert said in out, out
    assert main(argv + ["--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["healthy"] and got["status"]["backend"] == "pi"


@pytest.mark.parametrize("fault, named", [("lights", "the board's lights"), ("save", "saving the game")])
def test_roseking_status_is_4_degraded_while_a_part_is_at_fault(tmp_path, capsys, fault, named):
    assert main(status_of(tmp_path, faults=[fault])) == 4
    out = capsys.readouterr().out
    assert out.startswith(f"roseking is DEGRADED: process {os.getpid()} runs, but at fault: {named}\n")
    assert f"at fault:     {fault}" in out


def dead_pid():
    return int(processes.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                             text=True).stdout)


@pytest.mark.parametrize("changes, code, verdict", [
    ({"written": time.time() - STALE_SECONDS - 5}, 1, "is STUCK: process"),
    ({"running": False}, 3, "is DOWN: the service stopped at"),
    ("dead", 3, "is gone"),
])
def test_roseking_status_says_when_the_service_is_stuck_or_down(tmp_path, capsys, changes, code, verdict):
    argv = status_of(tmp_path, **({"pid": dead_pid()} if changes == "dead" else changes))
    assert main(argv) == code
    assert verdict in capsys.readouterr().out.splitlines()[0]


def test_roseking_status_without_a_status_file_is_down_and_a_bad_one_is_an_error_line(tmp_path, capsys):
    assert main(["status", "--data-dir", str(tmp_path)]) == 3
    assert "roseking is DOWN: no status in" in capsys.readouterr().out
    (tmp_path / STATUS_FILE).write_text("[1, 2")
    assert main(["status", "--data-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / STATUS_FILE}: not a status file of roseking (not JSON)\n"


def test_the_service_under_a_stand_in_for_systemd(tmp_path, systemd):
    """`roseking play` as systemd runs it (no terminal, NOTIFY_SOCKET, WATCHDOG_USEC): READY, pings, the status
    file `roseking status` reads as healthy; SIGTERM: STOPPING, status 143, and `roseking status` says down."""
    data = tmp_path / "data"
    env = dict(ENV, NOTIFY_SOCKET=systemd.sock.getsockname(), WATCHDOG_USEC="400000")
    with processes.started(ROSEKING + ["play", "--sim", "--data-dir", str(data)], env=env, cwd=ROOT,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as proc:
        ready = [m for m in systemd.until("READY=1", timeout=60) if m.startswith("READY=1")]
        assert ready == ["READY=1\nSTATUS=play, demo (0 moves); all well"]
        systemd.until("WATCHDOG=1", timeout=10)
        time.sleep(0.5)
        assert systemd.pings() >= 1
        status = processes.run(ROSEKING + ["status", "--data-dir", str(data)], env=ENV, cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
        assert status.returncode == 0, status.stdout + status.stderr
        assert f"process {proc.pid}" in status.stdout and "watchdog:     armed" in status.stdout
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err
    assert "STOPPING=1" in systemd.messages()
    stopped = processes.run(ROSEKING + ["status", "--data-dir", str(data)], env=ENV, cwd=ROOT, capture_output=True,
                             text=True, timeout=60)
    assert stopped.returncode == 3 and "the service stopped at" in stopped.stdout


# --- the unit ------------------------------------------------------------------------------------------

def install(tmp_path, *extra):
    config = tmp_path / "table.toml"
    if not config.exists():
        config.write_text('backend = "pi"\n[table]\ndata_dir = "DATA"\n'.replace("DATA", str(tmp_path / "games")))
    return ["install-service", "--config", str(config), "--path", str(tmp_path / "roseking.service"), *extra]


def test_the_unit_runs_this_install_resumes_on_restart_and_writes_only_its_data(tmp_path, capsys):
    user = pwd.getpwuid(os.getuid()).pw_name
    assert main(install(tmp_path, "--user", user)) == 0
    out = capsys.readouterr().out
    assert "sudo systemctl daemon-reload\n  sudo systemctl enable --now roseking.service" in out
    unit = (tmp_path / "roseking.service").read_text()
    roseking = Path(sys.executable).parent / "roseking"
    assert f"ExecStart={roseking} play --config {tmp_path / 'table.toml'} --data-dir {tmp_path / 'games'}\n" in unit
    assert "--mode" not in unit.split("ExecStart=")[1].split("\n")[0]
    for line in ("Type=notify", "NotifyAccess=main", "Restart=always", "WatchdogSec=30", "ProtectSystem=strict",
                 f"ReadWritePaths={tmp_path / 'games'}", f"User={user}", "StartLimitIntervalSec=0"):
        assert f"\n{line}\n" in unit, line
    assert (tmp_path / "games").is_dir()                # systemd needs it there
    assert oct((tmp_path / "roseking.service").stat().st_mode & 0o777) == "0o644"


def test_a_different_unit_is_never_replaced_without_force_and_the_same_one_is_left_alone(tmp_path, capsys):
    target = tmp_path / "roseking.service"
    target.write_text("[Service]\nExecStart=/bin/true\n")
    assert main(install(tmp_path)) == 2
    assert "a different unit is there; --force replaces it" in capsys.readouterr().err
    assert target.read_text() == "[Service]\nExecStart=/bin/true\n"
    assert main(install(tmp_path, "--force")) == 0
    written = target.read_text()
    capsys.readouterr()
    assert main(install(tmp_path)) == 0 and "already this unit: nothing to change" in capsys.readouterr().out
    assert target.read_text() == written
    assert main(install(tmp_path, "--print", "--data-dir", str(tmp_path / "other"))) == 0
    assert f"ReadWritePaths={tmp_path / 'other'}" in capsys.readouterr().out and target.read_text() == written


@pytest.mark.parametrize("extra, message", [
    (["--user", "no-such-user-here"], "--user: no user no-such-user-here on this machine"),
    (["--data-dir", ""], "--data-dir: the directory name is empty"),
    (["--data-dir", "/srv/a\"b"], "a quote, a backslash or a control character cannot go into the unit"),
    (["--path", "/nonexistent/dir/roseking.service"], "no such directory"),
])
def test_bad_install_options_are_one_error_line_and_write_nothing(tmp_path, capsys, extra, message):
    assert main(install(tmp_path, *extra)) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "roseking.service").exists()


def test_a_configuration_the_service_would_refuse_is_refused_at_install(tmp_path, capsys):
    (tmp_path / "table.toml").write_text('backend = "pi"\n[table]\nhint = 1\n')
    assert main(install(tmp_path)) == 2
    assert "table.hint: must be true or false" in capsys.readouterr().err


def test_paths_with_blanks_and_specifier_characters_are_quoted():
    assert quoted("/srv/the table/50%") == '"/srv/the table/50%%"'
    assert quoted("/opt/$x", exec_line=True) == "/opt/$$x"


def test_the_unit_passes_systemd_analyze_verify(tmp_path, capsys):
    """systemd's own check of the unit file: every key known and well formed, the command there and executable.
    In CI (`CI` set) the tool must be there (.ci/run installs Debian's systemd package)."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing: apt-get install systemd (.ci/run does)")
        pytest.skip("systemd-analyze is missing (apt-get install systemd)")
    data = tmp_path / "my games 100%"               # a blank and a specifier character, quoted
    assert main(install(tmp_path, "--data-dir", str(data), "--user", "root")) == 0
    checked = processes.run([tool, "verify", str(tmp_path / "roseking.service")], capture_output=True, text=True,
                             timeout=120)
    assert checked.returncode == 0 and checked.stdout == "" and checked.stderr == "", checked.stderr
