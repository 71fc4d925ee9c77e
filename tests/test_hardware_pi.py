"""The Pi backend's own paths, run as a Pi 4 and as a Pi 5 in a subprocess (tests/fakepi).

Blinka, adafruit NeoPixel, luma and gpiozero run unchanged; only the metal is fake:
the GPIO chip, the NeoPixel drivers' C parts, spidev and what /proc says."""
import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import processes

from hardware.config import parse_config, read_config
from hardware.preflight import check

EXAMPLES = Path(__file__).parent.parent / "examples" / "config"

FAKEPI = Path(__file__).resolve().parent / "fakepi"
OFF = [0] * 81
OPEN_PI = ("import sys\nfrom hardware import HardwareError, open_devices, parse_config\n"
           "try:\n    open_devices(parse_config({'backend': 'pi'}))\n"
           "except HardwareError as exc:\n    print(f'error: {exc}', file=sys.stderr); sys.exit(2)\n")


def run_as_pi(tmp_path, model, *args, stdio=None, devices=("spidev0.0", "gpiochip0", "pio0"), **env):
    """Run `as_pi.py model args…` with `devices` in the pre-flight's /dev; returns (process, the fakes' log)."""
    root = tmp_path / "root"
    (root / "dev").mkdir(parents=True, exist_ok=True)
    for device in devices:
        (root / "dev" / device).touch()
    log = tmp_path / "hardware.jsonl"
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("BLINKA", "GPIOZERO"))}
    full_env.update(PYTHONPATH=str(FAKEPI), FAKE_PI_ROOT=str(root), FAKE_PI_LOG=str(log), **env)
    kwargs = {"stdin": stdio, "stdout": stdio} if stdio is not None else {"stdout": subprocess.PIPE}
    run = processes.run([sys.executable, str(FAKEPI / "as_pi.py"), model, *args], env=full_env,
                         stderr=subprocess.PIPE, text=True, timeout=60, check=False, **kwargs)
    events = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return run, events


def roseking_selftest(tmp_path, model, **options):
    config = tmp_path / "pi.toml"
    config.write_text('backend = "pi"\n')
    return run_as_pi(tmp_path, model, "roseking", "selftest", "--config", str(config), **options)


def one_error_line(run):
    assert run.returncode == 2, (run.returncode, run.stderr)      # not 139 (SIGSEGV), not 1 (a traceback)
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr
    return lines[0]


def test_a_pi4_led_driver_that_cannot_start_is_never_touched_again(tmp_path):
    """rpi_ws281x's failed init leaves null pointers: a blanking write after it would be a segfault."""
    run, events = roseking_selftest(tmp_path, "4", FAKE_WS281X_INIT="-5")
    line = one_error_line(run)
    assert "requires running with sudo" in line and "run with sudo" in line.split("):")[1]
    assert events == [["gpio-request", [18]], ["ws2811_init", -5], ["gpio-release", [18]]]


def test_a_pi5_led_driver_that_cannot_start_keeps_its_own_error(tmp_path):
    run, events = roseking_selftest(tmp_path, "5", FAKE_PIO_ERROR="Failed to open PIO device (error -13)")
    line = one_error_line(run)
    assert "Failed to open PIO device (error -13)" in line and "pio_init" not in line
    assert "/dev/pio0" in line and "gpio group" in line
    assert events == [["gpio-request", [18]], ["gpio-release", [18]]]


@pytest.mark.parametrize("model", ["4", "5"])
def test_open_pi_blanks_shows_and_closes_every_device(tmp_path, model):
    code = ("from hardware import Frame, glyph, open_devices, parse_config\n"
            "d = open_devices(parse_config({'backend': 'pi', 'board': {'gamma': 1.0, 'brightness': 1.0}}))\n"
            "board = [(0, 0, 0)] * 81; board[72] = (255, 0, 0)\n"        # a1: LED 0 of the default layout
            "d.show(Frame(board, {'red.card1': glyph('N1')}))\n"
            "d.close()\n")
    run, events = run_as_pi(tmp_path, model, "-c", code)
    assert run.returncode == 0, run.stderr
    kinds = [e[0] for e in events]
    assert kinds[0] == "gpio-request" and "gpio-release" in kinds
    if model == "4":
        leds = [e[1] for e in events if e[0] == "ws2811_render"]
        assert leds == [OFF, [0x00FF00] + OFF[1:], OFF]     # blank, the frame (GRB bytes as sent), blank
    else:
        bufs = [e[2] for e in events if e[0] == "pio_write"]
        assert [b[:3] for b in bufs] == [[0, 0, 0], [0, 255, 0], [0, 0, 0]]    # GRB on the wire
        assert all(len(b) == 243 for b in bufs)
    writes = [e for e in events if e[0] == "spi-write"]
    assert ["spi-open", 0, 0] in events and events.index(["spi-open", 0, 0]) < events.index(writes[0])
    assert all(speed == 8_000_000 for _, speed, _ in writes)          # luma's real spi() set the bus speed
    assert "spi-close" in kinds


