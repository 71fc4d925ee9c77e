"""The machine the table runs on for a season: a clock it does not trust blindly, a unit systemd is happy with,
an SD card spared, a status a museum can monitor, a data directory that takes nothing said at once."""
import asyncio
import datetime
import json
import os
import pwd
import subprocess
import sys
import time
from pathlib import Path

import pytest

import processes

from firmware_py.cli import main
from firmware_py.table import service, timekeeping
from firmware_py.table.exhibit import Exhibit, Span
from firmware_py.table.game import Mode, Setup
from firmware_py.table.loop import TIME_CHECK_SECONDS
from firmware_py.table.messages import say
from firmware_py.table.session import Screen
from firmware_py.table.settings import Settings
from firmware_py.table.status import STATUS_FILE, StatusCollector, StatusFile
from hardware import parse_config
from table_kit import Rig
from test_table_systemd import status_of

ROOT = Path(__file__).resolve().parent.parent
ROSEKING = [sys.executable, "-m", "firmware_py.cli"]
ENV = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", BLINKA_OS_AGNOSTIC="1")
FAST = Settings(show_seconds=0.05)
MUSEUM = Exhibit(attract_after=60, walk_away=120, warning=20, sleep_after=60,
                 hours=Span(datetime.time(10), datetime.time(18)), night=Span(datetime.time(20), datetime.time(7)))
THREE_AM = datetime.datetime(2026, 12, 1, 3, 0)        # what a Pi 4 without network says after a night's power cut


# --- 5. a clock it does not trust blindly ---------------------------------------------------------------------

def test_opening_hours_wait_until_the_time_is_known_and_the_table_stays_awake_meanwhile(tmp_path):
    """After a power cut without network the Pi's clock said 03:00 at noon: the table stayed dark."""
    known = [None]
    rig = Rig(tmp_path, FAST, exhibit=MUSEUM, wall=THREE_AM, time_known=lambda: known[0])
    try:
        rig.session.open_menu(rig.time.now)
        rig.wait(10 * 60, step=1.0)
        assert rig.session.screen is not Screen.ASLEEP and rig.loop.lit == 1.0      # awake, day brightness
        assert rig.loop.clock_known is None
        assert rig.log == ["roseking: the time of day is not known yet (no network time, no real-time clock): the "
                           "opening hours and the night brightness wait for it, the table stays awake"]
        known[0] = "synchronised by network time"                   # the network comes back
        rig.wait(TIME_CHECK_SECONDS + 61, step=1.0)
        assert rig.session.screen is Screen.ASLEEP and rig.loop.clock_known == "synchronised by network time"
        assert rig.log[-1] == ("roseking: the time of day is known now (synchronised by network time): the opening "
                               "hours apply")
    finally:
        rig.close()


def test_the_time_is_known_once_synchronised_or_set_by_a_real_time_clock(tmp_path, monkeypatch):
    rtc = tmp_path / "hctosys"
    assert timekeeping.set_by_rtc(rtc) is False                     # no RTC at all (a Pi 4)
    rtc.write_text("0\n")
    assert timekeeping.set_by_rtc(rtc) is False                     # one that did not set the clock (no battery)
    rtc.write_text("1\n")
    assert timekeeping.set_by_rtc(rtc) is True
    assert isinstance(timekeeping.synchronised(), bool)             # the kernel asked, nothing changed
    monkeypatch.setattr(timekeeping, "synchronised", lambda: False)
    monkeypatch.setattr(timekeeping, "RTC_SET_AT_BOOT", rtc)
    monkeypatch.setattr(timekeeping.set_by_rtc, "__defaults__", (rtc,))
    assert timekeeping.how_known() == "set from the real-time clock at boot"
    monkeypatch.setattr(timekeeping, "synchronised", lambda: True)
    assert timekeeping.how_known() == "synchronised by network time"


