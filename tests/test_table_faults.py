"""Parts that fail while the table runs, on the fake clock: the LED driver failing on every tenth frame and
the card displays' SPI failing (the Pi backend's own classes, only the wire replaced), the computer's worker
that keeps dying, a save on a full disk (a real small tmpfs where one can be mounted), a stuck button. The
game goes on, each part is tried again with backoff, each failure is logged once and then counted, and the
fault is shown on what still works."""
import contextlib
import errno
import json
import os
import signal
import subprocess

import board
import neopixel
import pytest
from gpiozero.pins.mock import MockFactory

from firmware_py.table import scenes
from firmware_py.table.computer import Computer
from firmware_py.table.faults import FAULT_MESSAGES, MOST_RETRY_SECONDS, UNAVAILABLE_AFTER
from firmware_py.table.game import Mode, Setup
from firmware_py.table.loop import TableLoop
from firmware_py.table.messages import EN, say
from firmware_py.table.saves import CURRENT, Saves
from firmware_py.table.exhibit import Exhibit
from firmware_py.table.session import Session
from firmware_py.table.settings import DEFAULT_SETTINGS
from hardware import parse_config
from hardware.buttons import Buttons
from hardware.devices import Devices
from hardware.events import ButtonTiming
from hardware.layout import cell_of_led
from hardware.lights import NeoPixelLights
from hardware.matrices import MatrixDisplays
from table_kit import Rig
from test_hardware_buttons import FakeTime

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")
CONFIG = parse_config({})


def said(part):
    """What the table says of `part`'s fault, in English (the default language)."""
    return say(FAULT_MESSAGES[part], EN)


class Serial:
    """luma's serial interface to the MAX7219 chain, failing while `broken` (a connector worked loose)."""

    def __init__(self, clock):
        self.clock, self.broken, self.writes, self.tries = clock, False, 0, []

    def command(self, *cmd):
        self.data(list(cmd))

    def data(self, data):
        self.tries.append(self.clock())
        if self.broken:
            raise OSError(errno.EIO, "Remote I/O error")
        self.writes += 1

    def cleanup(self):
        pass


class PiTable:
    """The table service on the Pi backend's classes: NeoPixelLights on Blinka's OS-agnostic board (every buffer
    sent through `neopixel_write` is `sent`, and the tenth call of each ten raises when `flaky`), MatrixDisplays
    on `serial`, buttons on mock pins; one fake clock."""

    def __init__(self, tmp_path, monkeypatch):
        self.time, self.sent, self.calls, self.flaky, self.dead = FakeTime(), [], 0, False, False
        monkeypatch.setattr(neopixel, "neopixel_write", self._write)
        self.factory = MockFactory()
        self.serial = Serial(self.time.clock)
        buttons = Buttons(CONFIG.buttons.pins, ButtonTiming(), self.factory, after=self.time.after)
        self.devices = Devices("pi", NeoPixelLights(CONFIG.board, board.NEOPIXEL),
                               MatrixDisplays(CONFIG.displays, self.serial), buttons, [self.factory.close])
        self.log = []
        self.session = Session(DEFAULT_SETTINGS, CONFIG.seats, Setup(), exhibit=Exhibit(attract_after=0))  # menu stays
        self.loop = TableLoop(self.session, self.devices.slots, Computer(10), Saves(tmp_path, log=self.log.append),
                              clock=self.time.clock, devices=self.devices)

    def _write(self, pin, buffer):
        self.calls += 1
        if self.flaky and self.calls % 10 == 0:
            raise RuntimeError("ws2811_render failed with code -7 (Failed to write to the PWM)")
        if self.dead:
            raise OSError(errno.EIO, "Input/output error")
        self.sent.append(bytes(buffer))

    def run(self, seconds):
        """Step the loop 20 times a second for `seconds` of the clock (the menu's ring turns: new frames)."""
        for _ in range(round(seconds / 0.05)):
            self.time.advance(0.05)
            self.loop.step()

    def close(self):
        self.serial.broken = self.dead = self.flaky = False
        self.loop.computer.close()
        self.devices.close()


@pytest.fixture
def table(tmp_path, monkeypatch):
    made = PiTable(tmp_path, monkeypatch)
    yield made
    made.close()


def led_colour(buffer, square_cell):
    """The (g, r, b) bytes sent for the frame cell `square_cell`."""
    led = cell_of_led(CONFIG.board.start, CONFIG.board.serpentine, CONFIG.board.rotation).index(square_cell)
    return tuple(buffer[3 * led:3 * led + 3])