@pytest.mark.parametrize("state, message", [
    ("missing", "no /dev/spidev0.0: enable SPI (sudo raspi-config nonint do_spi 0, then reboot)"),
    ("denied", "no permission for /dev/spidev0.0: join the spi group"),
])
def test_spi_faults_are_named_and_the_leds_are_left_dark(tmp_path, state, message):
    run, events = run_as_pi(tmp_path, "5", "-c", OPEN_PI, FAKE_SPI=state)
    assert message in one_error_line(run)
    writes = [e[2] for e in events if e[0] == "pio_write"]
    assert writes and not any(writes[-1])                               # blanked again on the way out


def test_a_missing_gpiod_is_named_and_blinka_never_offers_to_install_it(tmp_path):
    """Blinka asks "Install them…?" at a terminal; start-up must name the package and stop instead."""
    primary, secondary = pty.openpty()       # a terminal on stdin and stdout: where Blinka would prompt
    try:
        run, _ = run_as_pi(tmp_path, "4", "-c", OPEN_PI, stdio=secondary, FAKE_PI_ABSENT="gpiod")
    finally:
        os.close(secondary)
        os.close(primary)
    line = one_error_line(run)
    assert "Blinka needs gpiod>=2.2.2,<3" in line and "pip install 'gpiod>=2.2.2,<3'" in line


# The pre-flight, on a file tree of the test's own and a fake GPIO chip.

def fake_gpiod(busy=()):
    def line_info(offset):
        return SimpleNamespace(used=offset in busy, consumer="pigpiod" if offset in busy else "")
    chip = SimpleNamespace(get_info=lambda: SimpleNamespace(label="pinctrl-bcm2711"), get_line_info=line_info,
                           close=lambda: None)
    return SimpleNamespace(Chip=lambda path: chip)


@pytest.fixture
def pi_root(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "gpiod", fake_gpiod())
    for device in ("spidev0.0", "gpiochip0", "pio0"):
        (tmp_path / "dev").mkdir(exist_ok=True)
        (tmp_path / "dev" / device).touch()
    (tmp_path / "proc" / "asound").mkdir(parents=True)
    (tmp_path / "proc" / "asound" / "cards").write_text(" 0 [vc4hdmi0     ]: vc4-hdmi - vc4-hdmi-0\n")
    return tmp_path


PI4, PI5 = "Raspberry Pi 4 Model B Rev 1.4", "Raspberry Pi 5 Model B Rev 1.0"


def test_preflight_passes_a_ready_pi(pi_root):
    assert check(parse_config({}), PI4, pi_root, euid=0) == []
    assert check(parse_config({}), PI5, pi_root, euid=1000) == []


def test_preflight_finds_each_problem_with_its_fix(pi_root, monkeypatch):
    (pi_root / "dev" / "spidev0.0").unlink()
    (pi_root / "proc" / "asound" / "cards").write_text(" 1 [Headphones     ]: bcm2835_headpho\n")
    monkeypatch.setitem(sys.modules, "gpiod", fake_gpiod(busy={17}))
    findings = [str(f) for f in check(parse_config({}), PI4, pi_root, euid=1000)]
    assert findings == [
        "no /dev/spidev0.0: SPI is off: sudo raspi-config nonint do_spi 0, then reboot",
        ("not root (the Pi 4 NeoPixel driver, rpi_ws281x, needs it): run with sudo, "
         "e.g. sudo .venv/bin/roseking selftest --config roseking.toml"),
        ("analogue audio is on and shares GPIO 18's PWM with the LEDs: add dtparam=audio=off to "
         "/boot/firmware/config.txt, then reboot"),
        ("GPIO 17 (buttons red.card2) is in use by pigpiod: stop that program or its overlay, "
         "or choose another pin in the config"),
    ]


def test_preflight_on_a_pi5_wants_dev_pio0(pi_root):
    (pi_root / "dev" / "pio0").unlink()
    assert [f.problem for f in check(parse_config({}), PI5, pi_root, euid=0)] == [
        "no /dev/pio0 (the Pi 5 NeoPixel driver needs it)"]


def test_selftest_stops_at_the_preflight_before_any_led_is_lit(tmp_path):
    run, events = roseking_selftest(tmp_path, "5", devices=("gpiochip0", "pio0"))
    assert one_error_line(run) == ("error: pre-flight: 1 problem(s) on this Raspberry Pi 5 Model B Rev 1.0, "
                                   "listed above with their fixes")
    assert run.stdout == "pre-flight: no /dev/spidev0.0: SPI is off: sudo raspi-config nonint do_spi 0, then reboot\n"
    assert events == []