def test_the_service_asks_the_machine_how_the_time_is_known(tmp_path):
    rig = Rig(tmp_path / "rig")
    try:
        saves, saved = service.open_saves(tmp_path / "data", None, FAST, print)
        loop = service.start(rig.devices, parse_config({}), FAST, saves, saved, Setup(), deal=False, demo=False,
                             log=print, clock=rig.time.clock)
        loop.computer.close()
        assert loop.time_known is timekeeping.how_known
    finally:
        rig.close()


# --- 6. the unit --------------------------------------------------------------------------------------------------

def install(tmp_path, *extra, config='backend = "pi"\n', data=None):
    path = tmp_path / "table.toml"
    path.write_bytes(config if isinstance(config, bytes) else config.encode())
    return ["install-service", "--config", str(path), "--path", str(tmp_path / "roseking.service"),
            "--data-dir", data or str(tmp_path / "games"), *extra]


def me():
    return pwd.getpwuid(os.getuid()).pw_name


def test_a_stop_is_a_success_and_the_status_lives_in_ram(tmp_path, capsys):
    """`systemctl stop` left the unit failed (exit 143 on SIGTERM); the status file wore the SD card."""
    assert main(install(tmp_path, "--print", "--user", me())) == 0
    unit = capsys.readouterr().out
    for line in ("SuccessExitStatus=143", "RuntimeDirectory=roseking", "RuntimeDirectoryPreserve=yes"):
        assert f"\n{line}\n" in unit, line


@pytest.mark.parametrize("model, user, ok", [
    ("Raspberry Pi 4 Model B Rev 1.5", "nobody", False), ("Raspberry Pi 4 Model B Rev 1.5", "root", True),
    ("Raspberry Pi 5 Model B Rev 1.0", "nobody", True), (None, "nobody", True)])
def test_a_pi_4_unit_must_run_as_root(tmp_path, capsys, monkeypatch, model, user, ok):
    """A Pi 4 installed without --user root restarted every 3 s for ever: its LED driver needs /dev/mem."""
    model_file = tmp_path / "model"
    if model:
        model_file.write_bytes(model.encode() + b"\0")
    monkeypatch.setattr("hardware.pi.MODEL_FILE", model_file)
    code = main(install(tmp_path, "--print", "--user", user))
    err = capsys.readouterr().err
    assert (code == 0) == ok, err
    if not ok:
        assert err == (f"error: --user nobody: on a {model} the board's LED driver (rpi_ws281x) needs root "
                       "(/dev/mem): add --user root (a Pi 5 runs the service as any user in the gpio and spi groups)\n")


@pytest.mark.parametrize("config, message", [
    ("[table]\nhint = true\n", 'backend: not set; add backend = "pi" or "sim"'),      # play would refuse it too
    ('backend = "pi"\n[web]\nport = 99999\n', "web.port"),
    ('backend = "pi"\n[table]\nlevel = "godlike"\n', "table.level"),
    (b'backend = "pi"\n# caf\xff\n', "table.toml: not UTF-8 text (byte 20)"),
    (b'backend = "pi"\n' + b"#" * (1 << 20), "table.toml: larger than 1048576 bytes"),
])
def test_a_configuration_play_refuses_is_refused_at_install(tmp_path, capsys, config, message):
    assert main(install(tmp_path, "--print", config=config)) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


@pytest.mark.parametrize("user, data, message", [
    ("", None, "--user: the user name is empty"),
    (None, "caf\udcff", "caf\\xff: not UTF-8, as every line of a unit must be"),
    (None, "a" * 300, "cannot make the data directory (File name too long)"),
    (None, "a/" * 2100, "longer than 4095 bytes"),
])
def test_odd_users_and_data_directories_are_one_error_line(tmp_path, capsys, user, data, message):
    """A non-UTF-8 or over-long --data-dir was a traceback; --user '' silently meant the caller."""
    argv = install(tmp_path, *(["--user", user] if user is not None else []),
                   data=str(tmp_path / data) if data is not None else None)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "roseking.service").exists()


# --- 7. spare the SD card -------------------------------------------------------------------------------------