def test_the_led_driver_failing_on_every_tenth_frame_keeps_the_game_and_the_displays(table):
    table.run(1.0)
    table.flaky = True
    frames_before, writes_before = table.calls, table.serial.writes
    table.run(240.0)                                              # four minutes of the menu's turning ring
    failures = table.calls // 10 - frames_before // 10
    assert failures > 100 and len(table.sent) > 9 * failures      # the board is shown between the failures
    assert table.serial.writes - writes_before > 10_000           # the displays never stopped
    said = [line for line in table.log if "the board's lights" in line]
    assert said[0].startswith("roseking: the board's lights failed (RuntimeError: ws2811_render failed with code -7")
    assert "tried again in 1 s" in said[0]
    assert [line.split(" failed ")[1] for line in said if " times so far" in line] == \
        ["10 times so far (RuntimeError)", "100 times so far (RuntimeError)"]
    assert sum("work again" in line for line in said) == 1       # its first return: never a flood of lines
    assert len(table.log) == len(said) == 4


def test_while_the_lights_are_out_the_displays_say_so_and_the_lights_are_tried_with_backoff(table):
    table.run(1.0)
    table.dead = True
    tries = []
    write = table.devices.lights.inner.show
    table.devices.lights.inner.show = lambda board: (tries.append(table.time.now), write(board))
    start = table.time.now
    table.run(200.0)
    assert [round(t - tries[0]) for t in tries] == [0, 1, 3, 7, 15, 31, 63, 123, 183]  # 1, 2, 4 … at most 60 s
    assert 0 <= tries[0] - start < 0.1 and MOST_RETRY_SECONDS == 60
    frame, now = table.loop.shown, table.time.now
    since = table.loop.faults.down()["lights"]
    showing = since + (now - since) // scenes.FAULT_PERIOD * scenes.FAULT_PERIOD
    if now < showing + scenes.lasts(said("lights"), 5, 20.0):
        wanted = scenes.text(said("lights"), showing, now, 5, 20.0)
        assert tuple(frame.bitmap(f"red.card{k + 1}") for k in range(5)) == wanted
    table.time.advance(scenes.FAULT_PERIOD - (now - since) % scenes.FAULT_PERIOD + 0.5)
    table.loop.step()                                              # a showing of the text has begun
    assert table.loop.shown.bitmap("red.card1") != scenes.frame(table.session, table.devices.slots,
                                                                  table.time.now).bitmap("red.card1")
    table.dead = False
    table.run(MOST_RETRY_SECONDS + 1)
    assert table.loop.faults.down() == {} and "work again (after 9 failures in a row)" in table.log[-1]
    assert table.sent and led_colour(table.sent[-1], 40) != (0, 0, 0)      # the board again: the crown on e5


def test_when_the_displays_fail_the_board_marks_its_corners_and_the_displays_come_back(table):
    table.run(1.0)
    table.serial.broken = True
    before = len(table.serial.tries)
    table.run(10.0)
    corner = led_colour(table.sent[-1], 0)
    assert corner == led_colour(table.sent[-1], 80) and corner[2] > corner[0] and corner[2] > 0   # blue: FAULT
    assert sum("the card displays failed (OSError: [Errno 5] Remote I/O error)" in line for line in table.log) == 1
    tries = sorted(set(table.serial.tries[before:]))
    assert [round(t - tries[0]) for t in tries] == [0, 1, 3, 7]         # 1 s, 2 s, 4 s … on the loop's clock
    table.serial.broken = False
    table.run(10.0)
    assert "displays" not in table.loop.faults.down() and led_colour(table.sent[-1], 0) != corner
    assert "roseking: the card displays work again" in table.log[-1]


def test_a_worker_that_keeps_dying_backs_off_and_the_table_says_the_computer_is_unavailable(tmp_path):
    rig = Rig(tmp_path / "data")
    try:
        rig.start(Setup(Mode.VS_COMPUTER, "easy", "white", seed=7))      # the computer plays red: it is asked
        workers, asked_at = [], []
        for death in range(UNAVAILABLE_AFTER + 1):
            assert rig.computer.busy is not None
            workers.append(rig.computer.pid())
            asked_at.append(rig.time.now)
            os.kill(rig.computer.pid(), signal.SIGKILL)                 # out of memory, say
            rig.loop.take_answer(timeout=30)
            assert rig.computer.busy is None
            delay = 2 ** death
            rig.wait(delay - 0.1)
            assert rig.computer.busy is None                            # not asked before its backoff is over
            assert ("computer" in rig.loop.faults.down()) == (death + 1 >= UNAVAILABLE_AFTER)
            rig.wait(0.2)
        assert len(set(workers)) == len(workers)                         # a fresh worker each time
        died = [line for line in rig.log if "the computer's worker" in line]
        assert died == [f"roseking: the computer's worker failed (exit status -{signal.SIGKILL}); the game goes on, "
                        f"tried again in 1 s, then less often (at most every {MOST_RETRY_SECONDS:g} s)"]
        assert rig.think()                                               # it answers at last
        assert "computer" not in rig.loop.faults.down()
        assert rig.log[-1] == f"roseking: the computer's worker works again (after {UNAVAILABLE_AFTER + 1} " \
                              "failures in a row)"
    finally:
        rig.close()