def start_selftest_then_signal(argv, sig, env, lit):
    """Start a self-test, send `sig` once `lit()` says an LED is on; returns its exit status."""
    import signal
    import time
    with processes.started(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as process:
        deadline = time.monotonic() + 30
        while not lit() and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(getattr(signal, sig))
        process.communicate(timeout=30)
    return process.returncode


def json_lines(path):
    """The whole JSON lines of a file another process may be writing."""
    text = path.read_text() if path.exists() else ""
    return [json.loads(line) for line in text[:text.rfind("\n") + 1].splitlines()]


@pytest.mark.parametrize("sig, status", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_stop_signal_blanks_the_pi_and_releases_its_pins(tmp_path, sig, status):
    root = tmp_path / "root" / "dev"
    root.mkdir(parents=True)
    for device in ("spidev0.0", "gpiochip0"):
        (root / device).touch()
    config = tmp_path / "pi.toml"
    config.write_text('backend = "pi"\n')
    log = tmp_path / "hardware.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BLINKA", "GPIOZERO"))}
    env.update(PYTHONPATH=str(FAKEPI), FAKE_PI_ROOT=str(tmp_path / "root"), FAKE_PI_LOG=str(log))
    argv = [sys.executable, str(FAKEPI / "as_pi.py"), "4", "roseking", "selftest", "--config", str(config),
            "--led-seconds", "0.2"]
    def lit():
        return any(e[0] == "ws2811_render" and any(e[1]) for e in json_lines(log))
    assert start_selftest_then_signal(argv, sig, env, lit) == status
    events = json_lines(log)
    renders = [e[1] for e in events if e[0] == "ws2811_render"]
    assert len(renders) >= 2 and any(renders[-2]) and renders[-1] == OFF        # lit, then blanked
    kinds = [e[0] for e in events]
    assert kinds.index("gpio-release") > max(i for i, k in enumerate(kinds) if k == "ws2811_render")
    assert "spi-close" in kinds
    spi = [e[2] for e in events if e[0] == "spi-write"]
    assert [0x0C, 0] * 10 in spi                                      # luma's cleanup: shutdown mode,
    assert spi[-8:] == [[digit, 0] * 10 for digit in range(1, 9)]     # then every row of every matrix dark


def test_sigterm_blanks_the_simulated_table(tmp_path):
    from PIL import Image

    from hardware.snapshot import Picture
    shots = tmp_path / "shots"
    argv = [sys.executable, "-m", "firmware_py.cli", "selftest", "--sim", "--snapshot", str(shots),
            "--led-seconds", "0.2"]
    def lit():
        return len(list(shots.glob("*.png"))) >= 2
    assert start_selftest_then_signal(argv, "SIGTERM", dict(os.environ), lit) == 143
    config = parse_config({})
    picture = Picture(config.displays.chain, config.displays.sides())
    last = Image.open(sorted(shots.glob("*.png"))[-1]).convert("RGB")
    assert all(last.getpixel(picture.cell_box(*divmod(cell, 9))[:2]) == (0, 0, 0) for cell in range(81))


def test_a_missing_gpio_chip_is_not_called_a_missing_group(tmp_path, monkeypatch):
    from hardware import pi
    monkeypatch.setattr(pi, "DEV", tmp_path)
    problem = pi.gpio_chip_problem()
    assert "there is no" in problem and "group" not in problem
    (tmp_path / "gpiochip0").touch()
    if os.geteuid() != 0:                       # root may open anything
        (tmp_path / "gpiochip0").chmod(0)
        assert "join the gpio group" in pi.gpio_chip_problem()


def test_a_pi_without_a_gpio_chip_says_so_before_touching_the_leds(tmp_path):
    run, events = run_as_pi(tmp_path, "4", "-c", OPEN_PI, devices=("spidev0.0",))
    assert one_error_line(run).endswith("there is no " + str(tmp_path / "root" / "dev") +
                                        "/gpiochip* (run Raspberry Pi OS with its own kernel)")
    assert events == []


def test_preflight_names_the_one_chip_select_overlay_when_gpio7_is_taken(pi_root, monkeypatch):
    """The teams table's menu button sits on GPIO 7, which dtparam=spi=on holds as SPI0's CE1."""
    monkeypatch.setitem(sys.modules, "gpiod", fake_gpiod(busy={7, 17}))
    teams = read_config((EXAMPLES / "teams-pi.toml").read_text(), "teams-pi.toml")
    fixes = {f.problem.split(" (")[0]: f.fix for f in check(teams, PI4, pi_root, euid=0)}
    assert "dtoverlay=spi0-1cs" in fixes["GPIO 7"]
    assert "dtoverlay" not in fixes["GPIO 17"]