def test_under_systemd_the_status_is_in_the_runtime_directory_and_the_data_directory_holds_a_link(tmp_path, capsys):
    data, run = tmp_path / "data", tmp_path / "run"
    data.mkdir()
    run.mkdir()
    rig = Rig(data)
    status = StatusCollector(str(data), "sim", clock=rig.time.clock)
    rig.loop.receivers.append(status)
    status.watch(rig.loop)
    writer = StatusFile(data, status, [].append, runtime=run)
    rig.loop.tickers.append(writer)
    try:
        rig.start(Setup(Mode.HUMANS, seed=7))
        link = data / STATUS_FILE
        before = link.lstat()
        rig.wait(60)                                                # twelve writes of the status
        assert link.is_symlink() and os.readlink(link) == str(run / STATUS_FILE)
        assert link.lstat().st_mtime_ns == before.st_mtime_ns       # the data directory was not written
        assert sorted(p.name for p in data.iterdir()) == ["current-game.json", STATUS_FILE]
        assert main(["status", "--data-dir", str(data)]) == 0
        assert capsys.readouterr().out.startswith("roseking is running")
    finally:
        rig.close()


# --- 8. a status a museum can monitor ---------------------------------------------------------------------------

@pytest.mark.parametrize("field, value", [
    ("written", None), ("written", "yesterday"), ("written", float("nan")), ("written", 1e300),
    ("pid", None), ("pid", "812"), ("pid", 10 ** 30), ("pid", True), ("uptime_seconds", None),
    ("uptime_seconds", {"nested": [1]}), ("brightness", "half"), ("brightness", float("inf")),
    ("errors", [{"at": "now", "line": "x"}]), ("errors", "many"), ("faults", [["lights"]]), ("running", "yes"),
    ("free_bytes", -1), ("last_ping", float("nan")),
])
def test_odd_values_in_the_status_file_are_one_error_line_with_status_2(tmp_path, capsys, field, value):
    """null, a string, NaN, huge or nested values were a traceback with status 1, which means STUCK."""
    assert main(status_of(tmp_path, **{field: value})) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    where = tmp_path / "data" / STATUS_FILE
    assert captured.err.startswith(f"error: {where}: not a status file of roseking ({field}: ")