def test_the_table_says_the_computer_is_unavailable_on_every_seat(tmp_path):
    rig = Rig(tmp_path / "data")
    try:
        rig.start(Setup(Mode.VS_COMPUTER, "easy", "white", seed=7))
        for _ in range(UNAVAILABLE_AFTER):
            os.kill(rig.computer.pid(), signal.SIGKILL)
            rig.loop.take_answer(timeout=30)
            rig.wait(2 ** len([line for line in rig.log if "worker" in line]) + 0.1)
            if rig.computer.busy is None:
                rig.wait(5)
        since = rig.loop.faults.down()["computer"]
        rig.time.now = since + scenes.FAULT_PERIOD * 3 + 0.1                  # a showing has just begun
        rig.loop.step()
        wanted = scenes.text(said("computer"), since + scenes.FAULT_PERIOD * 3, rig.time.now, 5, 20.0)
        for seat in ("red", "white"):
            assert tuple(rig.frame.bitmap(f"{seat}.card{k + 1}") for k in range(5)) == wanted
    finally:
        rig.close()


@contextlib.contextmanager
def small_disk(path):
    """A 64 KiB tmpfs at `path` when this process may mount one (root), else None."""
    path.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(path)],
                                                   capture_output=True).returncode == 0
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", str(path)], check=True)


def fill(folder):
    """Fill the file system of `folder` up with one file; the file."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        with contextlib.suppress(OSError):
            while os.write(fd, b"\0" * 512):
                pass
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_keeps_the_game_in_memory_retries_with_backoff_and_saves_it_once_there_is_room(tmp_path,
                                                                                                  monkeypatch):
    with small_disk(tmp_path / "disk") as mounted:
        data = tmp_path / "disk" / "data"
        rig = Rig(data)
        tries = []
        save = rig.saves.save
        rig.saves.save = lambda game: (tries.append(rig.time.now), save(game))[1]
        filler = None
        try:
            game = rig.start(Setup(Mode.HUMANS, seed=7))
            if mounted:
                filler = fill(data)
            else:                                       # no mount here: every write of the save says ENOSPC
                import firmware_py.table.saves as saves_module

                def full(path, data_):
                    from firmware_py.errors import UsageError
                    raise UsageError(f"{path}: cannot write (No space left on device)")
                monkeypatch.setattr(saves_module, "write_file", full)
            tries.clear()
            rig.play(game.pos.legal_moves()[0])
            rig.play(game.pos.legal_moves()[0])
            rig.wait(20.0)
            assert len(game.pos.stack) == 2                             # the game goes on, in memory
            said = [line for line in rig.log if "could not be saved" in line]
            assert len(said) == 1 and "No space left on device" in said[0]
            gaps = [round(b - a) for a, b in zip(tries, tries[1:])]
            assert gaps[-3:] == [2, 4, 8] and len(tries) < 10          # tried again less and less often
            if mounted:
                filler.unlink()
            else:
                monkeypatch.undo()
            rig.wait(20.0)
            assert json.loads((data / CURRENT).read_text())["moves"] == game.pos.history()
            assert rig.log[-1].startswith("roseking: saving the game works again")
        finally:
            rig.close()


def test_a_stuck_button_is_logged_once_ignored_and_back_in_use_once_released(tmp_path):
    rig = Rig(tmp_path / "data")
    try:
        game = rig.start(Setup(Mode.HUMANS, seed=7))
        rig.hold("red.card1", seconds=ButtonTiming.stuck_seconds + 30)    # leant on for a minute and a half
        assert [line for line in rig.log if "button" in line] == [
            "roseking: button red.card1 has been down too long: taken to be stuck, and ignored until it comes up",
            "roseking: button red.card1 has come up: in use again"]
        assert game.preview is not None and game.pos.stack == []           # one press: a preview, nothing more
        rig.tap("red.card1")
        assert game.pos.history() == ["NE3"]                                 # back in use (R7: NE3 is card 1)
    finally:
        rig.close()