def test_a_status_file_that_is_a_fifo_is_an_error_not_a_wait(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    os.mkfifo(data / STATUS_FILE)
    done = processes.run(ROSEKING + ["status", "--data-dir", str(data)], env=ENV, capture_output=True, text=True,
                         timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stderr.endswith("not a status file of roseking (not a regular file)\n")


def test_a_process_of_another_boot_with_the_same_id_is_down_not_stuck(tmp_path, capsys):
    """After a reboot that gave the service's old process id to another process, status said STUCK."""
    old = time.time() - 3600
    assert main(status_of(tmp_path, written=old, process="another-boot:12345")) == 3
    assert f"roseking is DOWN: its process {os.getpid()} is gone" in capsys.readouterr().out
    mine = StatusCollector(".", "sim").process
    assert mine is not None and main(status_of(tmp_path, process=mine)) == 0


# --- 9. a data directory that cannot be written -------------------------------------------------------------

class Frozen:
    """A data directory made unwritable (immutable, which even root cannot write; else read-only to its user)
    and writable again (`thaw`)."""

    def __init__(self, path):
        self.path = path
        path.mkdir(exist_ok=True)
        self.immutable = os.getuid() == 0 and processes.run(["chattr", "+i", str(path)],
                                                            capture_output=True).returncode == 0
        if not self.immutable:
            path.chmod(0o500)
            if os.access(path, os.W_OK):
                pytest.skip("no way to make a directory unwritable here")

    def thaw(self):
        if self.immutable:
            processes.run(["chattr", "-i", str(self.path)])
        self.path.chmod(0o700)


@pytest.fixture
def frozen(tmp_path):
    made = []
    yield lambda path: made.append(Frozen(path)) or made[-1]
    for f in made:
        f.thaw()


def test_a_data_directory_that_takes_nothing_is_said_at_once_on_the_table_and_in_the_status(frozen, tmp_path,
                                                                                               capsys):
    """A whole game played unsaved, exit 0, and nobody was told."""
    unwritable = frozen(tmp_path / "frozen").path
    rig = Rig(tmp_path / "rig", FAST)
    log = []
    try:
        saves, saved = service.open_saves(unwritable, None, FAST, log.append)
        status = StatusCollector(str(unwritable), "sim", log.append, clock=rig.time.clock)
        loop = service.start(rig.devices, parse_config({}), FAST, saves, saved, Setup(), deal=False, demo=False,
                             log=status.log, receivers=[status], clock=rig.time.clock, time_known=None)
        status.watch(loop)
        loop.step()
        assert len(log) == 1 and log[0].startswith(f"roseking: warning: {unwritable} cannot be written (")
        assert log[0].endswith("games are not saved until it can be (tried again at every move, and at least every "
                               "minute)")
        notice = loop.session.notice
        assert notice is not None and notice.text == say("not-saving", "en") == "NOT SAVING: STAFF PLEASE CHECK"
        assert "NOT SAVING" in rig.frame.caption
        assert status.status().faults == ("save",)
        record = {**status.status().to_dict(), "running": True, "written": time.time()}
        (tmp_path / "status").mkdir()
        (tmp_path / "status" / STATUS_FILE).write_text(json.dumps(record))
        assert main(["status", "--data-dir", str(tmp_path / "status")]) == 4
        assert "roseking is DEGRADED" in capsys.readouterr().out
        loop.computer.close()
    finally:
        rig.close()


def test_a_data_directory_that_can_be_written_again_is_used_again(frozen, tmp_path):
    rig = Rig(tmp_path / "data", FAST)
    try:
        ice = frozen(tmp_path / "data")
        rig.loop.check_saving()
        assert rig.loop.faults.down().keys() == {"save"} and rig.session.notice.text == say("not-saving", "en")
        rig.start(Setup(Mode.HUMANS, seed=2))
        rig.play(rig.game.pos.legal_moves()[0])                     # not saved: tried again and again
        rig.wait(5)
        assert not (tmp_path / "data" / "current-game.json").exists() and "save" in rig.loop.faults.down()
        ice.thaw()
        rig.wait(65)                                                # its next try, at most a minute later
        assert rig.loop.faults.down() == {} and "saving the game works again" in rig.log[-1]
        assert json.loads((tmp_path / "data" / "current-game.json").read_text())["moves"] == rig.game.pos.history()
    finally:
        rig.close()


async def test_a_question_asked_before_the_loop_runs_is_answered_once_it_runs(tmp_path):
    """A loop stepped before it ran (the soak does, on its own clock) asked the computer but never read its
    answer: a museum's table starting in attract mode stood still, its computer's answer unread."""
    rig = Rig(tmp_path, FAST)
    stop = asyncio.Event()
    try:
        game = rig.start(Setup(Mode.DEMO, "random", seed=1))       # stepped: the computer is asked at once
        assert rig.loop.computer.busy is not None
        running = asyncio.create_task(rig.loop.run(stop=stop))
        end = time.monotonic() + 30
        while game.shown is None and time.monotonic() < end:
            await asyncio.sleep(0.02)
        assert game.shown is not None and rig.loop.computer.busy is None
        stop.set()
        await running
    finally:
        rig.close()


def test_play_on_a_data_directory_that_takes_nothing_says_so_in_one_warning_line(frozen, tmp_path):
    data = frozen(tmp_path / "frozen").path
    script = tmp_path / "moves.txt"
    script.write_text("red.card1 press\nwait 0.2\nred.card1 press\nwait 0.3\n")
    done = processes.run(ROSEKING + ["play", "--sim", "--mode", "humans", "--seed", "3", "--data-dir", str(data),
                                     "--input-script", str(script), "--exit-after-script"],
                         env=ENV, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(f"roseking: warning: {data} cannot be written (")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
